package worldgen_test

import (
	"encoding/json"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
)

// TestCorpusWorldThroughReaders reads every case with the production
// readers (Cloud Control or the SDK override) against the corpus world and
// compares the model with the case's liveRaw.
func TestCorpusWorldThroughReaders(t *testing.T) {
	cases, w := corpusCasesWorld(t)
	_, url := sandboxtest.Serve(t, w, sandbox.Options{})
	places, err := worldgen.Placements(w)
	if err != nil {
		t.Fatal(err)
	}
	where := map[string][2]string{}
	for f, p := range places {
		where[f] = [2]string{p.Account, p.Region}
	}
	clients := map[[2]string]*live.Clients{}
	bad := 0
	for _, c := range cases {
		loc := where[c.File]
		cl := clients[loc]
		if cl == nil {
			cl = live.NewClients(aws.Config{Region: loc[1], Credentials: credentials.NewStaticCredentialsProvider(worldgen.AccessKey(loc[0]), "s", ""), BaseEndpoint: aws.String(url)})
			clients[loc] = cl
		}
		f := c.Schema
		res := live.Read(t.Context(), cl, live.Request{Type: c.Resource.ResourceType, LogicalID: c.Resource.LogicalID, PhysicalID: c.Resource.PhysicalID, Declared: c.Resource.Declared, Facts: &f})
		var want map[string]any
		if err := json.Unmarshal(c.RawLive, &want); err != nil {
			t.Fatal(err)
		}
		if res.Status != live.Found {
			bad++
			t.Errorf("%s: %s via %s: %s", c.File, res.Status, res.Route, res.Reason)
			continue
		}
		if diff := cmp.Diff(res.Model, want); diff != "" {
			bad++
			t.Errorf("%s via %s (-got +want):\n%s", c.File, res.Route, diff)
		}
	}
	t.Logf("%d of %d cases differ", bad, len(cases))
}
