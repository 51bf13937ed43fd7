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

const (
	csvClassifier  = `{"CsvClassifier":{"Name":"csv","Delimiter":",","QuoteSymbol":"\"","ContainsHeader":"PRESENT","Header":["id","name"],"DisableValueTrimming":false,"AllowSingleColumn":false}}`
	grokClassifier = `{"GrokClassifier":{"Name":"grok","Classification":"syslog","GrokPattern":"%{GREEDYDATA:message}","CustomPatterns":"X %{WORD}"}}`
	glueWorkflow   = `{"Name":"etl","Description":"nightly etl","DefaultRunProperties":{"env":"prod"},"MaxConcurrentRuns":2,"Tags":{"team":"data"}}`
)

func TestGlueRoundTrip(t *testing.T) {
	srv, url := serve(t, worldOf(
		liveOnly("AWS::Glue::Classifier", "csv", csvClassifier),
		liveOnly("AWS::Glue::Classifier", "grok", grokClassifier),
		liveOnly("AWS::Glue::Workflow", "etl", glueWorkflow),
	))
	c := live.NewClients(config(url))
	for _, tc := range []struct{ typ, id, model, path, value string }{
		{"AWS::Glue::Classifier", "csv", csvClassifier, "CsvClassifier.Delimiter", `";"`},
		{"AWS::Glue::Classifier", "grok", grokClassifier, "GrokClassifier.GrokPattern", `"%{WORD:w}"`},
		{"AWS::Glue::Workflow", "etl", glueWorkflow, "MaxConcurrentRuns", `5`},
	} {
		req := live.Request{Type: tc.typ, LogicalID: "R", PhysicalID: tc.id, Declared: declaredOf(t, tc.model)}
		got := live.Read(ctx(t), c, req)
		if got.Status != live.Found || got.Route != live.RouteOverride {
			t.Fatalf("%s: %+v", tc.typ, got)
		}
		if diff := cmp.Diff(got.Model, declaredOf(t, tc.model)); diff != "" {
			t.Errorf("%s model (-got +want):\n%s", tc.typ, diff)
		}
		if fs := classifyEntry(t, req, got.Model); len(fs) != 0 {
			t.Errorf("%s: clean read classified as %+v", tc.typ, fs)
		}
		if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: tc.typ, Identifier: tc.id, Path: tc.path, Value: json.RawMessage(tc.value)}); err != nil {
			t.Fatal(err)
		}
		fs := classifyEntry(t, req, live.Read(ctx(t), c, req).Model)
		if len(fs) != 1 || fs[0].Tier != drift.Declared || !strings.HasPrefix(fs[0].Path, strings.Split(tc.path, ".")[0]) {
			t.Errorf("%s changed out of band: %+v, want one declared finding at %s", tc.typ, fs, tc.path)
		}
		if got := live.Read(ctx(t), c, live.Request{Type: tc.typ, PhysicalID: "gone"}); got.Status != live.NotFound {
			t.Errorf("%s gone: %+v, want notFound", tc.typ, got)
		}
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "glue", Action: "GetTags", Code: "AccessDeniedException", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: "AWS::Glue::Workflow", PhysicalID: "etl"}); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "Glue GetTags: AccessDeniedException") {
		t.Errorf("tags denied: %+v, want skipped", got)
	}
}
