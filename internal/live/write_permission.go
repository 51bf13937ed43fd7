package live

import (
	"context"
	"fmt"
	"reflect"

	"github.com/aws/aws-sdk-go-v2/service/lambda"
	lambdatypes "github.com/aws/aws-sdk-go-v2/service/lambda/types"
)

// writePermission writes AWS::Lambda::Permission by rebuilding its one
// statement: RemovePermission of the statement id (the physical id), then
// AddPermission with the patched model. A no-op when nothing changes.
func writePermission(ctx context.Context, w *Writers, t Target, ops []byte, _ any) error {
	if w.Lambda == nil {
		return skip("no Lambda client")
	}
	before, after, err := w.patched(ctx, t, ops)
	if err != nil {
		return err
	}
	if reflect.DeepEqual(before, after) {
		return nil
	}
	fn, _ := t.Declared["FunctionName"].(string)
	if fn == "" {
		return fmt.Errorf("write %s: FunctionName is not resolved", t.LogicalID)
	}
	sid := t.PhysicalID
	str := func(k string) *string {
		if s, ok := after[k].(string); ok && s != "" {
			return &s
		}
		return nil
	}
	if str("Action") == nil || str("Principal") == nil {
		return fmt.Errorf("write %s: the target permission has no Action or Principal", t.LogicalID)
	}
	if len(before) > 0 {
		if _, err := w.Lambda.RemovePermission(ctx, &lambda.RemovePermissionInput{FunctionName: &fn, StatementId: &sid}); err != nil && !isNotFound(err) {
			return err
		}
	}
	in := &lambda.AddPermissionInput{
		FunctionName: &fn, StatementId: &sid, Action: str("Action"), Principal: str("Principal"),
		SourceArn: str("SourceArn"), SourceAccount: str("SourceAccount"), PrincipalOrgID: str("PrincipalOrgID"),
		EventSourceToken: str("EventSourceToken"),
	}
	if a := str("FunctionUrlAuthType"); a != nil {
		in.FunctionUrlAuthType = lambdatypes.FunctionUrlAuthType(*a)
	}
	_, err = w.Lambda.AddPermission(ctx, in)
	return err
}

// deletePermission removes an out-of-band statement from a function's
// resource policy; the function is the child's FunctionName.
func deletePermission(ctx context.Context, w *Writers, _, sid string, model map[string]any) error {
	if w.Lambda == nil {
		return skip("no Lambda client")
	}
	fn, _ := model["FunctionName"].(string)
	if fn == "" {
		return fmt.Errorf("delete permission %s: its function is not known", sid)
	}
	_, err := w.Lambda.RemovePermission(ctx, &lambda.RemovePermissionInput{FunctionName: &fn, StatementId: &sid})
	return err
}
