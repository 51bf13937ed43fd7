package live_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/schema"
)

// classifyAll classifies a read as scan does: with the type's facts
// corrected by live.ReadableFacts, so a write-only property a supplement
// read back is compared. It returns all findings, readGaps included.
func classifyAll(t *testing.T, r live.Request, res live.Result) []drift.Finding {
	t.Helper()
	snap, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	facts, _ := snap.Lookup(r.Type)
	facts = live.ReadableFacts(r.Type, res, facts)
	subj := classify.Subject{Ref: drift.ResourceRef{LogicalID: r.LogicalID, Type: r.Type, PhysicalID: r.PhysicalID}, Declared: r.Declared}
	return classify.Resource(subj, res.Model, facts, classify.Options{AccountID: acct, Region: region})
}

func driftOnly(fs []drift.Finding) []drift.Finding {
	var out []drift.Finding
	for _, f := range fs {
		if f.Tier == drift.Declared || f.Tier == drift.Undeclared {
			out = append(out, f)
		}
	}
	return out
}

// supplementCase is one supplemented type's sandbox round trip.
type supplementCase struct {
	req live.Request
	// want is the supplemented properties the read must return.
	want map[string]any
	// id, path and value change one supplemented property out of band.
	id, path, value string
	// deny is the supplement's call ("service:Action").
	deny string
}

// supplementRoundTrip reads a supplemented type from the sandbox through
// Cloud Control and its supplement: the supplemented properties are read
// and the read classifies clean; one of them changed out of band is one
// declared finding at it; the supplement's call denied or throttled leaves
// them unread (no drift, a readGap for each declared write-only one) and
// the rest of the model still read.
func supplementRoundTrip(t *testing.T, c *live.Clients, srv *sandbox.Server, tc supplementCase) {
	t.Helper()
	got := live.Read(ctx(t), c, tc.req)
	if got.Status != live.Found || got.Route != live.RouteCloudControl {
		t.Fatalf("%s: %+v", tc.req.Type, got)
	}
	for k, v := range tc.want {
		if diff := cmp.Diff(got.Model[k], v); diff != "" {
			t.Errorf("%s %s (-got +want):\n%s", tc.req.Type, k, diff)
		}
	}
	if fs := driftOnly(classifyAll(t, tc.req, got)); len(fs) != 0 {
		t.Errorf("%s: clean read classified as %+v", tc.req.Type, fs)
	}
	svc, action, _ := strings.Cut(tc.deny, ":")
	for _, f := range []sandbox.FaultRule{
		{Service: svc, Action: action, Code: "AccessDeniedException", Status: 400},
		{Service: svc, Action: action, Code: "ThrottlingException", Status: 400},
	} {
		if err := srv.SetFaults([]sandbox.FaultRule{f}); err != nil {
			t.Fatal(err)
		}
		res := live.Read(ctx(t), c, tc.req)
		if res.Status != live.Found {
			t.Fatalf("%s with %s %s: %+v, want the Cloud Control model", tc.req.Type, tc.deny, f.Code, res)
		}
		for k := range tc.want {
			if _, ok := res.Model[k]; ok {
				t.Errorf("%s with %s %s: %s read as %v, want unread", tc.req.Type, tc.deny, f.Code, k, res.Model[k])
			}
		}
		fs := classifyAll(t, tc.req, res)
		if d := driftOnly(fs); len(d) != 0 {
			t.Errorf("%s with %s %s: unread properties classified as drift: %+v", tc.req.Type, tc.deny, f.Code, d)
		}
		for k := range tc.want {
			if _, declared := tc.req.Declared[k]; !declared || !isWriteOnly(t, tc.req.Type, k) {
				continue
			}
			gap := false
			for _, f := range fs {
				gap = gap || f.Tier == drift.ReadGap && strings.HasPrefix(f.Path, k)
			}
			if !gap {
				t.Errorf("%s with %s %s: declared %s unread but no readGap in %+v", tc.req.Type, tc.deny, f.Code, k, fs)
			}
		}
	}
	if err := srv.SetFaults(nil); err != nil {
		t.Fatal(err)
	}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: tc.req.Type, Identifier: tc.id, Path: tc.path, Value: json.RawMessage(tc.value)}); err != nil {
		t.Fatal(err)
	}
	fs := driftOnly(classifyAll(t, tc.req, live.Read(ctx(t), c, tc.req)))
	if len(fs) != 1 || fs[0].Tier != drift.Declared || !strings.HasPrefix(fs[0].Path, strings.Split(tc.path, ".")[0]) {
		t.Errorf("%s changed out of band: %+v, want one declared finding at %s", tc.req.Type, fs, tc.path)
	}
}

func isWriteOnly(t *testing.T, typ, prop string) bool {
	t.Helper()
	snap, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	f, ok := snap.Lookup(typ)
	if !ok {
		return false
	}
	for _, p := range f.WriteOnly {
		if p == prop {
			return true
		}
	}
	return false
}
