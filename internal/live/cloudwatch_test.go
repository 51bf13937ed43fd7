package live_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const anomalyDetector = `{"SingleMetricAnomalyDetector":{"Namespace":"AWS/Lambda","MetricName":"Errors","Stat":"Sum",` +
	`"Dimensions":[{"Name":"FunctionName","Value":"orders"}]},"Configuration":{"MetricTimeZone":"Asia/Tokyo",` +
	`"ExcludedTimeRanges":[{"StartTime":"2026-12-24T00:00:00","EndTime":"2026-12-26T00:00:00"}]}}`

// TestAnomalyDetectorRoundTrip reads through the SDK's RPCv2 CBOR protocol.
// moto 5.2.1 has no anomaly detectors (PutAnomalyDetector,
// DescribeAnomalyDetectors): the reader is checked against the sandbox and
// the AWS CLI check (query protocol) only.
func TestAnomalyDetectorRoundTrip(t *testing.T) {
	rs := []*sandbox.Resource{liveOnly("AWS::CloudWatch::AnomalyDetector", "Detector-1", anomalyDetector)}
	// Detectors of other functions and stats of the same metric, over a
	// page of 100 before the declared one.
	for i := 0; i < 120; i++ {
		rs = append(rs, liveOnly("AWS::CloudWatch::AnomalyDetector", fmt.Sprintf("Detector-0%03d", i),
			fmt.Sprintf(`{"SingleMetricAnomalyDetector":{"Namespace":"AWS/Lambda","MetricName":"Errors","Stat":"Sum","Dimensions":[{"Name":"FunctionName","Value":"orders"},{"Name":"Resource","Value":"r%03d"}]}}`, i)))
	}
	rs = append(rs, liveOnly("AWS::CloudWatch::AnomalyDetector", "Detector-2", strings.Replace(anomalyDetector, `"Sum"`, `"Average"`, 1)))
	srv, url := serve(t, worldOf(rs...))
	c := live.NewClients(config(url))
	req := live.Request{Type: "AWS::CloudWatch::AnomalyDetector", LogicalID: "Detector", PhysicalID: "Detector-1", Declared: declaredOf(t, anomalyDetector)}
	overrideRoundTrip(t, c, srv, region, req, anomalyDetector, "Detector-1", "Configuration.MetricTimeZone", `"UTC"`)
	gone := declaredOf(t, anomalyDetector)
	gone["SingleMetricAnomalyDetector"].(map[string]any)["Stat"] = "Maximum"
	if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: "Detector-9", Declared: gone}); got.Status != live.NotFound {
		t.Errorf("no detector of that stat: %+v, want notFound", got)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: "Detector-9", Declared: map[string]any{}}); got.Status != live.Skipped {
		t.Errorf("no declared metric: %+v, want skipped", got)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "monitoring", Action: "DescribeAnomalyDetectors", Code: "AccessDeniedException", Status: 403}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, req); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "CloudWatch DescribeAnomalyDetectors: AccessDenied") {
		t.Errorf("denied: %+v, want skipped", got)
	}
}
