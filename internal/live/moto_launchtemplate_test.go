package live_test

import (
	"encoding/json"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestMotoLaunchTemplate: a launch template created in moto
// (CreateLaunchTemplate) whose data the reader reads back from moto's
// DescribeLaunchTemplateVersions. moto has no Cloud Control, whose model
// the reader starts from: that part comes from the sandbox, holding the
// template's name and id as Cloud Control would.
func TestMotoLaunchTemplate(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	ec := ec2.NewFromConfig(cfg)
	out, err := ec.CreateLaunchTemplate(cx, &ec2.CreateLaunchTemplateInput{
		LaunchTemplateName: aws.String("moto-web"),
		LaunchTemplateData: &ec2types.RequestLaunchTemplateData{
			InstanceType: ec2types.InstanceTypeT3Micro, ImageId: aws.String("ami-12c6146b"),
			SecurityGroupIds: []string{"sg-0aaaaaaaaaaaaaaaa"}, Monitoring: &ec2types.LaunchTemplatesMonitoringRequest{Enabled: aws.Bool(true)},
			BlockDeviceMappings: []ec2types.LaunchTemplateBlockDeviceMappingRequest{{DeviceName: aws.String("/dev/xvda"), Ebs: &ec2types.LaunchTemplateEbsBlockDeviceRequest{VolumeSize: aws.Int32(8), VolumeType: ec2types.VolumeTypeGp3, Encrypted: aws.Bool(true)}}},
			TagSpecifications:   []ec2types.LaunchTemplateTagSpecificationRequest{{ResourceType: ec2types.ResourceTypeInstance, Tags: []ec2types.Tag{{Key: aws.String("Name"), Value: aws.String("web")}}}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	id := aws.ToString(out.LaunchTemplate.LaunchTemplateId)
	srv, url := serve(t, worldOf())
	cc, _ := json.Marshal(map[string]any{"LaunchTemplateName": "moto-web", "LaunchTemplateId": id, "DefaultVersionNumber": "1", "LatestVersionNumber": "1"})
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpAdd, Region: region, Type: "AWS::EC2::LaunchTemplate", Identifier: id, Properties: cc}); err != nil {
		t.Fatal(err)
	}
	c := live.NewClients(cfg)
	c.CloudControl = cloudcontrol.NewFromConfig(config(url))
	got := live.Read(cx, c, live.Request{Type: "AWS::EC2::LaunchTemplate", PhysicalID: id})
	if got.Status != live.Found {
		t.Fatalf("read: %+v", got)
	}
	want := map[string]any{
		"InstanceType": "t3.micro", "ImageId": "ami-12c6146b", "SecurityGroupIds": []any{"sg-0aaaaaaaaaaaaaaaa"}, "Monitoring": map[string]any{"Enabled": true},
		"BlockDeviceMappings": []any{map[string]any{"DeviceName": "/dev/xvda", "Ebs": map[string]any{"VolumeSize": 8.0, "VolumeType": "gp3", "Encrypted": true}}},
		"TagSpecifications":   []any{map[string]any{"ResourceType": "instance", "Tags": []any{map[string]any{"Key": "Name", "Value": "web"}}}},
	}
	if diff := cmp.Diff(got.Model["LaunchTemplateData"], want); diff != "" {
		t.Errorf("data (-got +want):\n%s", diff)
	}
}
