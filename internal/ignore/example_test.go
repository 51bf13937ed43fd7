package ignore_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
	"github.com/realdrift/realdrift/internal/store"
)

func ExampleParse() {
	rules, err := ignore.Parse("ignore.yaml", []byte(`
ignore:
  # DesiredCount is managed by Application Auto Scaling
  - path: '*.DesiredCount'
  - path: Fn*.ReservedConcurrentExecutions
    stack: Prod*
    account: '111111111111'
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rules {
		fmt.Println(r.Source, r)
	}
	_, err = ignore.Parse("ignore.yaml", []byte("ignroe:\n  - path: '*.X'\n"))
	fmt.Println(err)
	// Output:
	// ignore.yaml:4 *.DesiredCount
	// ignore.yaml:5 Fn*.ReservedConcurrentExecutions stack=Prod* account=111111111111
	// ignore.yaml:1: unknown top-level key "ignroe" (the only key is ignore)
}

func ExampleApply() {
	stack := drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: "Prod"}
	findings := []drift.Finding{
		{Tier: drift.Declared, LogicalID: "Svc1A2B", ConstructPath: "Prod/Svc/Service", Path: "DesiredCount", Actual: 4.0, Desired: 2.0},
		{Tier: drift.Undeclared, LogicalID: "Role9F", ConstructPath: "Prod/ApiRole/Resource", Path: "Policies.0.PolicyName", Actual: "x"},
		{Tier: drift.Deleted, LogicalID: "Queue1"},
	}
	rules := []ignore.Rule{
		{Path: "*.DesiredCount"},
		{Path: "ApiRole.Policies", Stack: "Prod*"}, // a parent path covers its children
		{Path: "*"}, // never silences a deletion
	}
	for _, f := range ignore.Apply(findings, stack, rules) {
		fmt.Printf("%-10s %-34s %s\n", f.Tier, ignore.DisplayPath(stack.Name, f), f.Reason)
	}
	// Output:
	// ignored    Svc/Service.DesiredCount           ignore rule *.DesiredCount
	// ignored    ApiRole.Policies.0.PolicyName      ignore rule ApiRole.Policies stack=Prod*
	// deleted    Queue1
}

func ExampleAppendStored() {
	dir, err := os.MkdirTemp("", "ignore-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	st := store.NewFile(dir) // the CLI's state directory
	name := filepath.Join(dir, "ignore.yaml")
	_ = os.WriteFile(name, []byte("ignore:\n  # scaled by AAS\n  - path: '*.DesiredCount'\n"), 0o644)

	added, err := ignore.AppendStored(context.Background(), st, "", []ignore.Rule{
		{Path: "*.DesiredCount"}, // already there: skipped
		{Path: "Fn.ReservedConcurrentExecutions", Account: "111111111111"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("added:", len(added))
	b, _ := os.ReadFile(name)
	fmt.Print(string(b))
	// Output:
	// added: 1
	// ignore:
	//   # scaled by AAS
	//   - path: '*.DesiredCount'
	//   - path: 'Fn.ReservedConcurrentExecutions'
	//     account: '111111111111'
}
