package baseline

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// The notes Apply puts on the findings it changes or makes.
const (
	NoteChanged         = "changed since record"
	NoteAppeared        = "appeared since record"
	NoteRemoved         = "baseline value removed since record"
	NoteDefaultDeleted  = "observed default deleted since record"
	NoteChangedToFolded = "changed since record (now at a default or generated value)"
)

// Resource is one resource of the current deployed template.
type Resource struct {
	LogicalID     string
	Type          string
	ConstructPath string
	// PhysicalID is the live physical id; empty when unknown.
	PhysicalID string
	// Declared holds the resolved declared properties (drift.Unknown where
	// unresolved). Its top-level keys are the currently declared keys.
	Declared map[string]any
}

// Input is one stack's run as Apply sees it.
type Input struct {
	// Findings are the classifier's findings for the stack.
	Findings []drift.Finding
	// Resources lists every resource of the current deployed template.
	Resources []Resource
	// Parents maps an added child's logical id to its declared parent's.
	// A child missing here whose logical id is "<parent>/<…>" (the scan
	// package's synthesized form) has the part before the first "/".
	Parents map[string]string
	// TemplateHash is TemplateHash of the deployed template; empty skips
	// the stale-baseline note (as under --pre-deploy).
	TemplateHash string
}

// Result is Apply's output.
type Result struct {
	// Findings are the reconciled findings: suppressed ones removed,
	// drift and Unrecorded set, removals and deleted observed defaults added.
	Findings []drift.Finding
	// Notes are one-line nudges for stderr (load warnings included).
	Notes []string
}

// run is the per-stack state Apply and Record share.
type run struct {
	b        *Baseline
	opt      Options
	res      map[string]Resource
	unread   map[string]bool // skipped or deleted this run
	readGaps map[string][]string
	// void marks logical ids whose entries and completeness are void
	// (replaced by a deploy, or re-typed).
	void     map[string]string // lid -> reason
	staleSrc map[entryKey]bool // entries voided by a changed declared source
	active   map[entryKey]Entry
	watched  map[string][]Entry // lid -> watched leaves (not void)
}

func newRun(b *Baseline, findings []drift.Finding, resources []Resource, opt Options) *run {
	r := &run{b: b, opt: opt, res: map[string]Resource{}, unread: map[string]bool{}, readGaps: map[string][]string{},
		void: map[string]string{}, staleSrc: map[entryKey]bool{}, active: map[entryKey]Entry{},
		watched: map[string][]Entry{}}
	for _, x := range resources {
		r.res[x.LogicalID] = x
	}
	for _, f := range findings {
		switch f.Tier {
		case drift.Skipped, drift.NothingToRead, drift.Deleted:
			r.unread[f.LogicalID] = true
		case drift.ReadGap:
			r.readGaps[f.LogicalID] = append(r.readGaps[f.LogicalID], f.Path)
		}
	}
	if b == nil {
		return r
	}
	for lid, was := range b.PhysicalIDs {
		if x, ok := r.res[lid]; ok && was != "" && x.PhysicalID != "" && was != x.PhysicalID {
			r.void[lid] = fmt.Sprintf("physical id %s → %s", was, x.PhysicalID)
		}
	}
	for _, es := range [][]Entry{b.Entries, b.Watched} {
		for _, e := range es {
			if x, ok := r.res[e.LogicalID]; ok && x.Type != e.ResourceType && r.void[e.LogicalID] == "" {
				r.void[e.LogicalID] = fmt.Sprintf("type %s → %s", e.ResourceType, x.Type)
			}
		}
	}
	for _, e := range b.Watched {
		if r.void[e.LogicalID] == "" {
			r.watched[e.LogicalID] = append(r.watched[e.LogicalID], e)
		}
	}
	for _, e := range b.Entries {
		if r.void[e.LogicalID] != "" {
			continue
		}
		k := entryKey{e.LogicalID, e.Path}
		if was, ok := b.SourceFingerprints[FingerprintKey(e.LogicalID, e.Path)]; ok {
			if x, ok := r.res[e.LogicalID]; ok && !r.unread[e.LogicalID] {
				if now, ok := Fingerprint(e.ResourceType, e.Path, x.Declared); ok && now != was {
					r.staleSrc[k] = true
					continue
				}
			}
		}
		r.active[k] = e
	}
	return r
}

// complete reports whether the record fully covered lid and that still holds.
func (r *run) complete(lid string) bool {
	return r.b != nil && r.b.Complete[lid] && r.void[lid] == ""
}

