package baseline

import (
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// Watched values are the live values a record saw folded: atDefault (a
// default, and the values AWS picks per resource: zones, windows, IPs,
// patch versions, counters) and generated values that are not recorded
// entries. They are stored in the additive "watched" field, never in
// "recorded", so cdk-real-drift (which ignores the field) neither reports
// them "removed since record" nor counts them as undeclared state.
//
// A watched value is stored as its leaves: an object is descended key by
// key (keys holding "." or "[" end the descent), an array, a scalar or an
// empty object is one leaf, compared whole after Options.Canon. A leaf that
// holds a secret (drift.Secret, a secret Unknown, the drift.Redacted text)
// or an Unknown is never stored.

// watchable reports whether a finding's live value is watched: atDefault,
// or generated and not a recorded content hash; known; not nil.
func watchable(f drift.Finding) bool {
	switch f.Tier {
	case drift.AtDefault:
	case drift.Generated:
		if recordableGenerated(f.ResourceType, f.Path) {
			return false
		}
	default:
		return false
	}
	return f.Path != "" && f.Actual != nil && !drift.ContainsUnknown(f.Actual)
}

// watchLeaves calls add for every storable leaf of v at path.
func watchLeaves(path string, v any, add func(path string, v any)) {
	if m, ok := v.(map[string]any); ok && len(m) > 0 && plainKeys(m) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			watchLeaves(path+"."+k, m[k], add)
		}
		return
	}
	if drift.ContainsSecret(v) || drift.ContainsUnknown(v) || containsRedacted(v) {
		return
	}
	add(path, v)
}

func plainKeys(m map[string]any) bool {
	for k := range m {
		if k == "" || strings.ContainsAny(k, ".[]") {
			return false
		}
	}
	return true
}

