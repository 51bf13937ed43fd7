package cli

import (
	"encoding/json"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/schema"
)

// TestCheckLocalQueueURLs: a check through a sandbox that names queues at
// itself (sandbox serve --local-queue-urls) finds exactly what a check
// through one naming them at AWS finds — the same findings, the physical
// ids apart — and an out-of-band change is the same one declared drift.
func TestCheckLocalQueueURLs(t *testing.T) {
	plain := startSandbox(t, appWorld(t, bigStack(3)), testKey, testRegion)
	opts := sandbox.Options{LocalQueueURLs: true}
	if snap, err := schema.Embedded(); err == nil {
		opts.Facts = snap.Lookup
	}
	srv, err := sandbox.New(appWorld(t, bigStack(3)), opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { hs.Close(); srv.Close() })
	local := &sandboxEnv{t: t, srv: srv, url: hs.URL, key: testKey, region: testRegion, stateDir: t.TempDir()}

	for _, env := range []*sandboxEnv{plain, local} {
		if err := env.srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: testRegion, Type: "AWS::SQS::Queue",
			Identifier: "https://sqs." + testRegion + ".amazonaws.com/" + testAccount + "/Big-Queue001", Path: "VisibilityTimeout", Value: json.RawMessage("45")}); err != nil {
			t.Fatal(err)
		}
	}
	report := func(env *sandboxEnv) string {
		out, errs, code := env.run("check", "--json", "--fail", "Big")
		if code != ExitDrift {
			t.Fatalf("check: exit %d\n%s", code, errs)
		}
		return out
	}
	want := report(plain)
	got := report(local)
	if !strings.Contains(got, hs.URL+"/queues/"+testRegion+"/") {
		t.Fatalf("the local-URL check names no queue at the sandbox:\n%s", got)
	}
	got = strings.ReplaceAll(got, hs.URL+"/queues/"+testRegion+"/", "https://sqs."+testRegion+".amazonaws.com/")
	// The peak of calls in flight is how the two runs' reads happened to
	// overlap, not what they found; a finding's id hashes its physical id,
	// the queue URL the two sandboxes name differently.
	for _, re := range []*regexp.Regexp{inFlight, findingID} {
		got, want = re.ReplaceAllString(got, "N"), re.ReplaceAllString(want, "N")
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("check through local queue URLs differs (-local +aws):\n%s", diff)
	}
}

// inFlight matches the report's scheduling-dependent peak of calls in flight.
var inFlight = regexp.MustCompile(`"maxInFlight": [0-9]+`)

// findingID matches a finding's stable id.
var findingID = regexp.MustCompile(`"id": "realdrift/[0-9a-f]+"`)