// EntryID is the logical id a finding's value is recorded under: the
// finding's logical id, except for an added resource, whose synthesized
// logical id may be shared by several children of one parent; it gets
// "#<physical id>" appended.
func EntryID(f drift.Finding) string {
	if f.Tier == drift.Added && f.PhysicalID != "" && !strings.HasSuffix(f.LogicalID, "#"+f.PhysicalID) {
		return f.LogicalID + "#" + f.PhysicalID
	}
	return f.LogicalID
}

// parentOf returns an added child's declared parent.
func parentOf(childLogicalID string, parents map[string]string) (string, bool) {
	if p, ok := parents[childLogicalID]; ok {
		return p, true
	}
	if p, _, ok := strings.Cut(childLogicalID, "/"); ok && p != "" {
		return p, true
	}
	return "", false
}

func (r *run) parentEnumerated(lid string, parents map[string]string) bool {
	if r.b == nil {
		return false
	}
	p, ok := parentOf(lid, parents)
	if !ok {
		return false
	}
	for _, e := range r.b.EnumeratedParents {
		if e.LogicalID == p && r.void[p] == "" {
			if x, ok := r.res[p]; !ok || e.ResourceType == "" || e.ResourceType == x.Type {
				return true
			}
		}
	}
	return false
}

// lookupResult says what lookup found.
type lookupResult uint8

const (
	noEntry     lookupResult = iota // no entry at the path or above it
	found                           // the recorded value is known
	absentBelow                     // an ancestor entry lacks this value
	unknowable                      // an ancestor entry cannot be followed
)

// lookup finds the recorded value for (lid, path): the exact entry, or the
// matching part of an entry recorded at an ancestor path. at is the entry
// that was consulted.
func (r *run) lookup(lid, path string) (v any, at entryKey, res lookupResult) {
	k := entryKey{lid, path}
	if e, ok := r.active[k]; ok {
		return e.Value, k, found
	}
	for p := path; ; {
		i := strings.LastIndexAny(p, ".[")
		if i <= 0 {
			return nil, entryKey{}, noEntry
		}
		p = p[:i]
		if e, ok := r.active[entryKey{lid, p}]; ok {
			v, res := descend(e.Value, path[len(p):])
			return v, entryKey{lid, p}, res
		}
	}
}

// identityFields are the fields an identity-keyed array element ([id]) is
// matched on.
func identityFields() []string {
	return []string{"Key", "Id", "Name", "AttributeName", "IndexName", "PolicyName"}
}

// descend follows a path remainder (".a.b.0", "[id].c") through a value.
func descend(v any, rest string) (any, lookupResult) {
	for rest != "" {
		var seg string
		switch rest[0] {
		case '.':
			rest = rest[1:]
			i := strings.IndexAny(rest, ".[")
			if i < 0 {
				i = len(rest)
			}
			seg, rest = rest[:i], rest[i:]
			switch t := v.(type) {
			case map[string]any:
				e, ok := t[seg]
				if !ok {
					return nil, absentBelow
				}
				v = e
			case []any:
				n, err := strconv.Atoi(seg)
				if err != nil || strconv.Itoa(n) != seg || n < 0 {
					return nil, unknowable
				}
				if n >= len(t) {
					return nil, absentBelow
				}
				v = t[n]
			default:
				return nil, unknowable
			}
		case '[':
			j := strings.IndexByte(rest, ']')
			if j < 0 {
				return nil, unknowable
			}
			seg, rest = rest[1:j], rest[j+1:]
			arr, ok := v.([]any)
			if !ok {
				return nil, unknowable
			}
			var hits []any
			for _, el := range arr {
				obj, ok := el.(map[string]any)
				if !ok {
					return nil, unknowable
				}
				for _, f := range identityFields() {
					if id, ok := obj[f].(string); ok && id == seg {
						hits = append(hits, el)
						break
					}
				}
			}
			switch len(hits) {
			case 0:
				return nil, absentBelow
			case 1:
				v = hits[0]
				if rest == "" {
					// A key/value element is its value (keyvalue.go).
					if kv, ok := elementValue(v, seg); ok {
						v = kv
					}
				}
			default:
				return nil, unknowable
			}
		default:
			return nil, unknowable
		}
	}
	return v, found
}

func (r *run) readGapped(lid, path string) bool {
	for _, g := range r.readGaps[lid] {
		if within(path, g) || within(g, path) {
			return true
		}
	}
	return false
}

