package service

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"html/template"
	"net/http"
	"net/url"

	"github.com/aws/aws-lambda-go/events"
)

// linkPage is the approval link's one page: the revert and two buttons
// (GET shows it, so a chat's link preview decides nothing), or the result.
var linkPage = template.Must(template.New("approve").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>realdrift revert {{.RunID}}</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 2em auto">
<h1>realdrift revert</h1>
{{if .Stack}}<p>Stack <b>{{.Stack}}</b>: {{.Items}} item(s) to write. Execution <code>{{.RunID}}</code>.</p>{{end}}
{{if .Message}}<p><b>{{.Message}}</b></p>{{end}}
{{if .Form}}<form method="post">
<input type="hidden" name="execution" value="{{.RunID}}">
<input type="hidden" name="code" value="{{.Code}}">
<p><label>Reason (optional) <input name="reason" size="40"></label></p>
<button name="decision" value="approve">Approve and write</button>
<button name="decision" value="reject">Reject</button>
</form>{{end}}
</body></html>
`))

type linkView struct {
	RunID, Code, Stack, Message string
	Items                       int
	Form                        bool
}

// ApproveLink is the approve-link function (a Lambda function URL): GET
// with ?execution=&code= shows the waiting revert and the approve and
// reject buttons; their POST sends the decision (Decide, via "link"). The
// code is the one-time secret of the approval message; anything else is
// refused without telling whether the execution exists.
func (s *Service) ApproveLink(ctx context.Context, req events.LambdaFunctionURLRequest) (events.LambdaFunctionURLResponse, error) {
	var q url.Values
	switch req.RequestContext.HTTP.Method {
	case http.MethodGet:
		q, _ = url.ParseQuery(req.RawQueryString)
	case http.MethodPost:
		body := req.Body
		if req.IsBase64Encoded {
			b, err := base64.StdEncoding.DecodeString(body)
			if err != nil {
				return page(http.StatusBadRequest, linkView{Message: "The form could not be read."})
			}
			body = string(b)
		}
		q, _ = url.ParseQuery(body)
	default:
		return page(http.StatusMethodNotAllowed, linkView{Message: "Use the link in the approval message."})
	}
	runID, code := q.Get("execution"), q.Get("code")
	ap, err := checkLink(ctx, s.store, runID, code)
	switch {
	case errors.Is(err, ErrBadLink) || errors.Is(err, ErrNoApproval):
		return page(http.StatusForbidden, linkView{Message: "This approval link is not valid."})
	case err != nil:
		return events.LambdaFunctionURLResponse{}, err
	}
	v := linkView{RunID: runID, Code: code, Stack: ap.Stack.String(), Items: ap.Items}
	if req.RequestContext.HTTP.Method == http.MethodGet {
		v.Form = true
		return page(http.StatusOK, v)
	}
	d := Decision{Via: "link", Approver: "approval link from " + req.RequestContext.HTTP.SourceIP, Reason: q.Get("reason")}
	switch q.Get("decision") {
	case "approve":
		d.Approve = true
	case "reject":
	default:
		v.Form, v.Message = true, "Choose approve or reject."
		return page(http.StatusBadRequest, v)
	}
	_, err = Decide(ctx, s.store, s.tasks, runID, d, s.now())
	switch {
	case errors.Is(err, ErrDecided) || errors.Is(err, ErrNotPending):
		v.Message = err.Error()
		return page(http.StatusConflict, v)
	case err != nil:
		return events.LambdaFunctionURLResponse{}, err
	case d.Approve:
		v.Message = "Approved: the revert writes now. Its outcome is sent to the same channels."
	default:
		v.Message = "Rejected: nothing is written."
	}
	return page(http.StatusOK, v)
}

func page(status int, v linkView) (events.LambdaFunctionURLResponse, error) {
	var b bytes.Buffer
	if err := linkPage.Execute(&b, v); err != nil {
		return events.LambdaFunctionURLResponse{}, err
	}
	return events.LambdaFunctionURLResponse{
		StatusCode: status, Body: b.String(),
		Headers: map[string]string{"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer"},
	}, nil
}
