package live_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/configservice"
	cfgtypes "github.com/aws/aws-sdk-go-v2/service/configservice/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
)

// TestMotoConfig: a configuration recorder and a delivery channel put into
// moto (PutConfigurationRecorder, PutDeliveryChannel) read back by the
// readers.
func TestMotoConfig(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	cs := configservice.NewFromConfig(cfg)
	_, err := cs.PutConfigurationRecorder(cx, &configservice.PutConfigurationRecorderInput{ConfigurationRecorder: &cfgtypes.ConfigurationRecorder{
		Name: aws.String("moto-recorder"), RoleARN: aws.String("arn:aws:iam::123456789012:role/config"),
		RecordingGroup: &cfgtypes.RecordingGroup{AllSupported: false, IncludeGlobalResourceTypes: false, ResourceTypes: []cfgtypes.ResourceType{cfgtypes.ResourceTypeBucket},
			RecordingStrategy: &cfgtypes.RecordingStrategy{UseOnly: cfgtypes.RecordingStrategyTypeInclusionByResourceTypes}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.PutDeliveryChannel(cx, &configservice.PutDeliveryChannelInput{DeliveryChannel: &cfgtypes.DeliveryChannel{Name: aws.String("moto-channel"), S3BucketName: aws.String("moto-config-bucket"), S3KeyPrefix: aws.String("cfg")}}); err != nil {
		t.Fatal(err)
	}
	c := live.NewClients(cfg)
	got := live.Read(cx, c, live.Request{Type: "AWS::Config::ConfigurationRecorder", PhysicalID: "moto-recorder"})
	if got.Status != live.Found {
		t.Fatalf("recorder: %+v", got)
	}
	for k, want := range map[string]any{"Name": "moto-recorder", "RoleARN": "arn:aws:iam::123456789012:role/config"} {
		if diff := cmp.Diff(got.Model[k], want); diff != "" {
			t.Errorf("%s (-got +want):\n%s", k, diff)
		}
	}
	g, _ := got.Model["RecordingGroup"].(map[string]any)
	if g["AllSupported"] != false || !cmp.Equal(g["ResourceTypes"], []any{"AWS::S3::Bucket"}) {
		t.Errorf("RecordingGroup %v", g)
	}
	got = live.Read(cx, c, live.Request{Type: "AWS::Config::DeliveryChannel", PhysicalID: "moto-channel"})
	if got.Status != live.Found || got.Model["S3BucketName"] != "moto-config-bucket" || got.Model["S3KeyPrefix"] != "cfg" {
		t.Errorf("channel: %+v", got)
	}
	if got := live.Read(cx, c, live.Request{Type: "AWS::Config::ConfigurationRecorder", PhysicalID: "moto-nope"}); got.Status != live.NotFound {
		t.Errorf("missing recorder: %+v, want notFound", got)
	}
}
