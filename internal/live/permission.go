package live

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/lambda"
)

// permissionConditions maps a Lambda permission property to the condition
// key the service stores it under (matched case-insensitively, under any
// condition operator).
func permissionConditions() map[string]string {
	return map[string]string{
		"SourceArn":           "aws:sourcearn",
		"SourceAccount":       "aws:sourceaccount",
		"EventSourceToken":    "lambda:eventsourcetoken",
		"PrincipalOrgID":      "aws:principalorgid",
		"FunctionUrlAuthType": "lambda:functionurlauthtype",
	}
}

var rootPrincipal = regexp.MustCompile(`^arn:aws[a-z-]*:iam::(\d{12}):root$`)

// readPermission reads AWS::Lambda::Permission: {FunctionName, Action,
// Principal, SourceArn, SourceAccount, EventSourceToken, PrincipalOrgID,
// FunctionUrlAuthType}, projected from the function's resource policy. The
// statement is matched by Sid = the physical id first, then by Action +
// Principal (+ SourceArn when declared). FunctionName echoes the declared
// form the policy was fetched by. No matching statement means the
// permission was removed.
func readPermission(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	fn, err := declaredString(r.Declared, "FunctionName")
	if err != nil {
		return nil, err
	}
	if c.Lambda == nil {
		return nil, skip("no Lambda client")
	}
	out, err := c.Lambda.GetPolicy(ctx, &lambda.GetPolicyInput{FunctionName: &fn})
	if err != nil {
		return nil, err
	}
	doc, err := parsePolicy(deref(out.Policy))
	if err != nil {
		return nil, err
	}
	st := matchStatement(statements(doc), r)
	if st == nil {
		return nil, fmt.Errorf("permission %s on %s: %w", r.PhysicalID, fn, ErrNotFound)
	}
	return permissionModel(st, fn, r.Declared["Principal"]), nil
}

// permissionModel projects a function policy statement to the
// AWS::Lambda::Permission shape; fn is the FunctionName to echo.
func permissionModel(st map[string]any, fn string, declaredPrincipal any) map[string]any {
	model := map[string]any{"FunctionName": fn}
	if a, ok := st["Action"]; ok {
		if l, isList := a.([]any); isList && len(l) == 1 {
			a = l[0]
		}
		model["Action"] = a
	}
	if p, ok := principalOf(st["Principal"], declaredPrincipal); ok {
		model["Principal"] = p
	}
	cond, _ := st["Condition"].(map[string]any)
	for prop, key := range permissionConditions() {
		if v, ok := conditionValue(cond, key); ok {
			model[prop] = v
		}
	}
	return model
}

// statements returns a policy's statements as objects.
func statements(doc map[string]any) []map[string]any {
	var out []map[string]any
	switch s := doc["Statement"].(type) {
	case map[string]any:
		out = append(out, s)
	case []any:
		for _, e := range s {
			if m, ok := e.(map[string]any); ok {
				out = append(out, m)
			}
		}
	}
	return out
}

func matchStatement(sts []map[string]any, r Request) map[string]any {
	for _, st := range sts {
		if sid, _ := st["Sid"].(string); sid != "" && sid == r.PhysicalID {
			return st
		}
	}
	action, _ := r.Declared["Action"].(string)
	principal, _ := r.Declared["Principal"].(string)
	source, hasSource := r.Declared["SourceArn"].(string)
	if action == "" || principal == "" {
		return nil
	}
	for _, st := range sts {
		a, _ := st["Action"].(string)
		p, _ := principalOf(st["Principal"], principal)
		if !strings.EqualFold(a, action) || p != principal {
			continue
		}
		if hasSource {
			cond, _ := st["Condition"].(map[string]any)
			if v, _ := conditionValue(cond, "aws:sourcearn"); v != source {
				continue
			}
		}
		return st
	}
	return nil
}

// principalOf projects a statement principal to the CloudFormation form: a
// service name, an account id (when the declared form is one and the live
// form is that account's root ARN), an ARN, or "*".
func principalOf(p any, declared any) (any, bool) {
	switch t := p.(type) {
	case nil:
		return nil, false
	case string:
		return t, true
	case map[string]any:
		if s, ok := t["Service"].(string); ok {
			return s, true
		}
		if a, ok := t["AWS"].(string); ok {
			if m := rootPrincipal.FindStringSubmatch(a); m != nil && declared == m[1] {
				return m[1], true
			}
			return a, true
		}
	}
	return p, true
}

// conditionValue finds key under any operator of a condition block.
func conditionValue(cond map[string]any, key string) (any, bool) {
	for _, block := range cond {
		m, ok := block.(map[string]any)
		if !ok {
			continue
		}
		for k, v := range m {
			if strings.EqualFold(k, key) {
				return v, true
			}
		}
	}
	return nil, false
}
