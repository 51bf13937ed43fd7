package live

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/lambda"

	"github.com/realdrift/realdrift/internal/drift"
)

// functionURLs lists a function's URL configs (AWS::Lambda::Url, identified
// by the config's FunctionArn).
func functionURLs(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.Lambda == nil {
		return nil, skip("no Lambda client")
	}
	declared := declaredIDs(stack, "AWS::Lambda::Url")
	var out []candidate
	p := lambda.NewListFunctionUrlConfigsPaginator(c.Lambda, &lambda.ListFunctionUrlConfigsInput{FunctionName: &parent.PhysicalID})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, u := range page.FunctionUrlConfigs {
			if id := deref(u.FunctionArn); id != "" && !declared[id] {
				out = append(out, candidate{typ: "AWS::Lambda::Url", id: id})
			}
		}
	}
	return out, nil
}

// functionAliases lists a function's aliases (AWS::Lambda::Alias,
// identified by the AliasArn, which is also an alias's physical id).
func functionAliases(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.Lambda == nil {
		return nil, skip("no Lambda client")
	}
	declared := declaredIDs(stack, "AWS::Lambda::Alias")
	var out []candidate
	p := lambda.NewListAliasesPaginator(c.Lambda, &lambda.ListAliasesInput{FunctionName: &parent.PhysicalID})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, a := range page.Aliases {
			if id := deref(a.AliasArn); id != "" && !declared[id] {
				out = append(out, candidate{typ: "AWS::Lambda::Alias", id: id})
			}
		}
	}
	return out, nil
}

// eventSourceMappings lists a function's event source mappings
// (AWS::Lambda::EventSourceMapping, identified by the mapping UUID).
func eventSourceMappings(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.Lambda == nil {
		return nil, skip("no Lambda client")
	}
	declared := declaredIDs(stack, "AWS::Lambda::EventSourceMapping")
	var out []candidate
	p := lambda.NewListEventSourceMappingsPaginator(c.Lambda, &lambda.ListEventSourceMappingsInput{FunctionName: &parent.PhysicalID})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, m := range page.EventSourceMappings {
			if id := deref(m.UUID); id != "" && !declared[id] {
				out = append(out, candidate{typ: "AWS::Lambda::EventSourceMapping", id: id})
			}
		}
	}
	return out, nil
}

// functionVersions lists a function's published versions
// (AWS::Lambda::Version, identified by the versioned function ARN, which
// is also a version's physical id). $LATEST is no version and is skipped.
func functionVersions(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.Lambda == nil {
		return nil, skip("no Lambda client")
	}
	declared := declaredIDs(stack, "AWS::Lambda::Version")
	var out []candidate
	p := lambda.NewListVersionsByFunctionPaginator(c.Lambda, &lambda.ListVersionsByFunctionInput{FunctionName: &parent.PhysicalID})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, v := range page.Versions {
			id := deref(v.FunctionArn)
			if deref(v.Version) == "$LATEST" || id == "" || declared[id] {
				continue
			}
			out = append(out, candidate{typ: "AWS::Lambda::Version", id: id})
		}
	}
	return out, nil
}

// functionPermissions lists the statements of a function's resource
// policy that no AWS::Lambda::Permission of the stack declares (an
// out-of-band `lambda add-permission`), as AWS::Lambda::Permission
// children identified by the statement id, their model projected from the
// statement as the permission reader does. A statement is declared when a
// permission's physical id is its Sid (CloudFormation's statement id), or
// when a permission on this function (or on a function not resolved yet)
// has the statement's Action and Principal (and SourceArn when declared).
// A function without a policy has no permission children.
func functionPermissions(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.Lambda == nil {
		return nil, skip("no Lambda client")
	}
	out, err := c.Lambda.GetPolicy(ctx, &lambda.GetPolicyInput{FunctionName: &parent.PhysicalID})
	if isNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	doc, err := parsePolicy(deref(out.Policy))
	if err != nil {
		return nil, err
	}
	var perms []Request
	for _, r := range stack {
		if r.Type != "AWS::Lambda::Permission" {
			continue
		}
		// A FunctionName not resolved yet may name this function.
		if s, ok := r.Declared["FunctionName"].(string); ok && !sameFunction(s, parent.PhysicalID) {
			continue
		}
		perms = append(perms, Request{Type: r.Type, LogicalID: r.LogicalID, PhysicalID: r.PhysicalID, Declared: r.Declared})
	}
	sids := declaredIDs(stack, "AWS::Lambda::Permission")
	var cands []candidate
	for _, st := range statements(doc) {
		sid, _ := st["Sid"].(string)
		if sid == "" || sids[sid] {
			continue
		}
		declared := false
		for _, p := range perms {
			// Fail closed: a permission whose statement fields are not
			// resolved may be this statement.
			if drift.ContainsUnknown(p.Declared["Action"]) || drift.ContainsUnknown(p.Declared["Principal"]) || drift.ContainsUnknown(p.Declared["SourceArn"]) ||
				matchStatement([]map[string]any{st}, Request{Declared: p.Declared}) != nil {
				declared = true
				break
			}
		}
		if declared {
			continue
		}
		cands = append(cands, candidate{typ: "AWS::Lambda::Permission", id: sid, model: permissionModel(st, parent.PhysicalID, nil)})
	}
	return cands, nil
}

// sameFunction reports whether a function reference (name, ARN or partial
// ARN) names the function whose physical id (its name) is name.
func sameFunction(ref, name string) bool {
	if ref == name {
		return true
	}
	// arn:aws:lambda:REGION:ACCOUNT:function:NAME[:QUALIFIER] or ACCOUNT:function:NAME
	if i := strings.Index(ref, "function:"); i >= 0 {
		rest := ref[i+len("function:"):]
		if j := strings.IndexByte(rest, ':'); j >= 0 {
			rest = rest[:j]
		}
		return rest == name
	}
	return false
}
