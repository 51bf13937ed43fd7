package live

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
)

// RequestError is a Cloud Control request that ended FAILED (or was
// cancelled): the handler's error code and status message.
type RequestError struct {
	Operation  string
	Type       string
	Identifier string
	Status     string
	// Code is the handler error code (Throttling, NotStabilized,
	// InvalidRequest, AccessDenied, ...).
	Code    string
	Message string
}

func (e *RequestError) Error() string {
	return fmt.Sprintf("cloud control %s %s %s: %s %s: %s", e.Operation, e.Type, e.Identifier, e.Status, e.Code, e.Message)
}

// ErrorCode returns the handler error code (smithy.APIError's shape).
func (e *RequestError) ErrorCode() string { return e.Code }

// UpdateCloudControl writes ops (an RFC 6902 patch) to a resource through
// Cloud Control UpdateResource and polls GetResourceRequestStatus until the
// request ends. It reads the model first and sends only the operations
// that still change it (EffectiveOps), so a repeated write is a no-op;
// token is the request's client token (idempotent retries of one attempt).
func (w *Writers) UpdateCloudControl(ctx context.Context, typ, id string, ops []byte, token string) error {
	if w.CloudControl == nil {
		return skip("no Cloud Control client")
	}
	id = w.arnIdentifier(ctx, typ, id)
	model, err := getResource(ctx, &Clients{CloudControl: w.CloudControl}, typ, id)
	if err != nil {
		return fmt.Errorf("read before update: %w", err)
	}
	eff, err := EffectiveOps(model, ops)
	if err != nil {
		return err
	}
	if string(eff) == "[]" {
		return nil
	}
	doc := string(eff)
	in := &cloudcontrol.UpdateResourceInput{TypeName: &typ, Identifier: &id, PatchDocument: &doc}
	if token != "" {
		in.ClientToken = &token
	}
	out, err := w.CloudControl.UpdateResource(ctx, in)
	if err != nil {
		return err
	}
	return w.await(ctx, out.ProgressEvent)
}

// DeleteCloudControl deletes a resource through Cloud Control
// DeleteResource and polls until the request ends; a resource already
// gone is deleted.
func (w *Writers) DeleteCloudControl(ctx context.Context, typ, id, token string) error {
	if w.CloudControl == nil {
		return skip("no Cloud Control client")
	}
	id = w.arnIdentifier(ctx, typ, id)
	in := &cloudcontrol.DeleteResourceInput{TypeName: &typ, Identifier: &id}
	if token != "" {
		in.ClientToken = &token
	}
	out, err := w.CloudControl.DeleteResource(ctx, in)
	if isNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	err = w.await(ctx, out.ProgressEvent)
	var re *RequestError
	if asRequestError(err, &re) && re.Code == string(cctypes.HandlerErrorCodeNotFound) {
		return nil
	}
	return err
}

func asRequestError(err error, re **RequestError) bool {
	r, ok := err.(*RequestError)
	if ok {
		*re = r
	}
	return ok
}

// await polls a request until it is no longer pending or in progress.
func (w *Writers) await(ctx context.Context, ev *cctypes.ProgressEvent) error {
	maxPoll := w.Poll
	if maxPoll <= 0 {
		maxPoll = DefaultPoll
	}
	// Short requests finish fast: the first waits are short, doubling up
	// to the poll interval.
	poll := min(100*time.Millisecond, maxPoll)
	for {
		if ev == nil {
			return fmt.Errorf("cloud control returned no progress event")
		}
		switch ev.OperationStatus {
		case cctypes.OperationStatusSuccess:
			return nil
		case cctypes.OperationStatusFailed, cctypes.OperationStatusCancelComplete:
			return &RequestError{
				Operation: string(ev.Operation), Type: deref(ev.TypeName), Identifier: deref(ev.Identifier),
				Status: string(ev.OperationStatus), Code: string(ev.ErrorCode), Message: deref(ev.StatusMessage),
			}
		}
		if err := w.sleep(ctx, poll); err != nil {
			return err
		}
		poll = min(2*poll, maxPoll)
		out, err := w.CloudControl.GetResourceRequestStatus(ctx, &cloudcontrol.GetResourceRequestStatusInput{RequestToken: ev.RequestToken})
		if err != nil {
			return fmt.Errorf("status of request %s: %w", deref(ev.RequestToken), err)
		}
		ev = out.ProgressEvent
	}
}

// arnIdentifier completes the identifier of a type whose Cloud Control
// identifier is an ARN (arnIdentifiers) when the caller, knowing no
// account or region, passed its physical id: the read clients' scope
// builds it. Every other identifier is returned as is.
func (w *Writers) arnIdentifier(ctx context.Context, typ, id string) string {
	build, ok := arnIdentifiers()[typ]
	if !ok || strings.HasPrefix(id, "arn:") || w.Read == nil {
		return id
	}
	if arn, err := build(id, nil, w.Read.scope(ctx)); err == nil {
		return arn
	}
	return id
}
