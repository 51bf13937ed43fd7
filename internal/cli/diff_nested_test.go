package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/cfn/cfntest"
	"github.com/realdrift/realdrift/internal/cfn/intrinsic"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// nestedWorld deploys the template at file (in dir) as stack name, its
// nested stacks first (each child stack's ARN is its stack resource's
// physical id, its live model sandbox.NestedStackModel), with outputs and
// child parameters as CloudFormation resolves them. skip names nested
// resources left undeployed.
func nestedWorld(t *testing.T, dir, file, name string, params map[string]string, skip map[string]bool, out *[]*sandbox.Stack) *sandbox.Stack {
	t.Helper()
	body, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	tm, err := cfn.Parse(body)
	if err != nil {
		t.Fatal(err)
	}
	st := &sandbox.Stack{Name: name, ID: "arn:aws:cloudformation:" + testRegion + ":" + testAccount + ":stack/" + name + "/0000", TemplateBody: string(body)}
	for _, k := range sortedKeys(tm.Parameters) {
		v, ok := params[k]
		if !ok {
			v = tm.Parameters[k].Default
		}
		st.Parameters = append(st.Parameters, sandbox.Parameter{Key: k, Value: v})
	}
	ctx := intrinsic.Context{AccountID: testAccount, Region: testRegion, StackName: name, StackID: st.ID, Parameters: map[string]string{}, PhysicalIDs: map[string]string{}, LiveAttrs: map[string]map[string]any{}}
	for _, p := range st.Parameters {
		ctx.Parameters[p.Key] = p.Value
	}
	ids := tm.ResourceIDs()
	for _, id := range ids {
		if tm.Resources[id].Type != sandbox.NestedStackType {
			ctx.PhysicalIDs[id] = "phys-" + strings.ToLower(name+"-"+id)
		}
	}
	for _, id := range ids {
		r := tm.Resources[id]
		if r.Type != sandbox.NestedStackType || skip[id] {
			continue
		}
		childParams := map[string]string{}
		if raw, ok := r.Properties["Parameters"].(map[string]any); ok {
			res := intrinsic.New(tm, ctx)
			for k, v := range raw {
				rv, _ := res.Value(v)
				s, ok := paramText(rv)
				if !ok {
					s = "deployed-" + k // a live attribute this world does not model
				}
				childParams[k] = s
			}
		}
		child := nestedWorld(t, dir, r.Metadata["aws:asset:path"].(string), name+"-"+id[:12], childParams, nil, out)
		ctx.PhysicalIDs[id] = child.ID
		model := sandbox.NestedStackModel(child, "")
		var m map[string]any
		_ = json.Unmarshal(model, &m)
		ctx.LiveAttrs[id] = m
		st.Resources = append(st.Resources, &sandbox.Resource{LogicalID: id, Type: r.Type, PhysicalID: child.ID, Properties: model})
	}
	for _, id := range ids {
		if tm.Resources[id].Type != sandbox.NestedStackType {
			st.Resources = append(st.Resources, &sandbox.Resource{LogicalID: id, Type: tm.Resources[id].Type, PhysicalID: ctx.PhysicalIDs[id]})
		}
	}
	for _, o := range intrinsic.New(tm, ctx).Outputs() {
		v, ok := paramText(o.Value)
		if !ok {
			v = "deployed-" + o.Name
		}
		en, _ := o.ExportName.(string)
		st.Outputs = append(st.Outputs, sandbox.Output{Key: o.Name, Value: v, ExportName: en})
	}
	*out = append(*out, st)
	return st
}

func nestedEnv(t *testing.T, skip map[string]bool) (*sandboxEnv, string) {
	t.Helper()
	dir := filepath.Join(cfntest.Require(t), "nested")
	var stacks []*sandbox.Stack
	nestedWorld(t, dir, "NestedParentStack.template.json", "NestedParentStack", nil, skip, &stacks)
	w := appWorld(t, nil)
	w.Accounts[0].Regions[0].Stacks = stacks
	return startSandbox(t, w, testKey, testRegion), dir
}

// TestDiffNestedSelf: the nested shared templates (parent, child,
// grandchild) deployed in the sandbox diff against themselves with no
// change, depth first under "Nested stack:" headers.
func TestDiffNestedSelf(t *testing.T) {
	e, dir := nestedEnv(t, nil)
	out, errs, code := e.run("diff", "--app", dir, "--all", "--recursive", "--fail")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if n := strings.Count(out, "Nested stack: "); n != 2 {
		t.Errorf("%d nested stack headers, want 2 (child, grandchild):\n%s", n, out)
	}
	if strings.Count(out, "There were no differences") != 3 {
		t.Errorf("want no differences in all three stacks:\n%s", out)
	}
}

// TestDiffNestedNew: a nested stack not deployed yet diffs as all CREATE.
func TestDiffNestedNew(t *testing.T) {
	e, dir := nestedEnv(t, map[string]bool{"MessagingNestedStackMessagingNestedStackResource44F98313": true})
	out, errs, code := e.run("diff", "--app", dir, "--all", "--recursive", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var rep struct {
		Stacks []struct {
			Changes  []struct{ Action string } `json:"changes"`
			Children []struct {
				Stack   string                    `json:"stack"`
				Changes []struct{ Action string } `json:"changes"`
			} `json:"children"`
		} `json:"stacks"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	got := rep.Stacks
	if len(got) != 1 || len(got[0].Children) != 1 || len(got[0].Children[0].Changes) == 0 {
		t.Fatalf("got %s", out)
	}
	for _, c := range got[0].Children[0].Changes {
		if c.Action != "CREATE" {
			t.Errorf("new nested stack: %s, want all CREATE", c.Action)
		}
	}
}
