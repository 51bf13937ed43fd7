package classify

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/normalize"
)

//go:generate sh -c "test -z \"$CFN_SCHEMAS\" || go run ../../scripts/mine-documented -schemas \"$CFN_SCHEMAS\" -botocore \"$BOTOCORE_DATA\" -out documented.json"
//go:generate go run ../../scripts/import-knowledge -out imported.json

// Imported is the table scripts/import-knowledge writes from the per-type
// facts cdk-real-drift observed on AWS (NOTICE credits the source). It is
// data only: the rules that apply it are this package's own mechanisms.
type Imported struct {
	Source map[string]string         `json:"source"`
	Values []ImportedValue           `json:"values"`
	Types  map[string]*ImportedFacts `json:"types"`
}

// ImportedValue is one equality-gated fold: on resources of Type, the live
// value at Path (KeyPath form) whose value template is Value is in Tier.
type ImportedValue struct {
	Type  string `json:"type"`
	Path  string `json:"path"`
	Tier  string `json:"tier"`
	Value string `json:"value"`
	// Pattern, when set, replaces Value: a string (or a number, as its
	// decimal text) live value matching this regular expression (RE2) is
	// in Tier — AWS's managed default names
	// (`default.<family>` parameter groups). It is still value-gated: a
	// name the user chose does not match.
	Pattern string `json:"pattern,omitempty"`
	// Subset: an object default compared subset-tolerantly — every listed
	// leaf equal, every other live leaf empty.
	Subset bool `json:"subset,omitempty"`
	// Field, when set, compares that field of the live element (an option
	// setting's Value) instead of the whole element.
	Field string `json:"field,omitempty"`
	// When: the row holds only when every condition holds; Unless: only
	// when none does.
	When   []ImportedCond `json:"when,omitempty"`
	Unless []ImportedCond `json:"unless,omitempty"`
	// Source names where the row's fact is documented: the AWS
	// documentation sentence or table a hand-kept awsfacts.json row cites
	// (every one carries one), a generated table's provenance per row.
	Source string `json:"source,omitempty"`
	// handKept marks a row of awsfacts.json (set on load, never stored).
	handKept bool
}

// ImportedCond holds when the resource's own property Prop (live, or
// declared when the read does not return it) is one of Values (compared
// case-insensitively), matches the regular expression Match, or — with
// Present — is there at all with a non-empty value. A number or a boolean
// is compared as its JSON text ("2", "true"); a list holds when one of its
// scalar members does. Prop is a top-level property, a dotted path into an
// object ("EndpointConfiguration.Types"), or a field of one element of an
// identity-keyed list, "List[key].Field"; an element that is not there
// compares as "".
type ImportedCond struct {
	Prop    string   `json:"prop"`
	Values  []string `json:"values,omitempty"`
	Match   string   `json:"match,omitempty"`
	Present bool     `json:"present,omitempty"`
}

// ImportedFacts are per-type path facts for the classifier's existing
// mechanisms (typeFacts); paths are schema paths ("*" for array items).
type ImportedFacts struct {
	UnorderedScalar []string          `json:"unorderedScalar,omitempty"`
	UnorderedObject []string          `json:"unorderedObject,omitempty"`
	Identities      map[string]string `json:"identities,omitempty"`
	Ordered         []string          `json:"ordered,omitempty"`
	// OrderedKeys name arrays, by their key at any depth, whose element
	// order carries meaning even where the elements are identity-keyed
	// (pipeline stages and their actions): a reordering is drift.
	OrderedKeys         []string `json:"orderedKeys,omitempty"`
	CaseInsensitive     []string `json:"caseInsensitive,omitempty"`
	CaseInsensitiveKeys []string `json:"caseInsensitiveKeys,omitempty"`
	LatestSentinel      []string `json:"latestSentinel,omitempty"`
	VersionPrefix       []string `json:"versionPrefix,omitempty"`
	ReadGapCollections  []string `json:"readGapCollections,omitempty"`
	ACLString           []string `json:"aclString,omitempty"`
	EpochHour           []string `json:"epochHour,omitempty"`
	// Equivalences name per-path representational folds (schema path →
	// kinds: trailingSlash, intelligentTiering, booleanString,
	// propertiesText); a map path's kind holds for its values too.
	Equivalences map[string][]string `json:"equivalences,omitempty"`
	// JSONFills are keys a service injects into the JSON text held at a
	// path (schema path → key → value): a declared object of the text (or
	// each object of a declared array) without the key compares as if it
	// held that value; a declared other value stays drift.
	JSONFills map[string]map[string]any `json:"jsonFills,omitempty"`
	// Descend are undeclared objects reported per key, not whole.
	Descend []string `json:"descend,omitempty"`
	// Watched are paths whose value AWS picks per resource; Minted are
	// paths whose value AWS or CloudFormation mints. No fold applies to
	// them by value: they are quiet only where a baseline watches them.
	Watched []string `json:"watched,omitempty"`
	Minted  []string `json:"minted,omitempty"`
	// WatchedShapes are the values AWS names or assigns within a family,
	// by shape: a string (or a number, as its decimal text) at Path
	// (KeyPath form) matching Pattern — AWS's managed default names, the
	// ids and counts it assigns — under the row's condition (When /
	// Unless), comparing one Field of an element when set. They fold
	// atDefault on a first check and are watched by the baseline, like
	// Watched; with it they are the one table of folds that do not pin a
	// value (AssignedValue). scripts/import-knowledge writes them from
	// every pattern row it reads (the facts file's managed names, and the
	// pattern rows of awsfacts.json and documented.json, which stay there
	// with their sources and apply only from here).
	WatchedShapes []WatchedShape `json:"watchedShapes,omitempty"`
}

