package live_test

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	r53types "github.com/aws/aws-sdk-go-v2/service/route53/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
)

// TestMotoWriters runs two writers against moto, an emulator that is not
// ours: the Route 53 record-set writer (a record created with another TTL
// and value is UPSERTed back; under Wait its change is polled) and the
// managed-policy attachment writer (a policy attached out of band is
// detached, the declared one attached). The ELB attribute-bag
// writer reads the bag through Cloud Control, which moto 5.2.1 does not
// serve, so it is not run here.
func TestMotoWriters(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	w := live.NewWriters(cfg, live.NewClients(cfg))
	w.Wait, w.Poll = true, 10*time.Millisecond

	r53 := route53.NewFromConfig(cfg)
	zone, err := r53.CreateHostedZone(cx, &route53.CreateHostedZoneInput{Name: aws.String("moto-write.example."), CallerReference: aws.String("realdrift-moto-write")})
	if err != nil {
		t.Fatal(err)
	}
	zoneID := strings.TrimPrefix(aws.ToString(zone.HostedZone.Id), "/hostedzone/")
	if _, err := r53.ChangeResourceRecordSets(cx, &route53.ChangeResourceRecordSetsInput{HostedZoneId: &zoneID, ChangeBatch: &r53types.ChangeBatch{Changes: []r53types.Change{{
		Action: r53types.ChangeActionCreate,
		ResourceRecordSet: &r53types.ResourceRecordSet{Name: aws.String("www.moto-write.example."), Type: r53types.RRTypeA, TTL: aws.Int64(900),
			ResourceRecords: []r53types.ResourceRecord{{Value: aws.String("198.51.100.7")}}},
	}}}}); err != nil {
		t.Fatal(err)
	}
	declared := map[string]any{"HostedZoneId": zoneID, "Name": "www.moto-write.example.", "Type": "A", "TTL": "300", "ResourceRecords": []any{"192.0.2.10"}}
	rec := live.Target{Type: "AWS::Route53::RecordSet", LogicalID: "Www", PhysicalID: "www.moto-write.example", Declared: declared}
	ops := []byte(`[{"op":"replace","path":"/TTL","value":"300"},{"op":"replace","path":"/ResourceRecords","value":["192.0.2.10"]}]`)
	if err := w.WriteSDK(cx, rec, ops, nil); err != nil {
		t.Fatal(err)
	}
	got := live.Read(cx, w.Read, live.Request{Type: rec.Type, PhysicalID: rec.PhysicalID, Declared: declared})
	if got.Status != live.Found {
		t.Fatalf("read back: %+v", got)
	}
	if diff := cmp.Diff(declared, got.Model); diff != "" {
		t.Errorf("record after the write (-declared +live):\n%s", diff)
	}
	if err := w.WriteSDK(cx, rec, ops, nil); err != nil {
		t.Fatalf("second write: %v", err)
	}

	im := iam.NewFromConfig(cfg)
	// moto loads no AWS managed policies unless asked: two of the
	// account's own stand in for them.
	policy := func(name string) string {
		out, err := im.CreatePolicy(cx, &iam.CreatePolicyInput{PolicyName: aws.String(name),
			PolicyDocument: aws.String(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"*"}]}`)})
		if err != nil {
			t.Fatal(err)
		}
		return aws.ToString(out.Policy.Arn)
	}
	readOnly, admin := policy("moto-declared"), policy("moto-rogue")
	if _, err := im.CreateRole(cx, &iam.CreateRoleInput{RoleName: aws.String("moto-attach"), AssumeRolePolicyDocument: aws.String(`{"Version":"2012-10-17","Statement":[]}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := im.AttachRolePolicy(cx, &iam.AttachRolePolicyInput{RoleName: aws.String("moto-attach"), PolicyArn: aws.String(admin)}); err != nil {
		t.Fatal(err)
	}
	role := live.Target{Type: "AWS::IAM::Role", LogicalID: "R", PhysicalID: "moto-attach"}
	if err := w.WriteSDK(cx, role, []byte(`[{"op":"replace","path":"/ManagedPolicyArns","value":["`+readOnly+`"]}]`), []any{admin}); err != nil {
		t.Fatal(err)
	}
	out, err := im.ListAttachedRolePolicies(cx, &iam.ListAttachedRolePoliciesInput{RoleName: aws.String("moto-attach")})
	if err != nil {
		t.Fatal(err)
	}
	var arns []string
	for _, p := range out.AttachedPolicies {
		arns = append(arns, aws.ToString(p.PolicyArn))
	}
	sort.Strings(arns)
	if diff := cmp.Diff([]string{readOnly}, arns); diff != "" {
		t.Errorf("attached after the write (-want +got):\n%s", diff)
	}
}
