package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
	"github.com/realdrift/realdrift/internal/schema"
	"github.com/realdrift/realdrift/internal/who"
)

// TestWhoLookupCount is issue #29's LookupEvents figure: on the sandbox
// world built from the dev corpus, one out-of-band change per stack (a
// declared value of the first resource that has one the live model
// echoes), made as a named principal, then check --all --who
// --no-baseline per account and region. The number of LookupEvents calls
// is at most one per drifted resource (never one per clean resource),
// none throttled out. scripts/who-lookups.sh prints the "who lookups:"
// line.
func TestWhoLookupCount(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus world check with lookups paced at 2/s takes a while; skipped only with -short")
	}
	w := devCorpusWorld(t)
	snap, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	assigned := awsAssignedPaths(t)
	env := startSandbox(t, w, "", "")
	const principal = "corpus-admin"
	calls, drifted, attributed, changed, stacks := 0, 0, 0, 0, 0
	for _, a := range w.Accounts {
		for _, r := range a.Regions {
			if len(r.Stacks) == 0 {
				continue
			}
			env.key, env.region = worldgen.AccessKey(a.ID), r.Name
			first, errs, _ := env.checkJSON("--all", "--no-baseline", "--concurrency", "16")
			if len(first.Stacks) == 0 {
				t.Fatalf("first check in %s/%s: no stacks\n%s", a.ID, r.Name, errs)
			}
			before := findingsByResource(first)
			changedIDs := map[string]bool{}
			for _, st := range r.Stacks {
				stacks++
				var tpl struct {
					Resources map[string]struct{ Properties map[string]any }
				}
				_ = json.Unmarshal([]byte(st.TemplateBody), &tpl)
				for _, res := range st.Resources {
					var live map[string]any
					if res.Deleted || json.Unmarshal(res.Properties, &live) != nil || notRead(before[st.Name+"/"+res.LogicalID]) {
						continue
					}
					facts, _ := snap.Lookup(res.Type)
					ts := oobTargets(res.Type, live, tpl.Resources[res.LogicalID].Properties, before[st.Name+"/"+res.LogicalID], assigned)
					ts = observable(ts, facts, res.PhysicalID, before[st.Name+"/"+res.LogicalID], map[string]int{})
					var tg *oobTarget
					for i := range ts {
						if ts[i].kind == oobDeclared {
							tg = &ts[i]
							break
						}
					}
					if tg == nil {
						continue
					}
					to, ok := corpus.Mutate(tg.from)
					if !ok {
						continue
					}
					b, _ := json.Marshal(to)
					id := res.Identifier
					if id == "" {
						id = res.PhysicalID
					}
					if err := env.srv.Apply(sandbox.Change{Op: sandbox.OpSet, Account: a.ID, Region: r.Name, Type: res.Type, Identifier: id,
						Path: tg.path, Value: b, Principal: principal, UserAgent: "aws-cli/2.15.0 Python/3.11"}); err != nil {
						t.Logf("%s/%s %s: %v", st.Name, res.LogicalID, tg.path, err)
						continue
					}
					changed++
					changedIDs[st.Name+"/"+res.LogicalID] = true
					break // one change per stack
				}
			}
			env.srv.ResetCalls()
			after, errs, _ := env.checkJSON("--all", "--who", "--no-baseline", "--concurrency", "16")
			if len(after.Stacks) == 0 {
				t.Fatalf("check --who in %s/%s: no stacks\n%s", a.ID, r.Name, errs)
			}
			st := env.srv.Calls()
			calls += st.Requests["cloudtrail:LookupEvents"]
			for k, n := range st.Errors {
				if strings.HasPrefix(k, "cloudtrail:") {
					t.Errorf("%s/%s: %d %s: lookups not paced to the quota", a.ID, r.Name, n, k)
				}
			}
			for _, s := range after.Stacks {
				resources := map[string]bool{}
				for _, f := range s.Findings {
					if !who.Drifted(f) {
						continue
					}
					if f.ChangedBy == nil {
						t.Errorf("%s %s %s: drift without changedBy", s.Stack, f.LogicalID, f.Path)
						continue
					}
					k := s.Stack + "/" + f.LogicalID
					if !resources[k] {
						resources[k] = true
						drifted++
						switch {
						case changedIDs[k] && f.ChangedBy.Name == principal:
							attributed++
						case changedIDs[k]:
							t.Logf("not attributed to %s: %s %s: %s", principal, k, f.ResourceType, f.ChangedBy.Line())
						}
					}
				}
			}
		}
	}
	t.Logf("who lookups: %d LookupEvents calls for %d drifted resources in %d stacks (%d changed, one per stack where a declared value could be; %d of them attributed to %s)",
		calls, drifted, stacks, changed, attributed, principal)
	if changed == 0 {
		t.Fatal("no change applied")
	}
	if calls > drifted {
		t.Errorf("%d LookupEvents calls for %d drifted resources: want at most one per drifted resource", calls, drifted)
	}
	if attributed == 0 {
		t.Errorf("no changed resource attributed to %s", principal)
	}
}
