package sandbox_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestSharedThrottleAndLoad: a shared rule is one bucket per account and
// region over every API it matches (here STS and Cloud Control draw on the
// same two tokens), another region of the account has its own, and the
// call log counts calls and throttles per account-region.
func TestSharedThrottleAndLoad(t *testing.T) {
	srv, u := start(t, "testdata/world.json", sandbox.Options{})
	if err := srv.SetThrottle([]sandbox.ThrottleRule{{Rate: 0.001, Burst: 2, Shared: true}}); err != nil {
		t.Fatal(err)
	}
	conf := cfg(u, mgmtKey, "us-east-1")
	conf.Retryer = func() aws.Retryer { return aws.NopRetryer{} }
	cc, st := cloudcontrol.NewFromConfig(conf), sts.NewFromConfig(conf)
	get := func(c *cloudcontrol.Client) string {
		_, err := c.GetResource(ctx(t), &cloudcontrol.GetResourceInput{TypeName: aws.String(queueType), Identifier: aws.String(queueURL)})
		return code(err)
	}
	_, err := st.GetCallerIdentity(ctx(t), &sts.GetCallerIdentityInput{})
	codes := []string{code(err), get(cc), get(cc)}
	if codes[0] != "" || codes[1] != "" || codes[2] != "ThrottlingException" {
		t.Errorf("codes %q: want two calls through one shared bucket of two, then a throttle", codes)
	}
	west := conf.Copy()
	west.Region = "eu-west-1"
	if _, err := sts.NewFromConfig(west).GetCallerIdentity(ctx(t), &sts.GetCallerIdentityInput{}); err != nil {
		t.Errorf("another region has its own bucket: %v", err)
	}
	load := srv.Calls().Regions
	var acct string
	for k := range load {
		acct = k[:12]
	}
	east, westLoad := load[acct+"/us-east-1"], load[acct+"/eu-west-1"]
	if east.Calls != 3 || east.Throttled != 1 || westLoad.Calls != 1 || westLoad.Throttled != 0 {
		t.Errorf("load %+v", load)
	}
	if east.MaxInFlight != 1 || east.First.After(east.Last) {
		t.Errorf("us-east-1 load %+v: want one call in flight at a time, first before last", east)
	}
	if got := srv.Calls().AccountMaxInFlight[acct]; got != 1 {
		t.Errorf("account max in flight %d, want 1", got)
	}
}
