package classify

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/normalize"
)

// KnownValue is one mined known value: on resources of Type, the live value
// at Path (KeyPath form) whose template is Value is in Tier (atDefault or
// generated).
type KnownValue struct {
	Type  string `json:"type"`
	Path  string `json:"path"`
	Tier  string `json:"tier"`
	Value string `json:"value"`
	// Cases counts the corpus cases the entry was seen in.
	Cases int `json:"cases"`
}

//go:embed known_values.json
var knownValuesJSON []byte

// KnownTable is a parsed known-values table. The zero value is empty.
type KnownTable struct {
	byType map[string]map[string]*knownEntry
	// mask, when set, hides one type's imported value rows (imported.go,
	// HidingType).
	mask *tableMask
}

// NewKnownTable builds a table from rows (as mined by corpus.MineKnown).
func NewKnownTable(rows []KnownValue) (*KnownTable, error) {
	m, err := buildKnown(rows)
	if err != nil {
		return nil, err
	}
	return &KnownTable{byType: m}, nil
}

type knownEntry struct {
	exact     map[string]drift.Tier // canonical JSON → tier
	templated map[string]drift.Tier // template → tier
	// declared names declared top-level properties whose value this path
	// takes when the template leaves it unset (a "⟨decl:K⟩" row): the
	// live value folds only when it equals the declared value of K.
	declared map[string]drift.Tier
	// silent are empty values the corpus shows dropped at this path (a
	// legitimate "off"); on (another) empty value a path with only
	// non-empty known defaults surfaces it (a switch turned off).
	silent map[string]bool
}

// embeddedKnown is built once from the embedded data and never written
// after.
var embeddedKnown = sync.OnceValues(func() (*KnownTable, error) {
	var rows []KnownValue
	if err := json.Unmarshal(knownValuesJSON, &rows); err != nil {
		return nil, fmt.Errorf("known values: %w", err)
	}
	return NewKnownTable(rows)
})

// EmbeddedKnown returns the known-values table compiled into the binary.
func EmbeddedKnown() (*KnownTable, error) { return embeddedKnown() }

func buildKnown(rows []KnownValue) (map[string]map[string]*knownEntry, error) {
	out := map[string]map[string]*knownEntry{}
	for _, row := range rows {
		if row.Tier == silentTier {
			e := entry(out, row.Type, row.Path)
			e.silent[row.Value] = true
			continue
		}
		t, err := drift.ParseTier(row.Tier)
		if err != nil {
			return nil, fmt.Errorf("known values %s %s: %w", row.Type, row.Path, err)
		}
		e := entry(out, row.Type, row.Path)
		if k, ok := DeclaredSiblingKey(row.Value); ok {
			if e.declared == nil {
				e.declared = map[string]drift.Tier{}
			}
			e.declared[k] = t
			continue
		}
		if isTemplated(row.Value) {
			e.templated[row.Value] = t
		} else {
			e.exact[row.Value] = t
		}
	}
	// A default object's fields are each their own default: a template
	// that sets part of the object still folds the rest, field by field.
	for _, row := range rows {
		if row.Tier != drift.AtDefault.String() || len(row.Value) == 0 || row.Value[0] != '{' {
			continue
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(row.Value), &obj); err != nil {
			continue
		}
		addFields(out, row.Type, row.Path, obj)
	}
	return out, nil
}

// addFields adds an atDefault entry for every field of a default object,
// recursively, unless the table already has the field's path.
func addFields(out map[string]map[string]*knownEntry, typ, path string, obj map[string]any) {
	for f, v := range obj {
		p := path + "." + f
		e := entry(out, typ, p)
		c := normalize.Canonical(v)
		if isTemplated(c) {
			if _, ok := e.templated[c]; !ok {
				e.templated[c] = drift.AtDefault
			}
		} else if _, ok := e.exact[c]; !ok {
			e.exact[c] = drift.AtDefault
		}
		if m, ok := v.(map[string]any); ok {
			addFields(out, typ, p, m)
		}
	}
}

// silentTier marks a mined row for an empty value the corpus drops.
const silentTier = "silent"

func entry(out map[string]map[string]*knownEntry, typ, path string) *knownEntry {
	byPath := out[typ]
	if byPath == nil {
		byPath = map[string]*knownEntry{}
		out[typ] = byPath
	}
	e := byPath[path]
	if e == nil {
		e = &knownEntry{exact: map[string]drift.Tier{}, templated: map[string]drift.Tier{}, silent: map[string]bool{}}
		byPath[path] = e
	}
	return e
}

