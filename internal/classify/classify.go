package classify

import (
	"sort"
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/normalize"
	"github.com/realdrift/realdrift/internal/schema"
)

// Subject is the resource being classified, as declared in its template.
type Subject struct {
	Ref drift.ResourceRef
	// Declared holds the resolved template properties; drift.Unknown marks
	// what the resolver could not know.
	Declared map[string]any
	// SiblingPolicyNames are the PolicyNames of the stack's AWS::IAM::Policy
	// resources attached to this role (roles only). A nil slice means none;
	// an entry that is drift.Unknown-like ("") makes the filter fail open.
	SiblingPolicyNames []string
}

// Resource classifies one resource: it compares the declared properties with
// the live model and sorts every difference into a tier. It is a pure
// function: no I/O, no clock, and neither input is modified.
func Resource(s Subject, live map[string]any, facts *schema.Facts, opts Options) []drift.Finding {
	if facts == nil {
		facts = &schema.Facts{}
	}
	r := newRun(s, live, facts, opts)
	r.classify()
	r.withholdSecrets(live)
	sort.Slice(r.out, func(i, j int) bool {
		if r.out[i].Tier != r.out[j].Tier {
			return r.out[i].Tier < r.out[j].Tier
		}
		return r.out[i].Path < r.out[j].Path
	})
	return r.out
}

// run is the state of one classification.
type run struct {
	s     Subject
	facts *schema.Facts
	opts  Options
	tf    *typeFacts
	decl  map[string]any
	live  map[string]any
	// writeOnlyTop are the declared top-level write-only properties.
	writeOnlyTop map[string]bool
	stackName    string
	// subsetDepth > 0 inside a matched element of a subset identity set.
	subsetDepth int
	out         []drift.Finding
}

func newRun(s Subject, liveRaw map[string]any, facts *schema.Facts, opts Options) *run {
	r := &run{s: s, facts: facts, opts: opts, tf: factsFor(s.Ref.Type), out: make([]drift.Finding, 0, 8)}
	r.stackName = stackName(s, liveRaw, opts)
	if s.Declared == nil {
		s.Declared = map[string]any{}
	}
	// One traversal per side: managed-field strip, system tags, null
	// items, JSON text and policy documents, id and identity-keyed order.
	live := normalize.Pass{Live: true, StackTags: opts.StackTags, KeepStackTags: s.Declared,
		FreeForm: facts.FreeFormMapPaths, KeepManaged: s.Declared, Skip: facts.ReadOnly}
	r.live = live.Copy(liveRaw)
	decl := normalize.Pass{}
	r.decl = decl.Copy(s.Declared)
	if len(r.tf.orderedKeys) > 0 {
		r.orderChanges(s.Declared, liveRaw)
	}
	r.prepare()
	return r
}

// prepare runs the targeted pipeline steps over both sides. Pass.Copy
// shares unchanged subtrees with the inputs, so every in-place step below
// the top level first takes its path (normalize.Own).
func (r *run) prepare() {
	f := r.facts
	// readOnly / writeOnly strip (live); nested write-only strip (declared).
	stripOwned(r.live, f.ReadOnly)
	stripOwned(r.live, f.ReadOnlyPaths)
	r.writeOnlyTop = map[string]bool{}
	for _, p := range f.WriteOnly {
		r.writeOnlyTop[p] = true
	}
	var nestedWO []string
	for _, p := range f.WriteOnlyPaths {
		if strings.Contains(p, ".") {
			nestedWO = append(nestedWO, p)
		} else {
			r.writeOnlyTop[p] = true
		}
	}
	// Write-only values are never read back: a live copy is not compared.
	stripOwned(r.live, f.WriteOnly)
	stripOwned(r.live, nestedWO)
	stripOwned(r.decl, nestedWO)
	stripOwned(r.decl, f.ReadOnlyPaths)
	stripOwned(r.live, r.tf.stripLive)

	// The stack's propagated tags on the declared tag property, except
	// keys the template declares.
	for _, tp := range r.tagPaths() {
		if v, ok := getPath(r.live, tp); ok {
			if i := strings.LastIndexByte(tp, '.'); i > 0 {
				normalize.Own(r.live, tp[:i])
			}
			setPath(r.live, tp, normalize.StripSystemTags(v, r.opts.StackTags, declaredTagKeys(getPathOr(r.decl, tp))))
		}
	}

	// CloudFront origin access identities written as S3 canonical users.
	normalize.OAIPrincipals(r.live, r.opts.OAICanonicalIDs)
	normalize.OAIPrincipals(r.decl, r.opts.OAICanonicalIDs)

	// Security-group rules in EC2's read-back form on both sides (protocol
	// names for numbers, no port range on an all-protocols rule).
	r.normalizeSGRules()
	// List entries owned by sibling resources (security-group rules,
	// topic subscriptions).
	r.dropSiblingEntries()

	// Sibling IAM policies.
	if r.tf.siblingPolicies {
		normalize.FilterSiblingPolicies(r.live, r.s.SiblingPolicyNames)
	}

	// Schema-unordered arrays.
	for _, paths := range [][]string{r.facts.UnorderedScalarPaths, r.tf.unorderedScalar, r.facts.UnorderedObjectArrayPaths, r.tf.unorderedObject} {
		for _, p := range paths {
			normalize.Own(r.live, p)
			normalize.Own(r.decl, p)
			normalize.SortUnordered(r.live, []string{p}, nil)
			normalize.SortUnordered(r.decl, []string{p}, nil)
		}
	}
}

