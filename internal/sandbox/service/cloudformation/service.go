package cloudformation

import (
	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/schema"
)

// Service is the service's registration: CloudFormation (query/XML), the
// world's stacks and, for DescribeType, the schema facts of the world
// (world.Schemas) with facts answering the types it carries none for (nil
// knows none).
func Service(facts func(typeName string) (*schema.Facts, bool)) *wire.Service {
	t := types{fallback: facts}
	return wire.Query("cloudformation", "http://cloudformation.amazonaws.com/doc/2010-05-15/", wire.Ops{
		"DescribeStacks":         cfnDescribeStacks,
		"ListStacks":             cfnListStacks,
		"GetTemplate":            cfnGetTemplate,
		"ListStackResources":     cfnListStackResources,
		"DescribeStackResources": cfnDescribeStackResources,
		"ListExports":            cfnListExports,
		"ListImports":            cfnListImports,
		"DescribeType":           t.describeType,
	}).Scoped(stackARN)
}
