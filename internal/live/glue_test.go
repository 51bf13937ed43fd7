package live_test

import (
	"strings"
	"testing"

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
		overrideRoundTrip(t, c, srv, region, req, tc.model, tc.id, tc.path, tc.value)
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
