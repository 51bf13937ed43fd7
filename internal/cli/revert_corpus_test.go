package cli

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
	"github.com/realdrift/realdrift/internal/schema"
)

// oobChange picks one out-of-band change for a live resource: a top-level
// scalar the schema lets an update change (declared properties first),
// changed to another value of its kind. false when there is none.
func oobChange(res *sandbox.Resource, declared map[string]any, facts *schema.Facts) (sandbox.Change, bool) {
	var model map[string]any
	if json.Unmarshal(res.Properties, &model) != nil {
		return sandbox.Change{}, false
	}
	barred := map[string]bool{}
	if facts != nil {
		for _, l := range [][]string{facts.ReadOnly, facts.CreateOnly, facts.WriteOnly, facts.PrimaryIdentifier} {
			for _, p := range l {
				barred[strings.TrimPrefix(p, "/properties/")] = true
			}
		}
	}
	keys := make([]string, 0, len(model))
	for k := range model {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		_, di := declared[keys[i]]
		_, dj := declared[keys[j]]
		if di != dj {
			return di
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		if barred[k] || strings.Contains(strings.ToLower(k), "name") || strings.HasSuffix(k, "Arn") || strings.HasSuffix(k, "Id") {
			continue
		}
		var v any
		switch t := model[k].(type) {
		case string:
			if t == "" || strings.HasPrefix(t, "arn:") {
				continue
			}
			v = t + "-oob"
		case float64:
			v = t + 1
		default:
			continue
		}
		b, _ := json.Marshal(v)
		return sandbox.Change{Op: sandbox.OpSet, Type: res.Type, Identifier: res.Identifier, Path: k, Value: b}, true
	}
	return sandbox.Change{}, false
}

// TestRevertCorpusRoundTrip is the revert acceptance run on a world built
// from the dev corpus: per account and region, record --all, one
// out-of-band change per resource that has a changeable scalar, revert
// --all --yes, check --all --fail. It logs the counts: resources changed,
// items reverted / still drifted / failed, not revertable by reason, and
// the locations whose check is clean after.
func TestRevertCorpusRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus round trip takes a while; skipped only with -short")
	}
	w := devCorpusWorld(t)
	snap, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	env := startSandbox(t, w, "", "")
	total := revertSummary{NotRevertable: map[string]int{}}
	changed, clean, locs := 0, 0, 0
	for _, a := range w.Accounts {
		for _, r := range a.Regions {
			if len(r.Stacks) == 0 {
				continue
			}
			locs++
			env.key, env.region = worldgen.AccessKey(a.ID), r.Name
			if _, errs, code := env.run("record", "--all", "--yes", "--concurrency", "16"); code != ExitOK {
				t.Fatalf("record in %s/%s: exit %d\n%s", a.ID, r.Name, code, errs)
			}
			for _, st := range r.Stacks {
				var tpl struct {
					Resources map[string]struct {
						Properties map[string]any
					}
				}
				_ = json.Unmarshal([]byte(st.TemplateBody), &tpl)
				for _, res := range st.Resources {
					if res.Deleted || len(res.Properties) == 0 {
						continue
					}
					facts, _ := snap.Lookup(res.Type)
					ch, ok := oobChange(res, tpl.Resources[res.LogicalID].Properties, facts)
					if !ok {
						continue
					}
					ch.Account, ch.Region = a.ID, r.Name
					if ch.Identifier == "" {
						ch.Identifier = res.PhysicalID
					}
					if err := env.srv.Apply(ch); err != nil {
						continue
					}
					changed++
				}
			}
			out, errs, code := env.run("revert", "--all", "--yes", "--json", "--concurrency", "16")
			var rep revertReport
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("revert in %s/%s: exit %d (%v)\n%s", a.ID, r.Name, code, err, errs)
			}
			s := rep.Summary
			total.Reverted += s.Reverted
			total.StillDrifted += s.StillDrifted
			total.Failed += s.Failed
			total.StackErrors += s.StackErrors
			for k, v := range s.NotRevertable {
				total.NotRevertable[k] += v
			}
			for _, st := range rep.Stacks {
				for _, o := range st.Outcomes {
					if o.Status != "reverted" {
						t.Logf("%s/%s %s: %s %s", a.ID, r.Name, o.ID, o.Status, o.Error)
					}
				}
			}
			if _, _, code := env.checkJSON("--all", "--fail", "--concurrency", "16"); code == ExitOK {
				clean++
			}
		}
	}
	t.Logf("corpus round trip: %d out-of-band changes in %d account-regions; %s; %d stack errors; check --all --fail clean in %d of %d account-regions",
		changed, locs, total.line(), total.StackErrors, clean, locs)
	if total.Failed > 0 {
		t.Errorf("%d writes failed", total.Failed)
	}
	_ = fmt.Sprint
}