// stripOwned removes schema paths from a model whose nested containers may
// be shared: top-level keys are deleted directly, deeper paths are owned up
// to their parent first.
func stripOwned(m map[string]any, paths []string) {
	for _, p := range paths {
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			delete(m, p)
			continue
		}
		normalize.Own(m, p[:i])
		normalize.StripPaths(m, []string{p})
	}
}

func (r *run) tagPaths() []string {
	if r.facts.TagProperty != "" {
		return []string{r.facts.TagProperty}
	}
	if len(r.tf.tagPaths) > 0 {
		return r.tf.tagPaths
	}
	return []string{"Tags"}
}

func (r *run) classify() {
	for _, k := range sortedKeys(r.decl) {
		r.declaredTop(k, r.decl[k])
	}
	for _, k := range sortedKeys(r.live) {
		if _, ok := r.decl[k]; ok {
			continue
		}
		if r.tf.dropTop[k] {
			continue
		}
		if re, ok := r.tf.misEcho[k]; ok {
			if s, isStr := r.live[k].(string); isStr && re.MatchString(s) {
				continue
			}
		}
		if alt, ok := r.tf.altRepresentation[k]; ok {
			if _, set := r.decl[alt]; set {
				continue
			}
		}
		r.undeclared(k, r.live[k], false)
	}
}

// declaredTop handles one declared top-level property.
func (r *run) declaredTop(k string, d any) {
	l, present := r.live[k]
	if !present && r.writeOnlyTop[k] {
		r.emit(drift.Finding{Tier: drift.ReadGap, Path: k, Note: noteWriteOnly, WriteOnly: true})
		return
	}
	if drift.ContainsUnknown(d) {
		dm, dok := d.(map[string]any)
		lm, lok := l.(map[string]any)
		if present && dok && lok && drift.ContainsSecret(d) {
			// An object holding a secret is compared key by key: each
			// unknowable part is unresolved at its own path, every other
			// key is compared, so a changed sibling is still drift.
			r.compareMap(k, dm, lm, false)
			return
		}
		r.emit(drift.Finding{Tier: drift.Unresolved, Path: k})
		if present {
			// The declared value cannot be compared, but live sub-keys the
			// template never set are still inventory.
			r.compare(k, d, l, true)
		}
		return
	}
	if !present {
		r.absent(k, d)
		return
	}
	if normalize.TriviallyEmptyCollection(d) && !normalize.TriviallyEmpty(l) {
		// Declared empty: the template sets nothing, so what live holds
		// is classified like an undeclared value, unless it is the
		// value the service materialises for "empty".
		if m, ok := r.tf.emptyMeans[k]; ok && normalize.Canonical(l) == m {
			return
		}
		r.undeclared(k, l, false)
		return
	}
	if k == "Actions" && r.bgGoverned(k, d, l) {
		return
	}
	r.compare(k, d, l, false)
}

