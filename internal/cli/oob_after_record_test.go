package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/normalize"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
	"github.com/realdrift/realdrift/internal/schema"
)

// The floors of TestOOBAfterRecord and TestOOBAfterRecordDemo: every
// change surfaces, and every one as confirmed drift (not potential drift;
// issue #24's acceptance, met on both worlds). Never lower them to make a
// change pass.
const (
	oobSurfacedFloor  = 100.0
	oobConfirmedFloor = 100.0
)

// The kinds of value an out-of-band change targets, in the order a
// resource prefers them (rotated per resource, AWS-assigned first).
const (
	oobAWSAssigned = "aws-assigned" // atDefault/generated at a path AWS picks or mints per resource
	oobDefault     = "default"      // atDefault elsewhere
	oobDeclared    = "declared"     // a declared leaf the live model echoes equal
	oobGenerated   = "generated"    // generated elsewhere
	oobUndeclared  = "undeclared"   // a recorded undeclared value
)

var oobKinds = []string{oobDefault, oobDeclared, oobGenerated, oobUndeclared}

// oobTarget is one value a change can reach by a plain dotted path.
type oobTarget struct {
	kind, path string
	from       any
}

// oobCount is surfaced and confirmed changes of one kind.
type oobCount struct{ changed, surfaced, confirmed int }

func (c oobCount) pct(n int) float64 {
	if c.changed == 0 {
		return 100
	}
	return 100 * float64(n) / float64(c.changed)
}

// TestOOBAfterRecord is issue #10's acceptance run for values recorded
// and then changed out of band: on a sandbox world built from the dev
// corpus, per account and region, a first check, record --all --yes, one
// out-of-band change per resource through the admin API (an AWS-assigned
// value where the resource has one, else declared, default, generated and
// undeclared values in turn), then check --all --json. A change surfaces
// when a drift-tier finding lies at its path, above or below it; it is
// confirmed when that finding is not potential drift (unrecorded).
// scripts/oob-after-record.sh prints the "oob after record:" line.
func TestOOBAfterRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus record/change/check run takes a while; skipped only with -short")
	}
	w := devCorpusWorld(t)
	oobAfterRecord(t, w, worldgen.AccessKey)
}

// TestOOBAfterRecordDemo is the same run on the demo world (the
// organisation realdrift demo and sandbox world --demo serve, built from
// the embedded recordings), every account and region of it;
// scripts/oob-after-record.sh -demo prints its line.
func TestOOBAfterRecordDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("the demo record/change/check run takes a while; skipped only with -short")
	}
	cases, err := worldgen.DemoCases()
	if err != nil {
		t.Fatal(err)
	}
	w, err := worldgen.Demo(cases)
	if err != nil {
		t.Fatal(err)
	}
	oobAfterRecord(t, w, worldgen.DemoAccessKey)
}

