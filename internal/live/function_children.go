package live

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/lambda"
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