// Apply reconciles one stack's findings against its baseline (nil: no
// baseline, as on a first run or under --show-all) by the rules in the
// package documentation. It is pure: nothing is read or written.
func Apply(b *Baseline, in Input, opt Options) Result {
	r := newRun(b, in.Findings, in.Resources, opt)
	var out Result
	if b != nil {
		out.Notes = append(out.Notes, b.Warnings...)
	}
	matched := map[entryKey]bool{}
	watchMatched := map[entryKey]bool{}
	undeclaredSide := map[string][]string{}
	for _, f := range in.Findings {
		switch f.Tier {
		case drift.Undeclared, drift.Added, drift.AtDefault, drift.Generated:
			undeclaredSide[f.LogicalID] = append(undeclaredSide[f.LogicalID], f.Path)
		default:
			out.Findings = append(out.Findings, f)
			continue
		}
		id := EntryID(f)
		k := entryKey{id, f.Path}
		if r.staleSrc[k] {
			if f.Tier == drift.Undeclared {
				continue // no tier to fold into: suppressed, with the nudge
			}
			out.Findings = append(out.Findings, f)
			continue
		}
		rec, at, res := r.lookup(id, f.Path)
		if at.lid != "" {
			matched[at] = true
		}
		ok := res == found
		if ok && f.Tier == drift.Added && f.Actual == nil {
			// A recorded child whose read failed: present, its value
			// unknown. A coverage gap, never "changed since record".
			f.Tier, f.Reason, f.Unrecorded = drift.Skipped, "added child not read: "+f.Note, false
			out.Findings = append(out.Findings, f)
			continue
		}
		folded := f.Tier == drift.AtDefault || f.Tier == drift.Generated
		switch {
		case ok && opt.Equal(rec, f.Actual):
			if folded {
				out.Findings = append(out.Findings, f)
			}
		case ok:
			f.Desired = rec
			f.Unrecorded = false
			if folded {
				f.Tier = drift.Undeclared
				f.Note = NoteChangedToFolded
			} else {
				f.Note = NoteChanged
			}
			out.Findings = append(out.Findings, f)
		case folded:
			if res == noEntry && f.Actual != nil {
				if _, changed, desired := r.watchCompare(id, f.Path, f.Actual, watchMatched); changed {
					f = watchedChanged(f, desired)
				}
			}
			out.Findings = append(out.Findings, f)
		case f.Tier == drift.Undeclared && res == noEntry && f.Actual != nil && r.watchedAt(id, f.Path):
			// A watched value now reported undeclared: equal stays quiet,
			// different is "changed since record".
			if _, changed, desired := r.watchCompare(id, f.Path, f.Actual, watchMatched); changed {
				out.Findings = append(out.Findings, watchedChanged(f, desired))
			}
		case f.Tier == drift.Undeclared && res == absentBelow,
			f.Tier == drift.Undeclared && r.complete(f.LogicalID),
			f.Tier == drift.Added && r.parentEnumerated(f.LogicalID, in.Parents):
			f.Note = NoteAppeared
			f.Unrecorded = false
			out.Findings = append(out.Findings, f)
		default:
			f.Unrecorded = true
			out.Findings = append(out.Findings, f)
		}
	}
	if b == nil {
		return out
	}
	out.Findings = append(out.Findings, r.removals(matched, in.Parents, &out.Notes)...)
	out.Findings = append(out.Findings, r.deletedDefaults(undeclaredSide)...)
	out.Findings = append(out.Findings, r.watchedGone(in.Findings, watchMatched)...)
	out.Notes = append(out.Notes, r.foldNotes()...)
	if in.TemplateHash != "" && b.TemplateHash != "" && in.TemplateHash != b.TemplateHash {
		out.Notes = append(out.Notes, "the deployed template changed since record — the recorded set may be stale; consider re-running realdrift record")
	}
	return out
}