// oobAfterRecord runs the first check, record, out-of-band changes and
// second check on every account region of w with stacks, acting with the
// access key keyOf gives each account, logs the figures and holds the
// floors.
func oobAfterRecord(t *testing.T, w *sandbox.World, keyOf func(account string) string) {
	t.Helper()
	assigned := awsAssignedPaths(t)
	snap, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	excluded := map[string]int{}
	env := startSandbox(t, w, "", "")
	counts := map[string]*oobCount{}
	var total oobCount
	var missed []string
	n := 0
	for _, a := range w.Accounts {
		for _, r := range a.Regions {
			if len(r.Stacks) == 0 {
				continue
			}
			env.key, env.region = keyOf(a.ID), r.Name
			first, errs, _ := env.checkJSON("--all", "--concurrency", "16")
			if len(first.Stacks) == 0 {
				t.Fatalf("first check in %s/%s: no stacks\n%s", a.ID, r.Name, errs)
			}
			before := findingsByResource(first)
			if _, errs, code := env.run("record", "--all", "--yes", "--concurrency", "16"); code != ExitOK {
				t.Fatalf("record in %s/%s: exit %d\n%s", a.ID, r.Name, code, errs)
			}
			type change struct {
				stack, lid, typ string
				target          oobTarget
			}
			var changes []change
			for _, st := range r.Stacks {
				var tpl struct {
					Resources map[string]struct{ Properties map[string]any }
				}
				_ = json.Unmarshal([]byte(st.TemplateBody), &tpl)
				for _, res := range st.Resources {
					if res.Deleted || len(res.Properties) == 0 {
						continue
					}
					var live map[string]any
					if json.Unmarshal(res.Properties, &live) != nil {
						continue
					}
					if notRead(before[st.Name+"/"+res.LogicalID]) {
						excluded["resource not read"]++
						continue
					}
					facts, _ := snap.Lookup(res.Type)
					ts := oobTargets(res.Type, live, tpl.Resources[res.LogicalID].Properties, before[st.Name+"/"+res.LogicalID], assigned)
					ts = observable(ts, facts, res.PhysicalID, before[st.Name+"/"+res.LogicalID], excluded)
					order := targetOrder(ts, n)
					if len(order) == 0 {
						continue
					}
					n++
					id := res.Identifier
					if id == "" {
						id = res.PhysicalID
					}
					// The preferred target first; where AWS's API would
					// refuse its mutated value (an enumeration's
					// SECONDARY made SECONDARZ), the next one, as a
					// console edit would pick a value the API takes.
					var tg oobTarget
					var b []byte
					applied := false
					for _, cand := range order {
						to, ok := corpus.Mutate(cand.from)
						if !ok {
							break
						}
						tg = cand
						b, _ = json.Marshal(to)
						err := env.srv.Apply(sandbox.Change{Op: sandbox.OpSet, Account: a.ID, Region: r.Name, Type: res.Type, Identifier: id, Path: tg.path, Value: b})
						if err == nil {
							applied = true
							break
						}
						t.Logf("%s/%s %s: %v", st.Name, res.LogicalID, tg.path, err)
						if !errors.Is(err, sandbox.ErrRefused) {
							break
						}
					}
					if !applied {
						continue
					}
					for _, m := range inlineHolders(a, res, live, tg.path) {
						m.Value = b
						if err := env.srv.Apply(m); err != nil {
							t.Logf("%s/%s %s (holder %s): %v", st.Name, res.LogicalID, tg.path, m.Identifier, err)
						}
					}
					changes = append(changes, change{st.Name, res.LogicalID, res.Type, tg})
				}
			}
			after, errs, _ := env.checkJSON("--all", "--concurrency", "16")
			if len(after.Stacks) == 0 {
				t.Fatalf("check in %s/%s: no stacks\n%s", a.ID, r.Name, errs)
			}
			got := findingsByResource(after)
			for _, c := range changes {
				k := counts[c.target.kind]
				if k == nil {
					k = &oobCount{}
					counts[c.target.kind] = k
				}
				k.changed++
				total.changed++
				surfaced, confirmed := false, false
				var seen []string
				for _, f := range got[c.stack+"/"+c.lid] {
					if !oobRelated(f.Path, c.target.path) {
						continue
					}
					seen = append(seen, fmt.Sprintf("%s %s unrecorded=%v %q", f.Tier, f.Path, f.Unrecorded, f.Note))
					if f.Tier.IsDrift() {
						surfaced = true
						confirmed = confirmed || !f.Unrecorded
					}
				}
				if surfaced {
					k.surfaced++
					total.surfaced++
				}
				if confirmed {
					k.confirmed++
					total.confirmed++
				}
				if len(seen) == 0 {
					for _, f := range got[c.stack+"/"+c.lid] {
						seen = append(seen, fmt.Sprintf("(other) %s %s %q %s", f.Tier, f.Path, f.Note, f.Reason))
					}
				}
				if !confirmed {
					missed = append(missed, fmt.Sprintf("%s/%s %s (%s) %s: %s", c.stack, c.lid, c.typ, c.target.kind, c.target.path, strings.Join(seen, "; ")))
				}
			}
		}
	}
	sort.Strings(missed)
	for _, m := range missed {
		t.Logf("not confirmed: %s", m)
	}
	kinds := append([]string{oobAWSAssigned}, oobKinds...)
	for _, kind := range kinds {
		if c := counts[kind]; c != nil {
			t.Logf("  %-12s %4d changed, %4d surfaced (%.1f %%), %4d confirmed (%.1f %%)", kind, c.changed, c.surfaced, c.pct(c.surfaced), c.confirmed, c.pct(c.confirmed))
		}
	}
	for _, why := range []string{"write-only", "create-only", "identifier", "read gap", "resource not read"} {
		t.Logf("  not a target (%s): %d", why, excluded[why])
	}
	sp, cp := total.pct(total.surfaced), total.pct(total.confirmed)
	t.Logf("oob after record: %d changes, %d surfaced (%.1f %%), %d confirmed drift (%.1f %%)", total.changed, total.surfaced, sp, total.confirmed, cp)
	if total.changed == 0 {
		t.Fatal("no out-of-band change applied")
	}
	if sp < oobSurfacedFloor {
		t.Errorf("%.1f %% of changes surfaced, want ≥ %.1f %%", sp, oobSurfacedFloor)
	}
	if cp < oobConfirmedFloor {
		t.Errorf("%.1f %% of changes surfaced as confirmed drift, want ≥ %.1f %%", cp, oobConfirmedFloor)
	}
}

