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

const (
	ltID   = "lt-0123456789abcdef0"
	ltData = `{"InstanceType":"t3.micro","ImageId":"ami-0123456789abcdef0","SecurityGroupIds":["sg-0aaaaaaaaaaaaaaaa"],"UserData":"IyEvYmluL2Jhc2g=",` +
		`"BlockDeviceMappings":[{"DeviceName":"/dev/xvda","Ebs":{"Encrypted":true,"VolumeSize":8,"VolumeType":"gp3"}}],"Monitoring":{"Enabled":true},` +
		`"MetadataOptions":{"HttpTokens":"required","HttpPutResponseHopLimit":2},"IamInstanceProfile":{"Arn":"arn:aws:iam::111111111111:instance-profile/web"},` +
		`"TagSpecifications":[{"ResourceType":"instance","Tags":[{"Key":"Name","Value":"web"}]}]}`
)

func TestLaunchTemplateRoundTrip(t *testing.T) {
	srv, url := serve(t, worldOf(
		liveOnly("AWS::EC2::LaunchTemplate", ltID, `{"LaunchTemplateName":"web","LaunchTemplateId":"`+ltID+`","DefaultVersionNumber":"1","LatestVersionNumber":"1","LaunchTemplateData":`+ltData+`}`),
	))
	c := live.NewClients(config(url))
	declared := map[string]any{"LaunchTemplateName": "web", "LaunchTemplateData": declaredOf(t, ltData)}
	req := live.Request{Type: "AWS::EC2::LaunchTemplate", LogicalID: "Lt", PhysicalID: ltID, Declared: declared}
	got := live.Read(ctx(t), c, req)
	if got.Status != live.Found || got.Route != live.RouteOverride {
		t.Fatalf("read: %+v", got)
	}
	want := map[string]any{"LaunchTemplateName": "web", "LaunchTemplateId": ltID, "DefaultVersionNumber": "1", "LatestVersionNumber": "1", "LaunchTemplateData": declaredOf(t, ltData)}
	if diff := cmp.Diff(got.Model, want); diff != "" {
		t.Errorf("model (-got +want):\n%s", diff)
	}
	if fs := classifyRead(t, req, got); len(fs) != 0 {
		t.Errorf("clean read classified as %+v", fs)
	}

	// Out of band: the instance type of the default version changes.
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: req.Type, Identifier: ltID, Path: "LaunchTemplateData.InstanceType", Value: json.RawMessage(`"m5.large"`)}); err != nil {
		t.Fatal(err)
	}
	fs := classifyRead(t, req, live.Read(ctx(t), c, req))
	if len(fs) != 1 || fs[0].Tier != drift.Declared || fs[0].Path != "LaunchTemplateData.InstanceType" {
		t.Errorf("out-of-band instance type: %+v, want one declared finding", fs)
	}

	// The data comes from EC2: denied there, it is unread (a readGap),
	// never an empty template.
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "ec2", Action: "DescribeLaunchTemplateVersions", Code: "UnauthorizedOperation", Status: 403}}); err != nil {
		t.Fatal(err)
	}
	got = live.Read(ctx(t), c, req)
	if _, ok := got.Model["LaunchTemplateData"]; got.Status != live.Found || ok {
		t.Errorf("data denied: %+v, want found without LaunchTemplateData", got)
	}
	if fs := classifyRead(t, req, got); len(fs) != 0 {
		t.Errorf("unread data classified as %+v, want a readGap only", fs)
	}
	if err := srv.SetFaults(nil); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: "lt-0000000000000000f"}); got.Status != live.NotFound {
		t.Errorf("missing template: %+v, want notFound", got)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "cloudcontrolapi", Action: "GetResource", Code: "ThrottlingException", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, req); got.Status != live.Skipped || !strings.Contains(got.Reason, "ThrottlingException") {
		t.Errorf("throttled: %+v, want skipped", got)
	}
}

// classifyRead classifies a read as the pipeline does: with the schema
// facts corrected for what the reader read back (live.ReadableFacts).
func classifyRead(t *testing.T, r live.Request, res live.Result) []drift.Finding {
	t.Helper()
	snap, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	facts, _ := snap.Lookup(r.Type)
	subj := classify.Subject{Ref: drift.ResourceRef{LogicalID: r.LogicalID, Type: r.Type, PhysicalID: r.PhysicalID}, Declared: r.Declared}
	var out []drift.Finding
	for _, f := range classify.Resource(subj, res.Model, live.ReadableFacts(r.Type, res, facts), classify.Options{AccountID: acct, Region: region}) {
		if f.Tier == drift.Declared || f.Tier == drift.Undeclared {
			out = append(out, f)
		}
	}
	return out
}