// WatchedShape is one row of ImportedFacts.WatchedShapes.
type WatchedShape struct {
	Path    string         `json:"path"`
	Pattern string         `json:"pattern"`
	Field   string         `json:"field,omitempty"`
	When    []ImportedCond `json:"when,omitempty"`
	Unless  []ImportedCond `json:"unless,omitempty"`
	Source  string         `json:"source"`
}

// Sort orders and de-duplicates every list, so the generated file is
// stable.
func (f *ImportedFacts) Sort() {
	for _, p := range []*[]string{&f.UnorderedScalar, &f.UnorderedObject, &f.Ordered, &f.OrderedKeys, &f.CaseInsensitive, &f.CaseInsensitiveKeys,
		&f.LatestSentinel, &f.VersionPrefix, &f.ReadGapCollections, &f.ACLString, &f.EpochHour, &f.Descend, &f.Watched, &f.Minted} {
		s := *p
		sort.Strings(s)
		out := s[:0]
		for i, x := range s {
			if i == 0 || x != s[i-1] {
				out = append(out, x)
			}
		}
		*p = out
	}
	sort.SliceStable(f.WatchedShapes, func(i, j int) bool {
		a, b := f.WatchedShapes[i], f.WatchedShapes[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Pattern < b.Pattern
	})
}

func (t *Imported) facts(typ string) *ImportedFacts {
	f := t.Types[typ]
	if f == nil {
		f = &ImportedFacts{}
		t.Types[typ] = f
	}
	return f
}

// Facts returns (creating) the path facts of a type; for the generator.
func (t *Imported) Facts(typ string) *ImportedFacts { return t.facts(typ) }

//go:embed imported.json
var importedJSON []byte

// documentedJSON holds the defaults AWS documents in the registry schemas
// (scripts/mine-documented), in the same form; a documented row applies
// only where the imported facts name nothing at its path.
//
//go:embed documented.json
var documentedJSON []byte

// awsFactsJSON holds, in the same form, the defaults AWS documents as
// depending on another property of the resource (an engine's port, a
// target type's health check, a source's batch size) and the shapes of IDs
// AWS assigns, kept by hand from the service API documentation. Every row
// is equality- or pattern-gated and holds only under its condition.
//
//go:embed awsfacts.json
var awsFactsJSON []byte

// importedRow is an ImportedValue ready for lookups.
type importedRow struct {
	tier      drift.Tier
	value     string // canonical JSON or value template
	templated bool
	parsed    any // the default, for subset and stringly comparison
	subset    bool
	field     string
	pattern   *regexp.Regexp
	when      []ImportedCond
	unless    []ImportedCond
	// matches holds the compiled Match of each condition, by expression.
	matches map[string]*regexp.Regexp
	// cited: a hand-kept row of awsfacts.json, with its documentation
	// source.
	cited bool
}

type importedTable struct {
	rows  map[string]map[string][]*importedRow // type → KeyPath → rows
	facts map[string]*ImportedFacts
}

var embeddedImported = sync.OnceValues(func() (*importedTable, error) {
	var t, doc, aws Imported
	if err := json.Unmarshal(importedJSON, &t); err != nil {
		return nil, fmt.Errorf("imported facts: %w", err)
	}
	if err := json.Unmarshal(documentedJSON, &doc); err != nil {
		return nil, fmt.Errorf("documented defaults: %w", err)
	}
	if err := json.Unmarshal(awsFactsJSON, &aws); err != nil {
		return nil, fmt.Errorf("AWS facts: %w", err)
	}
	for i := range aws.Values {
		aws.Values[i].handKept = true
	}
	t.Values = append(t.Values, aws.Values...)
	named := map[[2]string]bool{}
	for _, v := range t.Values {
		named[[2]string{v.Type, v.Path}] = true
	}
	for _, v := range doc.Values {
		if !named[[2]string{v.Type, v.Path}] {
			t.Values = append(t.Values, v)
		}
	}
	// Pattern rows apply from the one watched table (WatchedShapes), where
	// the generator copied them: dropped here, so none applies twice or
	// outside it.
	t.Values = valueRows(t.Values)
	return buildImported(&t)
})

// valueRows returns the rows of vs that pin a value (no pattern).
func valueRows(vs []ImportedValue) []ImportedValue {
	out := vs[:0:0]
	for _, v := range vs {
		if v.Pattern == "" {
			out = append(out, v)
		}
	}
	return out
}

// ShapeOf returns the watched-table row of a pattern row: its path,
// pattern, field, condition and source. For the generator.
func ShapeOf(v ImportedValue) WatchedShape {
	return WatchedShape{Path: v.Path, Pattern: v.Pattern, Field: v.Field, When: v.When, Unless: v.Unless, Source: v.Source}
}

// embeddedDocumented is the documented table alone, for the
// leave-one-type-out benchmark (HidingType).
var embeddedDocumented = sync.OnceValues(func() (*importedTable, error) {
	var doc Imported
	if err := json.Unmarshal(documentedJSON, &doc); err != nil {
		return nil, fmt.Errorf("documented defaults: %w", err)
	}
	return buildImported(&doc)
})

// tableMask hides the imported and AWS-facts value rows of one type, so a
// benchmark measures what the documented table alone recovers on a type
// no hand-kept or imported row was written for (scripts/mine-defaults
// -loo-documented). With documented set the documented rows of the type
// apply at every path; without, no table row of the type does.
type tableMask struct {
	typ        string
	documented bool
}

// HidingType returns a copy of the table under which the imported and
// AWS-facts value rows of typ do not apply, and the documented rows of
// typ apply at every path when documented is set. The table's own rows
// are kept: the caller mines it without typ's cases. For benchmarks only.
func (t *KnownTable) HidingType(typ string, documented bool) *KnownTable {
	c := *t
	c.mask = &tableMask{typ: typ, documented: documented}
	return &c
}

func (t *KnownTable) maskFor(typ string) *tableMask {
	if t == nil || t.mask == nil || t.mask.typ != typ {
		return nil
	}
	return t.mask
}

func buildImported(t *Imported) (*importedTable, error) {
	out := &importedTable{rows: map[string]map[string][]*importedRow{}, facts: t.Types}
	put := func(typ, path string, row *importedRow) {
		byPath := out.rows[typ]
		if byPath == nil {
			byPath = map[string][]*importedRow{}
			out.rows[typ] = byPath
		}
		byPath[path] = append(byPath[path], row)
	}
	// The watched shapes first: a managed default name or an assigned id
	// is atDefault before any value row of its path is tried.
	for _, typ := range sortedKeys(t.Types) {
		for _, w := range t.Types[typ].WatchedShapes {
			re, err := regexp.Compile(w.Pattern)
			if err != nil {
				return nil, fmt.Errorf("watched shape %s %s: pattern: %w", typ, w.Path, err)
			}
			matches, err := compileConds(w.When, w.Unless)
			if err != nil {
				return nil, fmt.Errorf("watched shape %s %s: %w", typ, w.Path, err)
			}
			put(typ, w.Path, &importedRow{tier: drift.AtDefault, field: w.Field, pattern: re, when: w.When, unless: w.Unless, matches: matches})
		}
	}
	for _, v := range t.Values {
		tier, err := drift.ParseTier(v.Tier)
		if err != nil {
			return nil, fmt.Errorf("imported facts %s %s: %w", v.Type, v.Path, err)
		}
		var parsed any
		var pattern *regexp.Regexp
		if v.Pattern != "" {
			re, err := regexp.Compile(v.Pattern)
			if err != nil {
				return nil, fmt.Errorf("imported facts %s %s: pattern: %w", v.Type, v.Path, err)
			}
			pattern = re
		} else if !isTemplated(v.Value) {
			if err := json.Unmarshal([]byte(v.Value), &parsed); err != nil {
				return nil, fmt.Errorf("imported facts %s %s: %w", v.Type, v.Path, err)
			}
		}
		matches, err := compileConds(v.When, v.Unless)
		if err != nil {
			return nil, fmt.Errorf("imported facts %s %s: %w", v.Type, v.Path, err)
		}
		row := &importedRow{tier: tier, value: v.Value, templated: isTemplated(v.Value) && pattern == nil, parsed: parsed,
			subset: v.Subset, field: v.Field, pattern: pattern, when: v.When, unless: v.Unless, matches: matches, cited: v.handKept}
		put(v.Type, v.Path, row)
		// A default object's fields are each their own default, so a
		// template that sets part of the object still folds the rest.
		if m, ok := parsed.(map[string]any); ok && v.Field == "" {
			addImportedFields(put, v.Type, v.Path, m, row)
		}
	}
	return out, nil
}

func addImportedFields(put func(string, string, *importedRow), typ, path string, obj map[string]any, parent *importedRow) {
	for f, v := range obj {
		_, isObj := v.(map[string]any)
		row := &importedRow{tier: parent.tier, value: normalize.Canonical(v), parsed: v, subset: isObj, when: parent.when, unless: parent.unless, matches: parent.matches}
		put(typ, path+"."+f, row)
		if m, ok := v.(map[string]any); ok {
			addImportedFields(put, typ, path+"."+f, m, row)
		}
	}
}

// importedAt looks an undeclared value up in the imported table at its
// KeyPath kp.
func (r *run) importedAt(kp string, cv *canon) (drift.Tier, bool) {
	t, err := embeddedImported()
	if m := r.opts.Known.maskFor(r.s.Ref.Type); m != nil {
		if !m.documented {
			return drift.TierUnknown, false
		}
		t, err = embeddedDocumented()
	}
	if err != nil {
		return drift.TierUnknown, false
	}
	byPath := t.rows[r.s.Ref.Type]
	if byPath == nil {
		return drift.TierUnknown, false
	}
	for _, row := range byPath[kp] {
		if r.importedMatch(row, cv) {
			return row.tier, true
		}
	}
	// A row for every element of a keyed list ("OptionSettings[*]").
	if strings.HasSuffix(kp, "]") {
		if i := strings.LastIndexByte(kp, '['); i > 0 {
			for _, row := range byPath[kp[:i]+"[*]"] {
				if r.importedMatch(row, cv) {
					return row.tier, true
				}
			}
		}
	}
	return drift.TierUnknown, false
}

// compileConds compiles the Match expression of each condition.
func compileConds(sets ...[]ImportedCond) (map[string]*regexp.Regexp, error) {
	var out map[string]*regexp.Regexp
	for _, cs := range sets {
		for _, c := range cs {
			if c.Match == "" {
				continue
			}
			re, err := regexp.Compile(c.Match)
			if err != nil {
				return nil, fmt.Errorf("condition on %s: %w", c.Prop, err)
			}
			if out == nil {
				out = map[string]*regexp.Regexp{}
			}
			out[c.Match] = re
		}
	}
	return out, nil
}

// offAgainstDocumented reports whether a switched-off (false) value at
// KeyPath kp diverges from the default AWS documents for this resource: a
// cited awsfacts.json row whose condition holds names a non-empty default
// there, and no row whose condition holds names this value. It is the
// switched-off carve-out of the conditional defaults: a health check AWS
// documents as always on for the resource's target type, read false, is
// drift.
func (r *run) offAgainstDocumented(kp string, v any) bool {
	if b, ok := v.(bool); !ok || b {
		return false
	}
	t, err := embeddedImported()
	if err != nil {
		return false
	}
	rows := t.rows[r.s.Ref.Type][kp]
	documented := false
	cv := &canon{v: v}
	for _, row := range rows {
		if !r.rowHolds(row) {
			continue
		}
		if r.importedMatch(row, cv) {
			return false
		}
		if row.cited && row.pattern == nil && !normalize.TriviallyEmpty(row.parsed) {
			documented = true
		}
	}
	return documented
}

// rowHolds reports whether a row's conditions hold on this resource.
func (r *run) rowHolds(row *importedRow) bool {
	for _, c := range row.when {
		if !r.condHolds(c, row.matches) {
			return false
		}
	}
	for _, c := range row.unless {
		if r.condHolds(c, row.matches) {
			return false
		}
	}
	return true
}

func (r *run) importedMatch(row *importedRow, cv *canon) bool {
	v := cv.v
	if !r.rowHolds(row) {
		return false
	}
	x := v
	if row.field != "" {
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		// An element without the field is the service's unset entry: it
		// compares as the empty string.
		if x, ok = m[row.field]; !ok {
			x = ""
		}
	}
	if row.pattern != nil {
		return row.patternMatch(x)
	}
	if row.templated {
		return Template(x, r.templateContext()) == row.value
	}
	text := cv.text
	if row.field != "" {
		text = func() string { return normalize.Canonical(x) }
	}
	if text() == row.value || normalize.SameScalarOrEqual(row.parsed, x) {
		return true
	}
	return row.subset && subsetDefault(row.parsed, x)
}

// condHolds reports whether the resource's top-level property is one of
// the condition's values.
func (r *run) condHolds(c ImportedCond, matches map[string]*regexp.Regexp) bool {
	v, ok := r.condValue(c.Prop)
	if !ok {
		return false
	}
	if c.Present {
		return !normalize.TriviallyEmpty(v)
	}
	if list, ok := v.([]any); ok {
		for _, e := range list {
			if condScalar(c, e, matches) {
				return true
			}
		}
		return false
	}
	return condScalar(c, v, matches)
}

// condScalar reports whether one scalar (a string, or a number or boolean
// as its JSON text) is one of the condition's values or matches it.
func condScalar(c ImportedCond, v any, matches map[string]*regexp.Regexp) bool {
	if drift.IsUnknown(v) {
		return false
	}
	s, ok := normalize.ScalarString(v)
	if !ok {
		return false
	}
	if c.Match != "" {
		return matches[c.Match].MatchString(s)
	}
	for _, w := range c.Values {
		if strings.EqualFold(s, w) {
			return true
		}
	}
	return false
}

// patternMatch reports whether a pattern row's regular expression matches
// x: a string, or a number as its decimal text (a count the service
// manages).
func (row *importedRow) patternMatch(x any) bool {
	s, ok := x.(string)
	if n, isNum := normalize.Number(x); !ok && isNum {
		s, ok = normalize.FormatNumber(n), true
	}
	return ok && row.pattern.MatchString(s)
}

// condValue is the value a condition tests: a top-level property (live,
// or declared when the read does not return it), or a field of one element
// of an identity-keyed list, "List[key].Field" (another option setting of
// an Elastic Beanstalk environment), "" when no element has that key (the
// option is unset, so its platform default applies).
func (r *run) condValue(prop string) (any, bool) {
	name, rest, keyed := strings.Cut(prop, "[")
	if !keyed {
		v, ok := getPath(r.live, prop)
		if !ok || normalize.TriviallyEmpty(v) {
			if d, dok := getPath(r.decl, prop); dok {
				v, ok = d, true
			}
		}
		return v, ok
	}
	key, field, ok := strings.Cut(rest, "].")
	id := r.tf.identities[name]
	if !ok || id == nil {
		return nil, false
	}
	for _, side := range []map[string]any{r.live, r.decl} {
		list, _ := side[name].([]any)
		for _, e := range list {
			if m, isMap := e.(map[string]any); isMap && id.key(e) == key {
				if v, has := m[field]; has {
					return v, true
				}
			}
		}
	}
	return "", true
}

// subsetDefault reports whether a live object holds every leaf of a
// default object with an equal value and nothing else but empty values.
func subsetDefault(d, v any) bool {
	dm, ok1 := d.(map[string]any)
	vm, ok2 := v.(map[string]any)
	if !ok1 || !ok2 {
		return normalize.SameScalarOrEqual(d, v)
	}
	for k, dv := range dm {
		lv, ok := vm[k]
		if !ok {
			return false
		}
		if !subsetDefault(dv, lv) {
			return false
		}
	}
	for k, lv := range vm {
		if _, ok := dm[k]; !ok && !normalize.TriviallyEmpty(lv) {
			return false
		}
	}
	return true
}

// mergeImported adds the imported path facts to the hand-kept per-type
// facts; the hand-kept entries win where both name a path. Every map is
// copied, so no table is shared between types.
func mergeImported(table map[string]*typeFacts) {
	t, err := embeddedImported()
	if err != nil {
		return
	}
	for typ, f := range t.facts {
		tf := table[typ]
		if tf == nil {
			tf = &typeFacts{}
			table[typ] = tf
		} else {
			c := *tf
			tf = &c
			table[typ] = tf
		}
		tf.unorderedScalar = appendNew(tf.unorderedScalar, f.UnorderedScalar)
		tf.unorderedObject = appendNew(tf.unorderedObject, f.UnorderedObject)
		tf.ordered = withKeys(tf.ordered, f.Ordered)
		tf.orderedKeys = withKeys(tf.orderedKeys, f.OrderedKeys)
		tf.caseInsensitive = withKeys(tf.caseInsensitive, f.CaseInsensitive)
		tf.caseInsensitiveKeys = withKeys(tf.caseInsensitiveKeys, f.CaseInsensitiveKeys)
		tf.latestSentinel = withKeys(tf.latestSentinel, f.LatestSentinel)
		tf.versionPrefix = withKeys(tf.versionPrefix, f.VersionPrefix)
		tf.readGapCollections = withKeys(tf.readGapCollections, f.ReadGapCollections)
		tf.aclString = withKeys(tf.aclString, f.ACLString)
		tf.watched = withKeys(tf.watched, f.Watched)
		tf.descendUndeclared = withKeys(tf.descendUndeclared, f.Descend)
		if len(f.Equivalences) > 0 {
			eq := make(map[string][]string, len(tf.equivalences)+len(f.Equivalences))
			for k, v := range tf.equivalences {
				eq[k] = v
			}
			for k, v := range f.Equivalences {
				eq[k] = appendNew(eq[k], v)
			}
			tf.equivalences = eq
		}
		tf.minted = withKeys(tf.minted, f.Minted)
		if len(f.JSONFills) > 0 {
			fills := make(map[string]map[string]any, len(tf.jsonFills)+len(f.JSONFills))
			for k, v := range tf.jsonFills {
				fills[k] = v
			}
			for k, v := range f.JSONFills {
				fills[k] = v
			}
			tf.jsonFills = fills
		}
		if len(f.EpochHour) > 0 {
			rd := make(map[string]float64, len(tf.roundedDown)+len(f.EpochHour))
			for k, v := range tf.roundedDown {
				rd[k] = v
			}
			for _, p := range f.EpochHour {
				if _, ok := rd[p]; !ok {
					rd[p] = 3600
				}
			}
			tf.roundedDown = rd
		}
		if len(f.Identities) > 0 {
			ids := make(map[string]*identity, len(tf.identities)+len(f.Identities))
			for k, v := range tf.identities {
				ids[k] = v
			}
			for p, field := range f.Identities {
				for _, sp := range starVariants(p) {
					if _, ok := ids[sp]; !ok {
						ids[sp] = &identity{fields: []string{field}}
					}
				}
			}
			tf.identities = ids
		}
	}
}

func appendNew(have, add []string) []string {
	if len(add) == 0 {
		return have
	}
	seen := make(map[string]bool, len(have))
	out := make([]string, 0, len(have)+len(add))
	for _, p := range have {
		seen[p] = true
		out = append(out, p)
	}
	for _, p := range add {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

func withKeys(have map[string]bool, add []string) map[string]bool {
	if len(add) == 0 {
		return have
	}
	out := make(map[string]bool, len(have)+len(add))
	for k, v := range have {
		out[k] = v
	}
	for _, p := range add {
		out[p] = true
	}
	return out
}

// starVariants renders a dotted path whose array segments are not marked
// in every schema-path form: each boundary between two names may hide an
// array ("A.B" → "A.B", "A.*.B").
func starVariants(p string) []string {
	if strings.Contains(p, "*") {
		return []string{p}
	}
	segs := strings.Split(p, ".")
	out := []string{segs[0]}
	for _, s := range segs[1:] {
		var next []string
		for _, o := range out {
			next = append(next, o+"."+s, o+".*."+s)
		}
		out = next
	}
	return out
}
