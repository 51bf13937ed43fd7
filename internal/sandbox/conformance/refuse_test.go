package conformance_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/route53"
	r53types "github.com/aws/aws-sdk-go-v2/service/route53/types"
	"github.com/aws/smithy-go"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
)

// TestRoute53RefusesTTLsAWSRefuses: a record TTL that is not a whole
// number of seconds in Route 53's range is refused by the admin API (an
// out-of-band change) and by ChangeResourceRecordSets, with Route 53's
// InvalidInput, and the zone's listing stays one the SDK parses.
func TestRoute53RefusesTTLsAWSRefuses(t *testing.T) {
	w := sandboxtest.LoadWorld(t, "testdata/fixture.json")
	srv, url := sandboxtest.Serve(t, w, sandbox.Options{})
	for _, v := range []string{`"300-oob"`, `"-1"`, `2147483648`, `true`} {
		err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: "us-east-1", Type: "AWS::Route53::RecordSet", Identifier: "www.fixture.example.com", Path: "TTL", Value: []byte(v)})
		if err == nil || !strings.Contains(err.Error(), "InvalidInput") {
			t.Errorf("admin set TTL %s: got %v, want InvalidInput", v, err)
		}
	}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: "us-east-1", Type: "AWS::Route53::RecordSet", Identifier: "www.fixture.example.com", Path: "TTL", Value: []byte(`"60"`)}); err != nil {
		t.Errorf("admin set TTL 60: %v", err)
	}
	cl := route53.NewFromConfig(sdkConfig(url, "AKIAFIXTURE900000000009", "us-east-1"))
	c := sandboxtest.Context(t, 30*time.Second)
	_, err := cl.ChangeResourceRecordSets(c, &route53.ChangeResourceRecordSetsInput{HostedZoneId: aws.String("Z0FIXTURE00001"),
		ChangeBatch: &r53types.ChangeBatch{Changes: []r53types.Change{{Action: r53types.ChangeActionUpsert, ResourceRecordSet: &r53types.ResourceRecordSet{
			Name: aws.String("big.fixture.example.com."), Type: r53types.RRTypeA, TTL: aws.Int64(2147483648), ResourceRecords: []r53types.ResourceRecord{{Value: aws.String("192.0.2.2")}}}}}}})
	var ae smithy.APIError
	if !errors.As(err, &ae) || ae.ErrorCode() != "InvalidInput" {
		t.Errorf("ChangeResourceRecordSets TTL 2147483648: got %v, want InvalidInput", err)
	}
	out, err := cl.ListResourceRecordSets(c, &route53.ListResourceRecordSetsInput{HostedZoneId: aws.String("Z0FIXTURE00001")})
	if err != nil {
		t.Fatal(err)
	}
	for _, rr := range out.ResourceRecordSets {
		if aws.ToString(rr.Name) == "www.fixture.example.com." && aws.ToInt64(rr.TTL) != 60 {
			t.Errorf("www TTL = %d, want 60", aws.ToInt64(rr.TTL))
		}
	}
}
