package live

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
)

// The EventBridge family: the out-of-band rules of a declared
// AWS::Events::EventBus.

type eventsAPI interface {
	ListRules(ctx context.Context, in *eventbridge.ListRulesInput, optFns ...func(*eventbridge.Options)) (*eventbridge.ListRulesOutput, error)
}

var _ eventsAPI = (*eventbridge.Client)(nil)

// busRules lists the rules on a declared event bus (physical id: its name)
// that the stack does not declare, leaving out the rules AWS services
// manage on it (ManagedBy). Each is read in full through Cloud Control by
// its ARN; its CloudFormation physical id, "<bus>|<rule>", is what the
// ownership check asks for.
func busRules(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.Events == nil {
		return nil, skip("no EventBridge client")
	}
	bus := parent.PhysicalID
	declared := declaredIDs(stack, "AWS::Events::Rule")
	var out []candidate
	in := &eventbridge.ListRulesInput{EventBusName: &bus}
	for {
		page, err := c.Events.ListRules(ctx, in)
		if isNotFound(err) {
			return nil, nil // the bus itself is reported deleted
		}
		if err != nil {
			return nil, err
		}
		for _, r := range page.Rules {
			if aws.ToString(r.ManagedBy) != "" {
				continue
			}
			name := aws.ToString(r.Name)
			physical := bus + "|" + name
			if bus == "default" {
				physical = name
			}
			if declared[physical] || declared[name] {
				continue
			}
			out = append(out, candidate{typ: "AWS::Events::Rule", id: aws.ToString(r.Arn), physical: physical})
		}
		if aws.ToString(page.NextToken) == "" {
			return out, nil
		}
		in.NextToken = page.NextToken
	}
}
