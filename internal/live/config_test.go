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
	recorder = `{"Name":"Stack-Recorder-1","RoleARN":"arn:aws:iam::111111111111:role/config","RecordingGroup":{"AllSupported":false,"IncludeGlobalResourceTypes":false,` +
		`"ResourceTypes":["AWS::S3::Bucket","AWS::EC2::Instance"],"RecordingStrategy":{"UseOnly":"INCLUSION_BY_RESOURCE_TYPES"}},"RecordingMode":{"RecordingFrequency":"DAILY",` +
		`"RecordingModeOverrides":[{"Description":"instances hourly","RecordingFrequency":"CONTINUOUS","ResourceTypes":["AWS::EC2::Instance"]}]}}`
	channel = `{"Name":"Stack-Channel-1","S3BucketName":"config-bucket","S3KeyPrefix":"config","SnsTopicARN":"arn:aws:sns:us-east-1:111111111111:config","ConfigSnapshotDeliveryProperties":{"DeliveryFrequency":"Six_Hours"}}`
)

func TestConfigRoundTrip(t *testing.T) {
	srv, url := serve(t, worldOf(
		liveOnly("AWS::Config::ConfigurationRecorder", "Stack-Recorder-1", recorder),
		liveOnly("AWS::Config::DeliveryChannel", "Stack-Channel-1", channel),
	))
	c := live.NewClients(config(url))
	for _, tc := range []struct{ typ, id, model, path, value string }{
		{"AWS::Config::ConfigurationRecorder", "Stack-Recorder-1", recorder, "RecordingMode.RecordingFrequency", `"CONTINUOUS"`},
		{"AWS::Config::DeliveryChannel", "Stack-Channel-1", channel, "S3KeyPrefix", `"elsewhere"`},
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
		if len(fs) != 1 || fs[0].Tier != drift.Declared || fs[0].Path != tc.path {
			t.Errorf("%s changed out of band: %+v, want one declared finding on %s", tc.typ, fs, tc.path)
		}
		if got := live.Read(ctx(t), c, live.Request{Type: tc.typ, PhysicalID: "gone"}); got.Status != live.NotFound {
			t.Errorf("%s gone: %+v, want notFound (NoSuch...Exception)", tc.typ, got)
		}
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "config", Action: "DescribeConfigurationRecorders", Code: "AccessDeniedException", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: "AWS::Config::ConfigurationRecorder", PhysicalID: "Stack-Recorder-1"}); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "Config Service DescribeConfigurationRecorders: AccessDeniedException") {
		t.Errorf("denied: %+v", got)
	}
}
