package live_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// overrideRoundTrip is an override reader's round trip against the
// sandbox: req reads back through the override exactly as want (the
// template's properties) and classifies clean; after one out-of-band
// change (path set to value on the resource id) it classifies as one
// declared finding at that property.
func overrideRoundTrip(t *testing.T, c *live.Clients, srv *sandbox.Server, region string, req live.Request, want, id, path, value string) {
	t.Helper()
	got := live.Read(ctx(t), c, req)
	if got.Status != live.Found || got.Route != live.RouteOverride {
		t.Fatalf("%s: %+v", req.Type, got)
	}
	if diff := cmp.Diff(got.Model, declaredOf(t, want)); diff != "" {
		t.Errorf("%s model (-got +want):\n%s", req.Type, diff)
	}
	if fs := classifyEntry(t, req, got.Model); len(fs) != 0 {
		t.Errorf("%s: clean read classified as %+v", req.Type, fs)
	}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: req.Type, Identifier: id, Path: path, Value: json.RawMessage(value)}); err != nil {
		t.Fatal(err)
	}
	fs := classifyEntry(t, req, live.Read(ctx(t), c, req).Model)
	if len(fs) != 1 || fs[0].Tier != drift.Declared || !strings.HasPrefix(fs[0].Path, strings.Split(path, ".")[0]) {
		t.Errorf("%s changed out of band: %+v, want one declared finding at %s", req.Type, fs, path)
	}
}
