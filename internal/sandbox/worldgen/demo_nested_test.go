package worldgen_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
)

// TestDemoNested: the nested tree lands in the chosen account and region,
// parent first, the parent's stack resource naming the nested stack by its
// ARN; DemoNext's parent template names a nested template it returns (by
// aws:asset:path), and OrdersData's next template differs from the deployed
// one in its Outputs only.
func TestDemoNested(t *testing.T) {
	w, _ := demoWorld(t)
	dev := worldgen.DemoDefaultAccount
	if err := worldgen.DemoNested(w, dev, "eu-west-1"); err != nil {
		t.Fatal(err)
	}
	if err := worldgen.DemoNested(w, "999999999999", "eu-west-1"); err == nil {
		t.Error("an account the world lacks: no error")
	}
	var region *sandbox.Region
	for _, a := range w.Accounts {
		for _, r := range a.Regions {
			if a.ID == dev && r.Name == "eu-west-1" {
				region = r
			}
		}
	}
	n := len(region.Stacks)
	parent, child := region.Stacks[n-2], region.Stacks[n-1]
	if parent.Name != worldgen.DemoNestedRoot {
		t.Fatalf("stack %s, want the parent %s before its nested stack", parent.Name, worldgen.DemoNestedRoot)
	}
	linked := false
	for _, r := range parent.Resources {
		if r.Type == sandbox.NestedStackType && r.LogicalID == worldgen.DemoNestedChild && r.PhysicalID == child.ID {
			linked = true
		}
	}
	if !linked {
		t.Errorf("the parent's %s does not name %s", worldgen.DemoNestedChild, child.ID)
	}

	stacks, nested, err := worldgen.DemoNext(w, dev, "eu-west-1")
	if err != nil {
		t.Fatal(err)
	}
	var next struct {
		Resources map[string]struct {
			Metadata map[string]any `json:"Metadata"`
		} `json:"Resources"`
	}
	if err := json.Unmarshal([]byte(stacks[worldgen.DemoNestedRoot]), &next); err != nil {
		t.Fatal(err)
	}
	asset, _ := next.Resources[worldgen.DemoNestedChild].Metadata["aws:asset:path"].(string)
	if nested[asset] == "" || nested[asset] == child.TemplateBody {
		t.Errorf("next nested template %q: missing or unchanged (have %d files)", asset, len(nested))
	}
	var data *sandbox.Stack
	for _, s := range region.Stacks {
		if s.Name == "OrdersData" {
			data = s
		}
	}
	var old, now map[string]any
	if err := json.Unmarshal([]byte(data.TemplateBody), &old); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(stacks["OrdersData"]), &now); err != nil {
		t.Fatal(err)
	}
	outs := now["Outputs"].(map[string]any)
	if _, ok := outs[worldgen.DemoNextOutput]; !ok {
		t.Errorf("next OrdersData lacks the output %s", worldgen.DemoNextOutput)
	}
	delete(outs, worldgen.DemoNextOutput)
	if !reflect.DeepEqual(old, now) {
		t.Error("next OrdersData changes more than one added output")
	}
}
