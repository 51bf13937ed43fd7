package worldgen_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/corpus"
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
	bad := readCorpus(t, cases, w, url, worldgen.AccessKey, "")
	t.Logf("%d of %d cases differ", bad, len(cases))
}

// readCorpus reads every case with the production readers as the
// account's key names (key(account)) in the case's place, compares the
// model with the case's liveRaw, reports each difference (as: how it was
// read, for the message) and answers how many differ.
func readCorpus(t *testing.T, cases []*corpus.Case, w *sandbox.World, url string, key func(account string) string, as string) int {
	t.Helper()
	places, err := worldgen.Placements(w)
	if err != nil {
		t.Fatal(err)
	}
	clients := map[[2]string]*live.Clients{}
	bad := 0
	for _, c := range cases {
		p := places[c.File]
		loc := [2]string{p.Account, p.Region}
		cl := clients[loc]
		if cl == nil {
			cl = live.NewClients(sandboxtest.Config(url, key(loc[0]), loc[1]))
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
			t.Errorf("%s%s: %s via %s: %s", c.File, as, res.Status, res.Route, res.Reason)
			continue
		}
		if diff := cmp.Diff(res.Model, want); diff != "" {
			bad++
			t.Errorf("%s%s via %s (-got +want):\n%s", c.File, as, res.Route, diff)
		}
	}
	return bad
}

// TestCorpusWorldUnderReadRole reads every case as the service does: with
// a session of the member read role, whose policies (infra's, through the
// committed copy) the sandbox enforces for every call. Every reader,
// supplement and identifier adapter must read the same model as above: a
// call the role does not grant is refused as AWS refuses it, and the case
// differs or is skipped. Cloud Control reads are also refused when the
// role explicitly denies a permission the type's handler lists (the
// sandbox evaluates them as the handler's calls with the caller's
// credentials, cloudcontrol_handlers.go).
func TestCorpusWorldUnderReadRole(t *testing.T) {
	iamDir := filepath.Join("..", "..", "..", "testdata", "iam")
	role := sandboxtest.LoadReadRole(t, iamDir)
	docs := role.Documents(t, iamDir)
	cases, w := corpusCasesWorld(t)
	for _, a := range w.Accounts {
		a.AccessKeys = append(a.AccessKeys, sandbox.AccessKey{ID: "ASIAREAD" + a.ID, Role: role.Role})
		a.Policies = append(a.Policies, &sandbox.Policies{Role: role.Role, Documents: docs})
	}
	srv, url := sandboxtest.Serve(t, w, sandbox.Options{})
	bad := readCorpus(t, cases, w, url, func(account string) string { return "ASIAREAD" + account }, " under the read role")
	denied := 0
	for k, n := range srv.Calls().Errors {
		// The role never reads objects itself (NeverReadData): the Glue
		// Job supplement's script hash is unread under it, by design.
		if k == "s3:GetObject:AccessDenied" {
			continue
		}
		if strings.HasSuffix(k, "AccessDenied") || strings.HasSuffix(k, "AccessDeniedException") || strings.Contains(k, "UnauthorizedOperation") {
			denied += n
			t.Errorf("the sandbox refused %d %s calls", n, k)
		}
	}
	t.Logf("%d of %d cases differ under the read role; %d calls refused", bad, len(cases), denied)
}
