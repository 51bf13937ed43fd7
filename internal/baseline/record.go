package baseline

import (
	"time"

	"github.com/realdrift/realdrift/internal/drift"
)

// Snapshot is one run as Record sees it.
type Snapshot struct {
	Stack drift.StackRef
	// Findings are the classifier's findings with ignore rules applied
	// (ignored findings are never recorded). Not Apply's output.
	Findings []drift.Finding
	// Resources lists every resource of the current deployed template.
	Resources []Resource
	// Parents maps an added child's logical id to its declared parent's
	// (as Input.Parents).
	Parents map[string]string
	// Scanned lists the parents whose child enumeration completed this run.
	Scanned []Parent
	// TemplateHash is TemplateHash of the deployed template.
	TemplateHash string
	// CapturedAt is the record time.
	CapturedAt time.Time
	// Select picks the values to record by entry id (EntryID: the logical
	// id, or an added resource's id with its physical id) and path (an
	// added resource has path ""); it also accepts the removal of a
	// recorded value that is gone. Nil records everything.
	Select func(logicalID, path string) bool
}

// recordable reports whether a finding's value can be recorded.
func recordable(f drift.Finding) bool {
	switch f.Tier {
	case drift.Undeclared:
		// A synthesized removal or deleted default carries no live value.
		return f.Actual != nil && !drift.ContainsUnknown(f.Actual)
	case drift.Added:
		return f.Actual != nil && !drift.ContainsUnknown(f.Actual)
	case drift.Generated:
		return recordableGenerated(f.ResourceType, f.Path) && f.Actual != nil && !drift.ContainsUnknown(f.Actual)
	}
	return false
}

