package schema_test

import (
	"context"
	"fmt"

	"github.com/realdrift/realdrift/internal/schema"
	"github.com/realdrift/realdrift/internal/schema/schematest"
)

// A Registry asks the account's registry first and falls back to the
// embedded snapshot; here the stand-in registry knows no types.
func ExampleRegistry() {
	snap, err := schema.Embedded()
	if err != nil {
		fmt.Println(err)
		return
	}
	reg := schema.NewRegistry(&schematest.Describer{}, snap)
	res, err := reg.Resolve(context.Background(), "AWS::Lambda::Function")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Origin, res.DescribeErr != nil)
	fmt.Println(res.Facts.PrimaryIdentifier, res.Facts.FreeFormMapPaths)
	fmt.Println(res.Facts.DefaultPaths["DurableConfig.RetentionPeriodInDays"])
	// Output:
	// snapshot true
	// [FunctionName] [Environment.Variables]
	// 14
}

func ExampleFromRegistry() {
	f, err := schema.FromRegistry([]byte(`{
	  "typeName": "Example::Queue::Queue",
	  "properties": {
	    "Arn": {"type": "string"},
	    "Name": {"type": "string"},
	    "Fifo": {"type": "boolean", "default": "false"},
	    "Targets": {"type": "array", "insertionOrder": false, "items": {"type": "string"}}
	  },
	  "readOnlyProperties": ["/properties/Arn"],
	  "createOnlyProperties": ["/properties/Name"],
	  "primaryIdentifier": ["/properties/Arn"],
	  "handlers": {"read": {}, "create": {}}
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.ReadOnly, f.CreateOnly, f.PrimaryIdentifier)
	fmt.Println(f.Defaults, f.UnorderedScalarPaths)
	fmt.Println(f.Handlers, f.Readable(), f.Updatable())
	// Output:
	// [Arn] [Name] [Arn]
	// map[Fifo:false] [Targets]
	// [create read] true false
}
