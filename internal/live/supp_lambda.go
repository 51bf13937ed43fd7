package live

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
)

// AWS::Lambda::Function: Cloud Control's model carries no hash of the
// deployed code (the code's location is write-only, and CodeSha256 is no
// schema property). GetFunctionConfiguration answers CodeSha256, which the
// classifier treats as generated (the anchor's GENERATED_TOPLEVEL_PATHS):
// shown, never drift, and a recorded baseline tells a code change by it.

var lambdaFunctionProps = []string{"CodeSha256"}

// readLambdaFunctionSupplement reads the function's code hash (physical
// id: the function name).
func readLambdaFunctionSupplement(ctx context.Context, c *Clients, r Request, _ map[string]any) (map[string]any, error) {
	if c.Lambda == nil {
		return nil, skip("no Lambda client")
	}
	out, err := c.Lambda.GetFunctionConfiguration(ctx, &lambda.GetFunctionConfigurationInput{FunctionName: aws.String(r.PhysicalID)})
	if err != nil {
		return nil, err
	}
	add := map[string]any{}
	if v := aws.ToString(out.CodeSha256); v != "" {
		add["CodeSha256"] = v
	}
	return add, nil
}