// Record returns the baseline to write after recording a run on top of prev
// (nil when none). prev is not modified.
//
//   - A read resource's entries become its selected recordable values; an
//     unselected value keeps its previous entry (a declined change stays
//     drift); a previous entry whose value is gone is dropped when selected.
//   - A resource that was not read (skipped, deleted) carries its entries,
//     fingerprints, physical id, observed defaults and completeness forward
//     unchanged.
//   - A parent whose enumeration did not complete (the parent not read, a
//     listing failed: both a skipped parent) or one of whose added
//     children could not be read carries its enumeratedParents marker and
//     its recorded added children forward unchanged; so does an added
//     child whose read failed.
//   - A replaced or re-typed resource starts afresh.
//   - completeResources: every recordable value of the resource is recorded
//     as it is now (zero values: trivially complete), or it was complete
//     before and still stands (monotonic).
//   - enumeratedParents: a scanned parent whose present added children are
//     all recorded; a parent with a declined child is demoted.
func Record(prev *Baseline, s Snapshot, opt Options) *Baseline {
	sel := s.Select
	if sel == nil {
		sel = func(string, string) bool { return true }
	}
	r := newRun(prev, s.Findings, s.Resources, opt)
	next := &Baseline{
		Stack:              s.Stack,
		CapturedAt:         s.CapturedAt.UTC().Format(time.RFC3339),
		TemplateHash:       s.TemplateHash,
		Complete:           map[string]bool{},
		PhysicalIDs:        map[string]string{},
		SourceFingerprints: map[string]string{},
		Version:            SchemaVersion,
	}
	if next.Stack.Account == "" && prev != nil {
		next.Stack.Account = prev.Stack.Account
	}

	byLid := map[string][]drift.Finding{}
	for _, f := range s.Findings {
		if recordable(f) {
			byLid[EntryID(f)] = append(byLid[EntryID(f)], f)
		}
	}
	prevFP := func(k entryKey) (string, bool) {
		if prev == nil {
			return "", false
		}
		h, ok := prev.SourceFingerprints[FingerprintKey(k.lid, k.path)]
		return h, ok
	}
	keep := func(e Entry) {
		next.Entries = append(next.Entries, e)
		if h, ok := prevFP(entryKey{e.LogicalID, e.Path}); ok {
			next.SourceFingerprints[FingerprintKey(e.LogicalID, e.Path)] = h
		}
	}

	// Entries of the previous baseline that this run does not speak about:
	// resources not read, added resources not seen, and added resources
	// whose parent's enumeration did not complete or whose read failed.
	seenLid := map[string]bool{}
	for lid := range byLid {
		seenLid[lid] = true
	}
	unreadChild, unreadChildOf := unreadChildren(s)
	notEnumerated := func(parent string) bool { return r.unread[parent] || unreadChildOf[parent] }
	for _, e := range r.sortedActive() {
		_, inTemplate := r.res[e.LogicalID]
		parent, hasParent := parentOf(e.LogicalID, s.Parents)
		switch {
		case inTemplate && r.unread[e.LogicalID]:
			keep(e)
		case !inTemplate && e.Path == "" && !seenLid[e.LogicalID] &&
			(unreadChild[e.LogicalID] || (hasParent && notEnumerated(parent)) || !sel(e.LogicalID, "")):
			keep(e)
		}
	}
	// Stale-source entries of unread resources are unread too: keep them.
	if prev != nil {
		for _, e := range prev.Entries {
			if r.staleSrc[entryKey{e.LogicalID, e.Path}] && r.unread[e.LogicalID] {
				keep(e)
			}
		}
	}

	// Read resources and seen added children.
	lids := map[string]bool{}
	for lid := range r.res {
		if !r.unread[lid] {
			lids[lid] = true
		}
	}
	for lid := range seenLid {
		lids[lid] = true
	}
	for lid := range lids {
		x, inTemplate := r.res[lid]
		now := map[string]bool{}
		allRecorded := true
		for _, f := range byLid[lid] {
			now[f.Path] = true
			k := entryKey{lid, f.Path}
			if sel(lid, f.Path) {
				next.Entries = append(next.Entries, Entry{LogicalID: lid, ResourceType: f.ResourceType, Path: f.Path, Value: f.Actual})
				if h, ok := Fingerprint(f.ResourceType, f.Path, x.Declared); ok {
					next.SourceFingerprints[FingerprintKey(lid, f.Path)] = h
				}
				continue
			}
			if e, ok := r.active[k]; ok {
				keep(e)
				if !opt.Equal(e.Value, f.Actual) {
					allRecorded = false
				}
				continue
			}
			allRecorded = false
		}
		for _, e := range r.sortedActive() {
			if e.LogicalID == lid && !now[e.Path] && !sel(lid, e.Path) {
				keep(e)
			}
		}
		if !inTemplate {
			continue
		}
		if allRecorded || r.complete(lid) {
			next.Complete[lid] = true
		}
		for _, f := range s.Findings {
			if f.LogicalID == lid && f.Tier == drift.AtDefault && tracksObservedDefault(x.Type, f.Path) {
				next.ObservedDefaults = append(next.ObservedDefaults, PathRef{LogicalID: lid, ResourceType: x.Type, Path: f.Path})
			}
		}
	}

	// A resource not read this run keeps the completeness it had.
	for lid := range r.res {
		if r.unread[lid] && r.complete(lid) {
			next.Complete[lid] = true
		}
	}

	// Physical ids of resources with entries or complete; observed defaults
	// of unread resources carry forward.
	hasEntry := map[string]bool{}
	for _, e := range next.Entries {
		hasEntry[e.LogicalID] = true
	}
	for lid, x := range r.res {
		if !hasEntry[lid] && !next.Complete[lid] {
			continue
		}
		switch {
		case x.PhysicalID != "" && !r.unread[lid]:
			next.PhysicalIDs[lid] = x.PhysicalID
		case prev != nil && prev.PhysicalIDs[lid] != "" && r.void[lid] == "":
			next.PhysicalIDs[lid] = prev.PhysicalIDs[lid]
		}
	}
	if prev != nil {
		for _, o := range prev.ObservedDefaults {
			if _, ok := r.res[o.LogicalID]; ok && r.unread[o.LogicalID] && r.void[o.LogicalID] == "" {
				next.ObservedDefaults = append(next.ObservedDefaults, o)
			}
		}
	}

	// Parents whose child inventory was recorded complete.
	recorded := map[entryKey]any{}
	for _, e := range next.Entries {
		recorded[entryKey{e.LogicalID, e.Path}] = e.Value
	}
	for _, p := range s.Scanned {
		if unreadChildOf[p.LogicalID] {
			continue // a child could not be read: the marker stands as it was
		}
		ok := true
		for _, f := range s.Findings {
			if f.Tier != drift.Added {
				continue
			}
			if parent, ok := parentOf(f.LogicalID, s.Parents); !ok || parent != p.LogicalID {
				continue
			}
			v, has := recorded[entryKey{EntryID(f), ""}]
			if !has || !opt.Equal(v, f.Actual) {
				ok = false
				break
			}
		}
		if ok {
			next.EnumeratedParents = append(next.EnumeratedParents, p)
		}
	}
	// Parents whose enumeration did not complete this run (not read, a
	// listing failed, a child not read) keep their marker.
	if prev != nil {
		for _, p := range prev.EnumeratedParents {
			x, inTemplate := r.res[p.LogicalID]
			if !inTemplate || r.void[p.LogicalID] != "" || (p.ResourceType != "" && p.ResourceType != x.Type) {
				continue
			}
			if notEnumerated(p.LogicalID) {
				next.EnumeratedParents = append(next.EnumeratedParents, p)
			}
		}
	}
	next.Watched = r.recordWatched(s, sel)
	next.sortAll()
	next.Entries = dedupe(next.Entries)
	return next
}

// unreadChildren lists the added children of s whose full read failed (no
// live model) by entry id, and their parents.
func unreadChildren(s Snapshot) (children, parents map[string]bool) {
	children, parents = map[string]bool{}, map[string]bool{}
	for _, f := range s.Findings {
		if f.Tier != drift.Added || recordable(f) {
			continue
		}
		children[EntryID(f)] = true
		if p, ok := parentOf(f.LogicalID, s.Parents); ok {
			parents[p] = true
		}
	}
	return children, parents
}

// dedupe keeps the first entry of each (logical id, path) of sorted entries.
func dedupe(es []Entry) []Entry {
	out := es[:0]
	for i, e := range es {
		if i > 0 && e.LogicalID == es[i-1].LogicalID && e.Path == es[i-1].Path {
			continue
		}
		out = append(out, e)
	}
	return out
}
