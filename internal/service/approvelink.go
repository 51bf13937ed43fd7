package service

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"

	"github.com/aws/aws-lambda-go/events"
)

// LinkRequest is the body of a decision sent to the approve-link
// function's URL (`realdrift approve --url`).
type LinkRequest struct {
	Execution string `json:"execution"`
	// Decision is "approve" or "reject".
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
}

// LinkResponse is the approve-link function's answer: the revert it
// decided (or shows), who decided, or why nothing was decided.
type LinkResponse struct {
	Pending  *Pending `json:"pending,omitempty"`
	Decision string   `json:"decision,omitempty"`
	Approver string   `json:"approver,omitempty"`
	Error    string   `json:"error,omitempty"`
}

// ViaURL is the Approval.Via of a decision made through the approve-link
// function's URL; ViaCLI one made by `realdrift approve --store`.
const (
	ViaURL = "iam-url"
	ViaCLI = "cli"
)

// ApproveLink is the approve-link function, behind a Lambda function URL
// with AuthType AWS_IAM: Lambda lets through only requests SigV4-signed by
// a principal IAM allows lambda:InvokeFunctionUrl (infra's approver
// policy), and names that principal in requestContext.authorizer.iam. The
// approver recorded is that principal's ARN, never an address or
// anything the caller says of itself. A request without that identity (a
// URL misconfigured as AuthType NONE) is refused, 403, before anything is
// read. GET ?execution= shows the waiting revert; POST with a LinkRequest
// decides (Decide, via ViaURL). Answers are JSON (LinkResponse).
func (s *Service) ApproveLink(ctx context.Context, req events.LambdaFunctionURLRequest) (events.LambdaFunctionURLResponse, error) {
	az := req.RequestContext.Authorizer
	if az == nil || az.IAM == nil || az.IAM.UserARN == "" {
		return linkAnswer(http.StatusForbidden, LinkResponse{Error: "an IAM-signed request is required (the function URL's AuthType must be AWS_IAM)"})
	}
	approver := az.IAM.UserARN
	var lr LinkRequest
	switch req.RequestContext.HTTP.Method {
	case http.MethodGet:
		q, _ := url.ParseQuery(req.RawQueryString)
		lr.Execution = q.Get("execution")
	case http.MethodPost:
		body := []byte(req.Body)
		if req.IsBase64Encoded {
			b, err := base64.StdEncoding.DecodeString(req.Body)
			if err != nil {
				return linkAnswer(http.StatusBadRequest, LinkResponse{Error: "the body is not valid base64"})
			}
			body = b
		}
		if err := json.Unmarshal(body, &lr); err != nil {
			return linkAnswer(http.StatusBadRequest, LinkResponse{Error: "the body is not a decision: " + err.Error()})
		}
	default:
		return linkAnswer(http.StatusMethodNotAllowed, LinkResponse{Error: "use GET to show a revert, POST to decide"})
	}
	runID := ExecutionName(lr.Execution)
	if runID == "" {
		return linkAnswer(http.StatusBadRequest, LinkResponse{Error: "name the execution"})
	}
	if req.RequestContext.HTTP.Method == http.MethodGet {
		var ap approvalState
		err := getState(ctx, s.store, runID, keyApproval, &ap)
		switch {
		case errors.Is(err, ErrNoApproval):
			return linkAnswer(http.StatusNotFound, LinkResponse{Error: err.Error()})
		case err != nil:
			return events.LambdaFunctionURLResponse{}, err
		}
		return linkAnswer(http.StatusOK, LinkResponse{Pending: &Pending{RunID: runID, Execution: ap.Execution, Stack: ap.Stack, Items: ap.Items, RequestedAt: ap.RequestedAt}})
	}
	d := Decision{Via: ViaURL, Approver: approver, Reason: clip(lr.Reason, maxReason)}
	switch lr.Decision {
	case "approve":
		d.Approve = true
	case "reject":
	default:
		return linkAnswer(http.StatusBadRequest, LinkResponse{Error: `decision: want "approve" or "reject"`})
	}
	p, err := Decide(ctx, s.store, s.tasks, runID, d, s.now())
	switch {
	case errors.Is(err, ErrNoApproval):
		return linkAnswer(http.StatusNotFound, LinkResponse{Error: err.Error()})
	case errors.Is(err, ErrDecided) || errors.Is(err, ErrNotPending):
		return linkAnswer(http.StatusConflict, LinkResponse{Pending: &p, Error: err.Error()})
	case err != nil:
		return events.LambdaFunctionURLResponse{}, err
	}
	return linkAnswer(http.StatusOK, LinkResponse{Pending: &p, Decision: lr.Decision, Approver: approver})
}

func linkAnswer(status int, v LinkResponse) (events.LambdaFunctionURLResponse, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return events.LambdaFunctionURLResponse{}, err
	}
	return events.LambdaFunctionURLResponse{
		StatusCode: status, Body: string(b),
		Headers: map[string]string{"Content-Type": "application/json", "Cache-Control": "no-store"},
	}, nil
}
