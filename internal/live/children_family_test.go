package live_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// familyCase is one SDK-listed enumerator's sandbox test: a world of live
// resources, a sibling stack owning some of them, the declared parent and
// the stack's resources, the children that must come out added
// ("<type> <identifier>"), and the list call whose denial must skip the
// parent.
type familyCase struct {
	world   []*sandbox.Resource
	sibling []*sandbox.Resource // owned by the stack "Sibling"
	parent  live.StackResource
	stack   []live.StackResource
	want    []string
	// models are, per added identifier, the model the child must carry.
	models map[string]map[string]any
	// service and action name the list call; denied is the reason's prefix.
	service, action, denied string
}

// runFamily checks fc: the added children, their models, and the parent
// skipped with the reason when the list call is denied.
func runFamily(t *testing.T, fc familyCase) {
	t.Helper()
	w := worldOf(fc.world...)
	w.Accounts[0].Regions[0].Stacks = []*sandbox.Stack{
		{Name: "App", TemplateBody: `{"Resources":{}}`},
		{Name: "Sibling", TemplateBody: `{"Resources":{}}`, Resources: fc.sibling},
	}
	srv, url := serve(t, w)
	c := live.NewClients(config(url))
	got, err := live.Enumerate(ctx(t), c, fc.parent, fc.stack)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ch := range got {
		names = append(names, ch.Type+" "+ch.Identifier)
		if ch.Model == nil {
			t.Errorf("%s %s: no model (%s)", ch.Type, ch.Identifier, ch.Reason)
		}
		if want, ok := fc.models[ch.Identifier]; ok {
			if diff := cmp.Diff(ch.Model, want); diff != "" {
				t.Errorf("%s model (-got +want):\n%s", ch.Identifier, diff)
			}
		}
	}
	if diff := cmp.Diff(names, fc.want); diff != "" {
		t.Errorf("added children (-got +want):\n%s", diff)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: fc.service, Action: fc.action, Code: "AccessDenied", Status: 403}}); err != nil {
		t.Fatal(err)
	}
	_, err = live.Enumerate(ctx(t), c, fc.parent, fc.stack)
	var ee *live.EnumerateError
	if !asEnumerateError(err, &ee) {
		t.Fatalf("denied %s: err = %v, want an EnumerateError", fc.action, err)
	}
	if !strings.HasPrefix(ee.Reason, "enumerate children: "+fc.denied) {
		t.Errorf("denied %s: reason %q, want prefix %q", fc.action, ee.Reason, "enumerate children: "+fc.denied)
	}
}

// owned is a sibling-stack resource with physical id pid and model props.
func owned(logical, typ, pid, props string) *sandbox.Resource {
	return &sandbox.Resource{LogicalID: logical, Type: typ, PhysicalID: pid, Properties: json.RawMessage(props)}
}