// containsRedacted reports whether v holds the drift.Redacted text: a
// secret the classifier already replaced.
func containsRedacted(v any) bool {
	switch t := v.(type) {
	case string:
		return strings.Contains(t, drift.Redacted)
	case map[string]any:
		for _, e := range t {
			if containsRedacted(e) {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if containsRedacted(e) {
				return true
			}
		}
	}
	return false
}

// watchCompare compares a live value v at path of lid with its watched
// leaves: the leaf at or above path (v is then that leaf's part at path),
// or the leaves below it (v's leaves must be exactly those). covered is
// true when a leaf speaks about path; changed when the value differs;
// desired is the watched value at path (nil when it had none). Every
// leaf consulted is marked in matched. A leaf that cannot be followed to
// path (an array without an unambiguous element) is not comparable:
// covered, not changed (never fabricate a difference).
func (r *run) watchCompare(lid, path string, v any, matched map[entryKey]bool) (covered, changed bool, desired any) {
	var below []Entry
	for _, e := range r.watched[lid] {
		switch {
		case e.Path == path || within(path, e.Path):
			matched[entryKey{lid, e.Path}] = true
			wv, res := descend(e.Value, path[len(e.Path):])
			switch res {
			case found:
				return true, !r.opt.Equal(wv, v), wv
			case absentBelow:
				return true, true, nil
			}
			return true, false, nil
		case within(e.Path, path):
			below = append(below, e)
		}
	}
	if len(below) == 0 {
		return false, false, nil
	}
	want := map[string]any{}
	for _, e := range below {
		matched[entryKey{lid, e.Path}] = true
		want[e.Path] = e.Value
	}
	got := map[string]any{}
	watchLeaves(path, v, func(p string, lv any) { got[p] = lv })
	if len(got) != len(want) {
		changed = true
	}
	for p, wv := range want {
		if lv, ok := got[p]; !ok || !r.opt.Equal(wv, lv) {
			changed = true
		}
	}
	return true, changed, unflatten(path, below)
}

// unflatten rebuilds the object at path from leaves below it.
func unflatten(path string, leaves []Entry) map[string]any {
	out := map[string]any{}
	for _, e := range leaves {
		segs := strings.Split(strings.TrimPrefix(e.Path[len(path):], "."), ".")
		cur := out
		for i, s := range segs {
			if i == len(segs)-1 {
				cur[s] = e.Value
				break
			}
			next, ok := cur[s].(map[string]any)
			if !ok {
				next = map[string]any{}
				cur[s] = next
			}
			cur = next
		}
	}
	return out
}

// watchedChanged turns a folded or unrecorded finding whose watched value
// differs into confirmed drift: undeclared, the watched value as Desired,
// noted "changed since record".
func watchedChanged(f drift.Finding, desired any) drift.Finding {
	f.Tier = drift.Undeclared
	f.Desired = desired
	f.Unrecorded = false
	f.Note = NoteChanged
	return f
}

// watchedGone reports watched leaves no finding speaks about on a read
// resource: the value left its fold (emptied, removed, or now a value the
// classifier drops) since record. Not reported when the resource was not
// read or replaced, the path is read-gapped or its top-level key is now
// declared.
func (r *run) watchedGone(findings []drift.Finding, matched map[entryKey]bool) []drift.Finding {
	spoken := map[string][]string{}
	for _, f := range findings {
		spoken[f.LogicalID] = append(spoken[f.LogicalID], f.Path)
	}
	lids := make([]string, 0, len(r.watched))
	for lid := range r.watched {
		lids = append(lids, lid)
	}
	sort.Strings(lids)
	var out []drift.Finding
	for _, lid := range lids {
		x, ok := r.res[lid]
		if !ok || r.unread[lid] {
			continue
		}
	leaves:
		for _, e := range r.watched[lid] {
			if matched[entryKey{lid, e.Path}] || r.readGapped(lid, e.Path) || declaredAt(x.Declared, e.Path) {
				continue
			}
			for _, p := range spoken[lid] {
				if p != "" && (within(p, e.Path) || within(e.Path, p)) {
					continue leaves
				}
			}
			out = append(out, drift.Finding{
				Tier: drift.Undeclared, LogicalID: lid, ResourceType: x.Type, PhysicalID: x.PhysicalID,
				ConstructPath: x.ConstructPath, Path: e.Path, Desired: e.Value, Note: NoteChanged,
			})
		}
	}
	return out
}

// recordWatched returns the watched leaves of the next baseline: those of
// every read resource as this run saw them (a leaf whose change was
// declined keeps its previous value), and the previous leaves of resources
// not read (not void).
func (r *run) recordWatched(s Snapshot, sel func(lid, path string) bool) []Entry {
	var out []Entry
	now := map[entryKey]bool{}
	for _, f := range s.Findings {
		x, inTemplate := r.res[f.LogicalID]
		if !inTemplate || r.unread[f.LogicalID] || !watchable(f) {
			continue
		}
		lid := f.LogicalID
		takeAll := sel(lid, f.Path)
		watchLeaves(f.Path, f.Actual, func(p string, v any) {
			now[entryKey{lid, p}] = true
			if takeAll && sel(lid, p) {
				out = append(out, Entry{LogicalID: lid, ResourceType: x.Type, Path: p, Value: v})
			}
		})
		if !takeAll {
			for _, e := range r.watched[lid] {
				if e.Path == f.Path || within(e.Path, f.Path) {
					out = append(out, e)
				}
			}
		}
	}
	for lid, es := range r.watched {
		_, inTemplate := r.res[lid]
		if !inTemplate {
			continue
		}
		for _, e := range es {
			k := entryKey{lid, e.Path}
			switch {
			case r.unread[lid]:
				out = append(out, e)
			case !now[k] && !sel(lid, e.Path):
				out = append(out, e) // a declined "changed since record"
			case now[k] && !sel(lid, e.Path):
				out = append(out, e)
			}
		}
	}
	sortEntries(out)
	return dedupe(out)
}

func sortEntries(es []Entry) {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].LogicalID != es[j].LogicalID {
			return es[i].LogicalID < es[j].LogicalID
		}
		return es[i].Path < es[j].Path
	})
}

// watchedAt reports whether a watched leaf lies at, above or below path.
func (r *run) watchedAt(lid, path string) bool {
	for _, e := range r.watched[lid] {
		if within(path, e.Path) || within(e.Path, path) {
			return true
		}
	}
	return false
}

// declaredAt reports whether the template declares path or a value above
// it (then the declared tier speaks about it); a path into a declared
// array or an unresolved value counts as declared.
func declaredAt(declared map[string]any, path string) bool {
	if _, ok := declared[topKey(path)]; !ok {
		return false
	}
	_, res := descend(declared, "."+path)
	return res == found || res == unknowable
}