// absent handles a declared top-level property the live read does not have.
func (r *run) absent(k string, d any) {
	switch {
	case r.writeOnlyTop[k]:
		r.emit(drift.Finding{Tier: drift.ReadGap, Path: k, Note: noteWriteOnly, WriteOnly: true})
	case isCollection(d) && !normalize.TriviallyEmptyCollection(d) && !r.tf.readGapCollections[k]:
		r.emit(drift.Finding{Tier: drift.Declared, Path: k, Desired: redact(d)})
	case isCollection(d):
		if r.tf.readGapCollections[k] {
			r.emit(drift.Finding{Tier: drift.ReadGap, Path: k, Note: noteNotReturned})
		}
	default:
		r.emit(drift.Finding{Tier: drift.ReadGap, Path: k, Note: noteNotReturned})
	}
}

const (
	noteWriteOnly   = "write-only — cannot be read back"
	noteNotReturned = "declared but not returned by live read"
	// noteMaskedNonASCII: the read returns the value with its non-ASCII
	// characters written as '?'.
	noteMaskedNonASCII = "the live read masks non-ASCII characters — cannot be compared"
)

func isCollection(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// compare walks a declared value against its live value at report path rp.
// With quiet set, only live-only sub-keys are reported (the declared side is
// unresolved somewhere inside).
func (r *run) compare(rp string, d, l any, quiet bool) {
	if drift.IsUnknown(l) {
		// A live value withheld from storage (a secret's plaintext) is
		// never compared.
		if !quiet {
			r.emit(drift.Finding{Tier: drift.Unresolved, Path: rp})
		}
		return
	}
	if r.same(rp, d, l) {
		// Equal as values; live may still carry sub-keys the template
		// never set (a declared object is a subset of its live object).
		r.nestedExtras(rp, d, l)
		return
	}
	switch dv := d.(type) {
	case map[string]any:
		lv, ok := l.(map[string]any)
		if !ok {
			if s, isStr := l.(string); isStr && normalize.JSONStringEqual(dv, s) {
				return
			}
			r.declared(rp, d, l, quiet)
			return
		}
		if r.isFreeForm(rp) {
			r.compareMap(rp, dv, lv, quiet)
			return
		}
		r.compareMap(rp, dv, lv, quiet)
	case []any:
		lv, ok := l.([]any)
		if !ok {
			r.declared(rp, d, l, quiet)
			return
		}
		r.compareArray(rp, dv, lv, quiet)
	default:
		if drift.ContainsUnknown(d) {
			return
		}
		if s, ok := d.(string); ok && isCollection(l) {
			if pd := mustParse(s); pd != nil && normalize.StringlyEqualDeep(pd, l) {
				return
			}
		}
		r.declared(rp, d, l, quiet)
	}
}

func (r *run) compareMap(rp string, d, l map[string]any, quiet bool) {
	if r.tf.caseInsensitiveKeys[schemaPath(rp)] {
		l = recaseKeys(d, l)
	}
	for _, k := range sortedKeys(d) {
		sub := rp + "." + k
		lv, ok := l[k]
		if !ok {
			if alt := r.altOf(k, l); alt != "" {
				// Live spells the declared key its alternate way.
				r.compare(sub, d[k], l[alt], quiet)
				continue
			}
			if quiet {
				continue
			}
			if drift.ContainsUnknown(d[k]) {
				// Inside an object compared key by key (it holds a
				// secret): the unknowable part stays unresolved.
				r.emit(drift.Finding{Tier: drift.Unresolved, Path: sub})
				continue
			}
			if isCollection(d[k]) && !normalize.TriviallyEmptyCollection(d[k]) {
				r.emit(drift.Finding{Tier: drift.Declared, Path: sub, Desired: redact(d[k])})
			}
			continue
		}
		if drift.ContainsUnknown(d[k]) {
			r.unknownPart(sub, d[k], lv, quiet)
			continue
		}
		r.compare(sub, d[k], lv, quiet)
	}
	for _, k := range sortedKeys(l) {
		if _, ok := d[k]; ok {
			continue
		}
		if alt, ok := r.tf.altRepresentation[k]; ok {
			if _, set := d[alt]; set {
				continue
			}
		}
		r.undeclared(rp+"."+k, l[k], true)
	}
}

// unknownPart compares a declared value holding an Unknown. Quiet (the
// whole property is unresolved) it reports only live-only sub-keys. Loud
// (inside an object holding a secret, compared key by key) an object is
// compared key by key in turn; anything else is unresolved at its own path.
func (r *run) unknownPart(rp string, d, l any, quiet bool) {
	dm, dok := d.(map[string]any)
	lm, lok := l.(map[string]any)
	if !quiet && dok && lok {
		r.compareMap(rp, dm, lm, false)
		return
	}
	if !quiet {
		r.emit(drift.Finding{Tier: drift.Unresolved, Path: rp})
	}
	r.compare(rp, d, l, true)
}

func (r *run) compareArray(rp string, d, l []any, quiet bool) {
	if id := r.identity(rp, d, l); id != nil {
		r.compareKeyed(rp, d, l, id, quiet)
		return
	}
	if r.attachmentSet(rp, d) {
		r.compareScalarSet(rp, d, l, quiet)
		return
	}
	if allObjects(d) && allObjects(l) {
		// An identity-less object set: AWS returns it in its own order and
		// fills default keys into each element, so it is compared as a
		// set of declared subsets and not descended (seed 002 §6). Per-type
		// descend paths are walked element by element instead.
		if r.tf.descend[schemaPath(rp)] && len(d) == len(l) {
			perm := r.align(rp, d, l)
			for i := range d {
				j := i
				if perm != nil {
					j = perm[i]
				}
				from := len(r.out)
				ep := rp + "." + strconv.Itoa(i)
				r.compare(ep, d[i], l[j], quiet)
				r.atIndex(from, ep, rp, i, d)
			}
			return
		}
		if len(d) == len(l) && r.align(rp, d, l) != nil {
			return
		}
	}
	if quiet {
		return
	}
	r.declared(rp, d, l, quiet)
}

// align maps each declared element to a distinct live element that contains
// it, or returns nil when some declared element has no such partner. Arrays
// whose order is significant are never re-aligned.
func (r *run) align(rp string, d, l []any) []int {
	if r.orderSignificant(rp, d) || len(d) > maxAlign {
		return nil
	}
	perm := make([]int, len(d))
	used := make([]bool, len(l))
	for i := range d {
		perm[i] = -1
		ep := rp + "." + strconv.Itoa(i)
		// Prefer the same position when it matches.
		if i < len(l) && !used[i] && r.contains(ep, d[i], l[i]) {
			perm[i], used[i] = i, true
			continue
		}
		for j := range l {
			if !used[j] && r.contains(ep, d[i], l[j]) {
				perm[i], used[j] = j, true
				break
			}
		}
		if perm[i] < 0 {
			return nil
		}
	}
	return perm
}

const maxAlign = 64

// contains reports whether the declared value d is contained in the live
// value l: every declared key present and equal through the folds, arrays
// equal as multisets unless their order is significant. It is the
// alignment test for unordered object arrays and the multiset test for
// scalar sets.
func (r *run) contains(rp string, d, l any) bool {
	if drift.ContainsUnknown(d) {
		return true
	}
	switch dv := d.(type) {
	case map[string]any:
		lv, ok := l.(map[string]any)
		if !ok {
			if s, isStr := l.(string); isStr {
				return normalize.JSONStringEqual(dv, s)
			}
			return false
		}
		if r.tf.caseInsensitiveKeys[schemaPath(rp)] {
			lv = recaseKeys(dv, lv)
		}
		for k, e := range dv {
			le, ok := lv[k]
			if !ok {
				if normalize.TriviallyEmptyCollection(e) {
					continue
				}
				return false
			}
			if !r.contains(rp+"."+k, e, le) {
				return false
			}
		}
		return true
	case []any:
		lv, ok := l.([]any)
		if !ok || len(dv) != len(lv) {
			return false
		}
		if r.orderSignificant(rp, dv) {
			for i := range dv {
				if !r.contains(rp+"."+strconv.Itoa(i), dv[i], lv[i]) {
					return false
				}
			}
			return true
		}
		used := make([]bool, len(lv))
		for i := range dv {
			found := false
			for j := range lv {
				if !used[j] && r.contains(rp+"."+strconv.Itoa(i), dv[i], lv[j]) {
					used[j], found = true, true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	return r.sameScalar(rp, d, l)
}

// orderSignificant reports whether an array's order carries meaning: a
// per-type ordered path, or a list of Lambda layer versions (later layers
// overlay earlier ones).
func (r *run) orderSignificant(rp string, a []any) bool {
	if r.tf.ordered[schemaPath(rp)] {
		return true
	}
	for _, e := range a {
		if s, ok := e.(string); ok && strings.Contains(s, ":layer:") {
			return true
		}
	}
	return false
}

// recaseKeys returns live with each key that equals a declared key up to
// case spelled as declared (a read handler that re-cases a free-form map's
// keys); values are untouched, so a changed value still differs.
func recaseKeys(d, l map[string]any) map[string]any {
	out := make(map[string]any, len(l))
	for k, v := range l {
		if _, ok := d[k]; !ok {
			for dk := range d {
				if strings.EqualFold(dk, k) {
					k = dk
					break
				}
			}
		}
		out[k] = v
	}
	return out
}

// altOf returns the live key that re-represents declared key k, if any.
func (r *run) altOf(k string, l map[string]any) string {
	for lk, dk := range r.tf.altRepresentation {
		if dk == k {
			if _, ok := l[lk]; ok {
				return lk
			}
		}
	}
	return ""
}

// withIdentity returns the declared element with its identity fields taken
// from the live element it was matched to (they are equal up to the set's
// key mapping).
func withIdentity(d, l any, id *identity) any {
	if id.match == nil {
		return d
	}
	dm, ok1 := d.(map[string]any)
	lm, ok2 := l.(map[string]any)
	if !ok1 || !ok2 {
		return d
	}
	out := make(map[string]any, len(dm))
	for k, v := range dm {
		out[k] = v
	}
	for _, f := range id.fields {
		if v, ok := lm[f]; ok {
			out[f] = v
		}
	}
	return out
}

func allObjects(a []any) bool {
	for _, e := range a {
		if _, ok := e.(map[string]any); !ok {
			return false
		}
	}
	return len(a) > 0
}

// compareKeyed aligns two identity-keyed object arrays by identity value.
func (r *run) compareKeyed(rp string, d, l []any, id *identity, quiet bool) {
	match := func(k string) string { return k }
	if id.match != nil {
		match = id.match
	}
	lm := map[string]any{}
	lkey := map[string]string{}
	var lorder []string
	for _, e := range l {
		k := id.key(e)
		lm[match(k)] = e
		lkey[match(k)] = k
		lorder = append(lorder, k)
	}
	dm := map[string]bool{}
	setChanged := false
	start := len(r.out)
	for i, e := range d {
		k := id.key(e)
		dm[match(k)] = true
		sub := rp + "[" + k + "]"
		le, ok := lm[match(k)]
		if !ok {
			switch {
			case drift.ContainsUnknown(e):
			case id.valueKey != "":
				// An attribute bag: the key is reported by name.
				if !quiet {
					r.emit(drift.Finding{Tier: drift.Declared, Path: rp, AttributeKey: k, Desired: redact(e.(map[string]any)[id.valueKey])})
				}
			default:
				setChanged = true
			}
			continue
		}
		if id.valueKey != "" {
			// An attribute bag: compare the value, keyed by name.
			dv, lv := e.(map[string]any)[id.valueKey], le.(map[string]any)[id.valueKey]
			if drift.ContainsUnknown(dv) || r.same(sub, dv, lv) {
				continue
			}
			if !quiet {
				actual, _ := drift.WithholdValue(dv, lv)
				r.emit(drift.Finding{Tier: drift.Declared, Path: rp, AttributeKey: k, Desired: redact(dv), Actual: actual})
			}
			continue
		}
		from := len(r.out)
		if id.subset {
			// A declared subset of the element: AWS fills the rest with
			// defaults; only catalogued values are reported inside it.
			r.subsetDepth++
			r.compare(sub, withIdentity(e, le, id), le, quiet)
			r.subsetDepth--
		} else {
			r.compare(sub, withIdentity(e, le, id), le, quiet)
		}
		r.atIndex(from, sub, rp, i, d)
	}
	if setChanged && !quiet {
		// A declared element is gone: the element set changed, one
		// finding at the array path stands for the elements' own.
		kept := r.out[:start]
		for _, f := range r.out[start:] {
			if f.Tier != drift.Declared || !strings.HasPrefix(f.Path, rp+".") {
				kept = append(kept, f)
			}
		}
		r.out = kept
		r.declared(rp, d, l, quiet)
	}
	sort.Strings(lorder)
	for _, k := range lorder {
		if dm[match(k)] {
			continue
		}
		e := lm[match(k)]
		if id.valueKey != "" {
			e = e.(map[string]any)[id.valueKey]
		} else if v, ok := keyValue(e, id); ok {
			// A key/value element (a tag) is reported by its value.
			e = v
		}
		r.undeclared(rp+"["+k+"]", e, true)
	}
}

// atIndex puts the declared findings emitted since index from, inside the
// array element reported at ep (A[key] or A.N), at the element's index
// path A.N (the declared element's index i) and gives each the whole
// declared array to write back (seed 002 §7 wholeArrayRevert), unless a
// deeper array already did. Informational and undeclared findings keep
// their keyed path.
func (r *run) atIndex(from int, ep, rp string, i int, d []any) {
	idx := rp + "." + strconv.Itoa(i)
	for k := from; k < len(r.out); k++ {
		f := &r.out[k]
		if f.Tier != drift.Declared || (f.Path != ep && !strings.HasPrefix(f.Path, ep+".") && !strings.HasPrefix(f.Path, ep+"[")) {
			continue
		}
		f.Path = idx + f.Path[len(ep):]
		if w := f.WholeArrayRevert; w != nil {
			if w.Path == ep || strings.HasPrefix(w.Path, ep+".") {
				w.Path = idx + w.Path[len(ep):]
			}
			continue
		}
		f.WholeArrayRevert = &drift.WholeArrayRevert{Path: rp, Value: redact(d)}
	}
}

// keyValue returns the value of a {Key, Value} element of an array keyed
// by Key, and false for any other element.
func keyValue(e any, id *identity) (any, bool) {
	m, ok := e.(map[string]any)
	if !ok || len(m) != 2 || len(id.fields) != 1 || id.fields[0] != "Key" {
		return nil, false
	}
	v, ok := m["Value"]
	return v, ok
}

// compareScalarSet compares two scalar arrays as sets (an attachment
// list): a declared member matches a live one equal to it, or equal
// through the folds of the list's path; a declared member no live member
// matches is a declared finding at the list path keyed by the member;
// live-only members are inventory at A[value]. A declared member the
// resolver could not know may stand for any live member: then no live
// member is reported.
func (r *run) compareScalarSet(rp string, d, l []any, quiet bool) {
	used := make([]bool, len(l))
	ls := make(map[string]int, len(l))
	for j, e := range l {
		if s, ok := normalize.ScalarString(e); ok {
			if _, dup := ls[s]; !dup {
				ls[s] = j
			}
		}
	}
	var missing []any
	unknown := false
	for i, e := range d {
		s, ok := normalize.ScalarString(e)
		if !ok {
			unknown = unknown || drift.ContainsUnknown(e)
			continue
		}
		if j, ok := ls[s]; ok {
			used[j] = true
			continue
		}
		found := false
		for j, le := range l {
			if !used[j] && r.contains(rp+"."+strconv.Itoa(i), e, le) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			missing = append(missing, e)
		}
	}
	if len(missing) > 0 && !quiet {
		// An attachment list: each missing member is a finding at the
		// list path keyed by the member; revert writes the live list
		// with every missing member added back (live-only members stay).
		back := append(append(make([]any, 0, len(l)+len(missing)), l...), missing...)
		for _, e := range missing {
			s, _ := normalize.ScalarString(e)
			r.emit(drift.Finding{Tier: drift.Declared, Path: rp, AttributeKey: s, Desired: e,
				WholeArrayRevert: &drift.WholeArrayRevert{Path: rp, Value: back}})
		}
	}
	if unknown {
		return
	}
	for j, e := range l {
		if s, ok := normalize.ScalarString(e); ok && !used[j] {
			r.undeclared(rp+"["+s+"]", e, true)
		}
	}
}

// attachmentSet reports whether a scalar array at rp is compared as an
// attachment list (compareScalarSet): a per-type scalar set, or a list the
// schema or the type's facts mark unordered whose declared members are
// all ARNs (a role's ManagedPolicyArns): each member is attached or not,
// and an added or removed ARN is reported by itself.
func (r *run) attachmentSet(rp string, d []any) bool {
	if r.tf.scalarSets[genericPath(rp)] {
		return true
	}
	if len(d) == 0 {
		return false
	}
	for _, e := range d {
		s, ok := e.(string)
		if !ok || !strings.HasPrefix(s, "arn:") {
			return false
		}
	}
	sp := schemaPath(rp)
	for _, paths := range [][]string{r.facts.UnorderedScalarPaths, r.tf.unorderedScalar} {
		for _, p := range paths {
			if p == sp {
				return true
			}
		}
	}
	return false
}

// nestedExtras reports live-only sub-keys under a declared value that
// otherwise compares equal.
func (r *run) nestedExtras(rp string, d, l any) {
	switch dv := d.(type) {
	case map[string]any:
		lv, ok := l.(map[string]any)
		if !ok {
			return
		}
		for _, k := range sortedKeys(dv) {
			if le, ok := lv[k]; ok {
				r.nestedExtras(rp+"."+k, dv[k], le)
			}
		}
		for _, k := range sortedKeys(lv) {
			if _, ok := dv[k]; ok {
				continue
			}
			if alt, ok := r.tf.altRepresentation[k]; ok {
				if _, set := dv[alt]; set {
					continue
				}
			}
			r.undeclared(rp+"."+k, lv[k], true)
		}
	case []any:
		lv, ok := l.([]any)
		if !ok {
			return
		}
		if id := r.identity(rp, dv, lv); id != nil {
			r.compareKeyed(rp, dv, lv, id, true)
			return
		}
		if r.tf.descend[schemaPath(rp)] && len(dv) == len(lv) {
			for i := range dv {
				r.nestedExtras(rp+"."+strconv.Itoa(i), dv[i], lv[i])
			}
		}
	}
}

// declared emits a declared-tier finding unless quiet.
func (r *run) declared(rp string, d, l any, quiet bool) {
	if quiet {
		return
	}
	if r.nestedMasked(rp, l) {
		// Neither side is written: the value is a NoEcho parameter's.
		r.emit(drift.Finding{Tier: drift.ReadGap, Path: rp, Note: noteNestedNoEcho})
		return
	}
	if ds, ok := d.(string); ok {
		if ls, ok := l.(string); ok && normalize.MaskedNonASCII(ds, ls) {
			// The read masks non-ASCII characters: the value cannot be
			// read back, so it is not compared.
			r.emit(drift.Finding{Tier: drift.ReadGap, Path: rp, Note: noteMaskedNonASCII})
			return
		}
	}
	actual := redact(l)
	if drift.ContainsSecret(d) {
		// The live value at a secret's place is the secret's plaintext.
		actual, _ = drift.WithholdValue(d, actual)
	}
	r.emit(drift.Finding{Tier: drift.Declared, Path: rp, Desired: redact(d), Actual: actual})
}

func (r *run) emit(f drift.Finding) {
	f.LogicalID = r.s.Ref.LogicalID
	f.ResourceType = r.s.Ref.Type
	f.PhysicalID = r.s.Ref.PhysicalID
	f.ConstructPath = r.s.Ref.ConstructPath
	r.out = append(r.out, f)
}

func (r *run) isFreeForm(rp string) bool {
	gp := schemaPath(rp)
	for _, p := range r.facts.FreeFormMapPaths {
		if p == gp {
			return true
		}
	}
	return false
}

// withholdSecrets scrubs from every finding the plaintexts the live model
// holds at the declared secrets' places (drift.Withhold), wherever they
// appear, and writes a live value withheld from storage (a secret Unknown)
// as drift.Redacted, the string a report shows: the CLI, which reads the
// plaintext, and the service, which stores it withheld, agree.
func (r *run) withholdSecrets(live map[string]any) {
	var found []string
	if drift.ContainsSecret(r.s.Declared) {
		_, found = drift.Withhold(r.s.Declared, live)
	}
	for i := range r.out {
		f := &r.out[i]
		f.Actual, _ = drift.Scrub(redact(f.Actual), found)
		f.Desired, _ = drift.Scrub(redact(f.Desired), found)
		if w := f.WholeArrayRevert; w != nil {
			v, _ := drift.Scrub(redact(w.Value), found)
			f.WholeArrayRevert = &drift.WholeArrayRevert{Path: w.Path, Value: v}
		}
	}
}

// redact replaces secret-bearing values before they reach a finding.
func redact(v any) any {
	if !drift.ContainsSecret(v) {
		return v
	}
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = redact(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = redact(e)
		}
		return out
	}
	return drift.Redacted
}