// switchedOff reports whether an empty top-level value is a default
// switched off: the table knows only non-empty defaults for the path and
// never saw this empty value left silent.
func (r *run) switchedOff(rp string, v any) bool {
	table := r.opts.Known
	if table == nil {
		var err error
		if table, err = embeddedKnown(); err != nil {
			return false
		}
	}
	e := table.byType[r.s.Ref.Type][KeyPath(rp)]
	if e == nil || len(e.exact) == 0 {
		return false
	}
	c := normalize.Canonical(v)
	if e.silent[c] {
		return false
	}
	if _, ok := e.exact[c]; ok {
		return false
	}
	for known := range e.exact {
		if known == "false" || known == `""` || known == "[]" || known == "{}" {
			return false
		}
	}
	return c == "false"
}

func isTemplated(s string) bool {
	for _, r := range s {
		if r == '⟨' {
			return true
		}
	}
	return false
}

// known looks the value up in the mined known-values table.
func (r *run) known(rp string, v any) (drift.Tier, bool) {
	table := r.opts.Known
	if table == nil {
		var err error
		if table, err = embeddedKnown(); err != nil {
			return drift.TierUnknown, false
		}
	}
	kp := KeyPath(rp)
	cv := &canon{v: v}
	if t, ok := r.lookup(table.byType[r.s.Ref.Type][kp], cv); ok {
		return t, true
	}
	if t, ok := r.importedAt(kp, cv); ok {
		return t, true
	}
	if alias := r.tf.knownAlias; alias.typ != "" && strings.HasPrefix(kp, alias.prefix) {
		if t, ok := r.lookup(table.byType[alias.typ][kp], cv); ok {
			return t, true
		}
	}
	if strings.Contains(kp, "[") {
		return drift.TierUnknown, false
	}
	if !strings.Contains(kp, ".") {
		if t, ok := r.lookup(table.byType[anyType][kp], cv); ok {
			return t, true
		}
	}
	// A service row holds for a type that has no value of its own at
	// the path: the type's own evidence, when there is any, wins.
	if _, own := table.byType[r.s.Ref.Type][kp]; !own {
		return r.lookup(table.byType[ServiceOf(r.s.Ref.Type)][kp], cv)
	}
	return drift.TierUnknown, false
}

// canon is a value with its canonical JSON computed at most once, however
// many tables look it up.
type canon struct {
	v    any
	c    string
	done bool
}

func (c *canon) text() string {
	if !c.done {
		c.c, c.done = normalize.Canonical(c.v), true
	}
	return c.c
}

// ServiceOf returns the service-row key of a resource type: its
// "Provider::Service::" prefix and a "*" ("AWS::RDS::*" for
// AWS::RDS::DBInstance). Known values a service row holds apply to every
// type of the service that has none of its own at the path.
func ServiceOf(typ string) string {
	i := strings.LastIndex(typ, "::")
	if i <= 0 {
		return typ
	}
	return typ[:i+2] + "*"
}

// anyType keys the rows that hold for every resource type: a top-level
// (path, value) the corpus folds on several types and never reports.
// Service rows are keyed by ServiceOf.
const anyType = "*"

func (r *run) lookup(e *knownEntry, cv *canon) (drift.Tier, bool) {
	if e == nil {
		return drift.TierUnknown, false
	}
	c := cv.text()
	if t, ok := e.exact[c]; ok {
		return t, true
	}
	for k, t := range e.declared {
		if d, ok := r.decl[k]; ok && isSiblingScalar(d) && normalize.Canonical(d) == c {
			return t, true
		}
	}
	if len(e.templated) == 0 {
		return drift.TierUnknown, false
	}
	tmpl := Template(cv.v, r.templateContext())
	if t, ok := e.templated[tmpl]; ok {
		return t, true
	}
	return drift.TierUnknown, false
}

func (r *run) templateContext() TemplateContext {
	return TemplateContext{PhysicalID: r.s.Ref.PhysicalID, StackName: r.stackName, AccountID: r.opts.AccountID, Region: r.opts.Region}
}

// phDeclaredPrefix starts a known value that stands for the value of a
// declared top-level sibling property: "⟨decl:Protocol⟩".
const phDeclaredPrefix = "⟨decl:"

// DeclaredSibling returns the known-value template standing for the
// declared value of top-level property k.
func DeclaredSibling(k string) string { return phDeclaredPrefix + k + "⟩" }

// DeclaredSiblingKey returns the property a DeclaredSibling template names.
func DeclaredSiblingKey(v string) (string, bool) {
	k, ok := strings.CutPrefix(v, phDeclaredPrefix)
	if !ok {
		return "", false
	}
	k, ok = strings.CutSuffix(k, "⟩")
	return k, ok && k != ""
}

// isSiblingScalar reports whether a declared value can stand for a
// default: a known, non-empty string or a number — never a switch (a
// boolean), an object, or a value the resolver could not know.
func isSiblingScalar(v any) bool {
	switch t := v.(type) {
	case string:
		return t != ""
	case float64, int, int64, json.Number:
		return true
	}
	return false
}