// findingsByResource indexes a report's findings by "stack/logicalId".
func findingsByResource(rep jsonReport) map[string][]drift.Finding {
	out := map[string][]drift.Finding{}
	for _, s := range rep.Stacks {
		for _, f := range s.Findings {
			out[s.Stack+"/"+f.LogicalID] = append(out[s.Stack+"/"+f.LogicalID], f)
		}
	}
	return out
}

// awsAssignedPaths reads the paths the imported facts mark watched or
// minted, by type.
func awsAssignedPaths(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile("../classify/imported.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Types map[string]struct {
			Watched []string `json:"watched"`
			Minted  []string `json:"minted"`
		} `json:"types"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for typ, f := range doc.Types {
		out[typ] = append(append(out[typ], f.Watched...), f.Minted...)
	}
	return out
}

// oobTargets lists the values a change to one resource can target: the
// scalar leaves at or under its first-check atDefault, generated and
// undeclared findings, and its declared leaves the live model echoes equal.
func oobTargets(typ string, live, declared map[string]any, first []drift.Finding, assigned map[string][]string) []oobTarget {
	var out []oobTarget
	seen := map[string]bool{}
	add := func(kind, path string) {
		v, ok := corpus.LookupDotted(live, path)
		if !ok {
			return
		}
		leaf, lv, ok := oobLeaf(path, v)
		if !ok || seen[leaf] {
			return
		}
		seen[leaf] = true
		out = append(out, oobTarget{kind: kind, path: leaf, from: lv})
	}
	for _, f := range first {
		if strings.ContainsAny(f.Path, "[]") || f.Actual == nil || drift.ContainsSecret(f.Actual) {
			continue
		}
		kind := ""
		switch f.Tier {
		case drift.AtDefault:
			kind = oobDefault
		case drift.Generated:
			kind = oobGenerated
		case drift.Undeclared:
			kind = oobUndeclared
		default:
			continue
		}
		if kind != oobUndeclared && oobAssigned(assigned[typ], f.Path) {
			kind = oobAWSAssigned
		}
		if v, ok := corpus.LookupDotted(live, f.Path); !ok || !normalize.Equal(v, f.Actual) {
			continue // the stored model is not the read model here
		}
		add(kind, f.Path)
	}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch t := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(joinDotted(prefix, k), t[k])
			}
		case []any:
			for i, e := range t {
				walk(joinDotted(prefix, strconv.Itoa(i)), e)
			}
		case string, float64, bool:
			if lv, ok := corpus.LookupDotted(live, prefix); ok && lv == v {
				add(oobDeclared, prefix)
			}
		}
	}
	keys := make([]string, 0, len(declared))
	for k := range declared {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if drift.ContainsUnknown(declared[k]) || drift.ContainsSecret(declared[k]) {
			continue
		}
		walk(k, declared[k])
	}
	return out
}

// targetOrder orders the targets a change tries: an AWS-assigned one
// first when there is one, else the kinds in turn from the one n picks
// (rotated per resource), each kind's targets in their order.
func targetOrder(ts []oobTarget, n int) []oobTarget {
	var out []oobTarget
	for _, t := range ts {
		if t.kind == oobAWSAssigned {
			out = append(out, t)
		}
	}
	for i := range oobKinds {
		kind := oobKinds[(n+i)%len(oobKinds)]
		for _, t := range ts {
			if t.kind == kind {
				out = append(out, t)
			}
		}
	}
	return out
}

// oobAssigned reports whether a finding path is at or under a watched or
// minted path ("*" matches one segment).
func oobAssigned(paths []string, path string) bool {
	segs := strings.Split(path, ".")
	for _, p := range paths {
		ps := strings.Split(p, ".")
		if len(ps) > len(segs) {
			continue
		}
		ok := true
		for i, s := range ps {
			if s != "*" && s != segs[i] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// oobLeaf returns the first scalar leaf at or under v (sorted keys, array
// order) and its dotted path; a string leaf must be non-empty.
func oobLeaf(path string, v any) (string, any, bool) {
	switch t := v.(type) {
	case string:
		return path, t, t != ""
	case float64, bool:
		return path, t, true
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if p, lv, ok := oobLeaf(joinDotted(path, k), t[k]); ok {
				return p, lv, true
			}
		}
	case []any:
		for i, e := range t {
			if p, lv, ok := oobLeaf(joinDotted(path, strconv.Itoa(i)), e); ok {
				return p, lv, true
			}
		}
	}
	return "", nil, false
}

func joinDotted(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

// oobRelated reports whether a finding at p covers a change at q (dotted):
// the same path, an ancestor or a descendant; a keyed finding path
// ("Tags[Name].Value") covers q when its part before the key does; a
// whole-resource finding (p empty: the resource deleted) covers every path.
func oobRelated(p, q string) bool {
	if p == "" {
		return true
	}
	if i := strings.IndexByte(p, '['); i >= 0 {
		p = p[:i]
	}
	return p == q || strings.HasPrefix(q, p+".") || strings.HasPrefix(p, q+".")
}

// observable drops the targets an out-of-band change cannot reach or no
// reader can see: write-only values (never read back: a read gap, fail
// closed), declared create-only values, the primary identifier and the
// value the resource is found by — its physical id, or the name ending it
// (a budget's name, a Glue table's, an endpoint configuration's in its ARN)
// — (changing them is a new resource, not an edit; AWS itself still moves
// create-only values it assigned, such as a zone on failover, so those stay
// targets), and values under a first-check read gap.
// excluded counts them by reason.
func observable(ts []oobTarget, facts *schema.Facts, physicalID string, first []drift.Finding, excluded map[string]int) []oobTarget {
	reason := map[string]string{}
	if facts != nil {
		for _, l := range []struct {
			why   string
			paths []string
		}{{"write-only", facts.WriteOnly}, {"create-only", facts.CreateOnly}, {"identifier", facts.PrimaryIdentifier}} {
			for _, p := range l.paths {
				p = strings.TrimPrefix(p, "/properties/")
				if reason[p] == "" {
					reason[p] = l.why
				}
			}
		}
	}
	var gaps []string
	for _, f := range first {
		if f.Tier == drift.ReadGap {
			gaps = append(gaps, f.Path)
		}
	}
	var out []oobTarget
targets:
	for _, tg := range ts {
		top := tg.path
		if i := strings.IndexByte(top, '.'); i >= 0 {
			top = top[:i]
		}
		if why := reason[top]; why != "" && (why != "create-only" || tg.kind == oobDeclared) {
			excluded[why]++
			continue
		}
		if v, ok := tg.from.(string); ok && namesResource(physicalID, v) {
			excluded["identifier"]++
			continue
		}
		for _, g := range gaps {
			if oobRelated(g, tg.path) {
				excluded["read gap"]++
				continue targets
			}
		}
		out = append(out, tg)
	}
	return out
}

// namesResource reports whether v is the physical id or the name it ends
// with (after "/", ":" or "|").
func namesResource(physicalID, v string) bool {
	if v == "" || physicalID == "" {
		return false
	}
	if v == physicalID {
		return true
	}
	for _, sep := range []string{"/", ":", "|"} {
		if strings.HasSuffix(physicalID, sep+v) {
			return true
		}
	}
	return false
}

// inlineHolders are the changes that make a change to an AWS::IAM::Policy
// visible as IAM serves it: IAM keeps an inline policy on each role, user
// and group holding it (PutRolePolicy changes that copy), and the sandbox
// serves a holder's own inline entry of that name first. A document
// change is made to each copy; so is a rename (PolicyName: IAM has no
// rename, an out-of-band rename is a new inline policy on each holder in
// place of the old one), after which the stack's policy is gone — the
// deleted tier, a whole-resource finding (oobRelated).
func inlineHolders(a *sandbox.Account, res *sandbox.Resource, live map[string]any, path string) []sandbox.Change {
	if res.Type != "AWS::IAM::Policy" || (path != "PolicyName" && !strings.HasPrefix(path, "PolicyDocument.")) {
		return nil
	}
	name, _ := live["PolicyName"].(string)
	var out []sandbox.Change
	for _, r := range a.Regions {
		for _, st := range r.Stacks {
			for _, h := range st.Resources {
				switch h.Type {
				case "AWS::IAM::Role", "AWS::IAM::User", "AWS::IAM::Group":
				default:
					continue
				}
				var m struct {
					Policies []struct{ PolicyName string }
				}
				if json.Unmarshal(h.Properties, &m) != nil {
					continue
				}
				for i, p := range m.Policies {
					if p.PolicyName == name && name != "" {
						id := h.Identifier
						if id == "" {
							id = h.PhysicalID
						}
						out = append(out, sandbox.Change{Op: sandbox.OpSet, Account: a.ID, Region: r.Name, Type: h.Type, Identifier: id,
							Path: "Policies." + strconv.Itoa(i) + "." + path})
					}
				}
			}
		}
	}
	return out
}

// notRead reports whether the first check could not read the resource
// (skipped: no reader, a failed read): a coverage gap, not a change target.
func notRead(first []drift.Finding) bool {
	for _, f := range first {
		if f.Tier == drift.Skipped && f.Path == "" {
			return true
		}
	}
	return false
}