// removals reports recorded entries no finding matched.
// A recorded added child whose parent was not read this run (its read
// or its child listing failed) is not "no longer present": nobody looked.
func (r *run) removals(matched map[entryKey]bool, parents map[string]string, notes *[]string) []drift.Finding {
	var out []drift.Finding
	var goneFromTemplate, goneAdded int
	unlisted := map[string]int{}
	for _, e := range r.sortedActive() {
		k := entryKey{e.LogicalID, e.Path}
		if matched[k] || r.coveredBelow(k, matched) {
			continue
		}
		x, inTemplate := r.res[e.LogicalID]
		parent, hasParent := parentOf(e.LogicalID, parents)
		switch {
		case e.Path == "" && !inTemplate && hasParent && r.unread[parent]:
			unlisted[parent]++
		case e.Path == "" && !inTemplate:
			goneAdded++
		case !inTemplate:
			goneFromTemplate++
		case r.unread[e.LogicalID], r.readGapped(e.LogicalID, e.Path):
			// unread, not removed
		case declaredKey(x.Declared, topKey(e.Path)):
			*notes = append(*notes, fmt.Sprintf("%s.%s is now declared in the template — re-run realdrift record", e.LogicalID, e.Path))
		default:
			out = append(out, drift.Finding{
				Tier: drift.Undeclared, LogicalID: e.LogicalID, ResourceType: x.Type, PhysicalID: x.PhysicalID,
				ConstructPath: x.ConstructPath, Path: e.Path, Desired: e.Value, Note: NoteRemoved,
			})
		}
	}
	if goneFromTemplate > 0 {
		*notes = append(*notes, fmt.Sprintf("%d baseline %s belong to resources no longer in the template — re-run realdrift record", goneFromTemplate, plural(goneFromTemplate, "entry", "entries")))
	}
	keys := make([]string, 0, len(unlisted))
	for p := range unlisted {
		keys = append(keys, p)
	}
	sort.Strings(keys)
	for _, p := range keys {
		n := unlisted[p]
		*notes = append(*notes, fmt.Sprintf("%s was not read (its child listing or read failed): its %d recorded added %s kept, not checked this run", p, n, plural(n, "resource is", "resources are")))
	}
	if goneAdded > 0 {
		*notes = append(*notes, fmt.Sprintf("%d recorded added %s no longer present — re-run realdrift record", goneAdded, plural(goneAdded, "resource is", "resources are")))
	}
	return out
}

// coveredBelow reports whether a finding matched a path below entry k (the
// classifier now reports that value at a finer grain).
func (r *run) coveredBelow(k entryKey, matched map[entryKey]bool) bool {
	for m := range matched {
		if m.lid == k.lid && m.path != k.path && within(m.path, k.path) {
			return true
		}
	}
	return false
}

// deletedDefaults synthesizes findings for observed defaults that vanished.
func (r *run) deletedDefaults(undeclaredSide map[string][]string) []drift.Finding {
	var out []drift.Finding
	for _, o := range r.b.ObservedDefaults {
		x, ok := r.res[o.LogicalID]
		if !ok || r.unread[o.LogicalID] || r.void[o.LogicalID] != "" || (o.ResourceType != "" && o.ResourceType != x.Type) ||
			r.readGapped(o.LogicalID, o.Path) || declaredKey(x.Declared, topKey(o.Path)) {
			continue
		}
		seen := false
		for _, p := range undeclaredSide[o.LogicalID] {
			if within(p, o.Path) || within(o.Path, p) {
				seen = true
				break
			}
		}
		if seen {
			continue
		}
		f := drift.Finding{Tier: drift.Undeclared, LogicalID: o.LogicalID, ResourceType: x.Type, PhysicalID: x.PhysicalID,
			ConstructPath: x.ConstructPath, Path: o.Path, Note: NoteDefaultDeleted}
		if r.opt.Default != nil {
			if v, ok := r.opt.Default(x.Type, o.Path); ok {
				f.Desired = v
			}
		}
		out = append(out, f)
	}
	return out
}

// foldNotes are the lifecycle nudges for replaced resources and redeployed
// sources.
func (r *run) foldNotes() []string {
	var notes []string
	var lids []string
	for lid := range r.void {
		lids = append(lids, lid)
	}
	sort.Strings(lids)
	for _, lid := range lids {
		n := 0
		for _, e := range r.b.Entries {
			if e.LogicalID == lid {
				n++
			}
		}
		if n == 0 && !r.b.Complete[lid] {
			continue
		}
		notes = append(notes, fmt.Sprintf("%s was replaced by a deploy since record (%s): its %d baseline %s void — re-run realdrift record",
			lid, r.void[lid], n, plural(n, "entry is", "entries are")))
	}
	var keys []entryKey
	for k := range r.staleSrc {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].lid+"\x00"+keys[i].path < keys[j].lid+"\x00"+keys[j].path })
	for _, k := range keys {
		notes = append(notes, fmt.Sprintf("%s.%s: declared code was redeployed via CloudFormation since record — re-run realdrift record to watch the new code", k.lid, k.path))
	}
	return notes
}

func (r *run) sortedActive() []Entry {
	out := make([]Entry, 0, len(r.active))
	for _, e := range r.active {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].LogicalID != out[j].LogicalID {
			return out[i].LogicalID < out[j].LogicalID
		}
		return out[i].Path < out[j].Path
	})
	return out
}

func declaredKey(declared map[string]any, key string) bool {
	_, ok := declared[key]
	return ok
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
