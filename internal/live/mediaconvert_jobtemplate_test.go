package live_test

import (
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const jobTemplate = `{"Name":"hd-mp4","Description":"HD MP4","Category":"web","Priority":5,"Queue":"transcode","StatusUpdateInterval":"SECONDS_30",` +
	`"AccelerationSettings":{"Mode":"PREFERRED"},"HopDestinations":[{"Priority":1,"Queue":"arn:aws:mediaconvert:us-east-1:111111111111:queues/spare","WaitMinutes":10}],` +
	`"SettingsJson":{"outputGroups":[{"name":"File Group","outputGroupSettings":{"type":"FILE_GROUP_SETTINGS","fileGroupSettings":{"destination":"s3://out-bucket/hd/"}},` +
	`"outputs":[{"containerSettings":{"container":"MP4"},"nameModifier":"_hd"}]}]},"Tags":{"team":"video"}}`

// moto 5.2.1 has no MediaConvert: the reader is checked against the
// sandbox and the AWS CLI check only.
func TestMediaConvertJobTemplateRoundTrip(t *testing.T) {
	srv, url := serve(t, worldOf(
		liveOnly("AWS::MediaConvert::Queue", "transcode", `{"Name":"transcode","Status":"ACTIVE"}`),
		liveOnly("AWS::MediaConvert::JobTemplate", "hd-mp4", jobTemplate),
	))
	c := live.NewClients(config(url))
	req := live.Request{Type: "AWS::MediaConvert::JobTemplate", LogicalID: "Template", PhysicalID: "hd-mp4", Declared: declaredOf(t, jobTemplate)}
	overrideRoundTrip(t, c, srv, region, req, jobTemplate, "hd-mp4", "SettingsJson.outputGroups", `[]`)
	if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: "gone"}); got.Status != live.NotFound {
		t.Errorf("missing template: %+v, want notFound", got)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "mediaconvert", Action: "ListTagsForResource", Code: "ForbiddenException", Status: 403}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, req); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "MediaConvert ListTagsForResource: ForbiddenException") {
		t.Errorf("tags denied: %+v, want skipped", got)
	}
}
