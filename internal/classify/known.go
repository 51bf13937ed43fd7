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
	// shapes hold the Shape of every string value when the path shows
	// two or more different string values of one tier.
	shapes map[string]drift.Tier
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
		t, err := drift.ParseTier(row.Tier)
		if err != nil {
			return nil, fmt.Errorf("known values %s %s: %w", row.Type, row.Path, err)
		}
		byPath := out[row.Type]
		if byPath == nil {
			byPath = map[string]*knownEntry{}
			out[row.Type] = byPath
		}
		e := byPath[row.Path]
		if e == nil {
			e = &knownEntry{exact: map[string]drift.Tier{}, templated: map[string]drift.Tier{}}
			byPath[row.Path] = e
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
	for _, byPath := range out {
		for _, e := range byPath {
			e.buildShapes()
		}
	}
	return out, nil
}

// addFields adds an atDefault entry for every field of a default object,
// recursively, unless the table already has the field's path.
func addFields(out map[string]map[string]*knownEntry, typ, path string, obj map[string]any) {
	byPath := out[typ]
	for f, v := range obj {
		p := path + "." + f
		e := byPath[p]
		if e == nil {
			e = &knownEntry{exact: map[string]drift.Tier{}, templated: map[string]drift.Tier{}}
			byPath[p] = e
		}
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

// buildShapes enables the shape fold for a path whose values are two or
// more different strings, all of one tier.
func (e *knownEntry) buildShapes() {
	var tier drift.Tier
	n := 0
	collect := func(m map[string]drift.Tier) bool {
		for v, t := range m {
			if len(v) < 2 || v[0] != '"' {
				return false
			}
			if n > 0 && t != tier {
				return false
			}
			tier = t
			n++
		}
		return true
	}
	if !collect(e.exact) || !collect(e.templated) || n < 2 {
		return
	}
	// Only values with digits (windows, versions, numbered names) fold by
	// shape: an enum's other members must still surface.
	shapes := map[string]drift.Tier{}
	for _, m := range []map[string]drift.Tier{e.exact, e.templated} {
		for v := range m {
			s := Shape(v)
			// Identifiers (ARNs, key ids) never fold by shape: a
			// different resource is a different value.
			if !strings.Contains(s, "9") || strings.Contains(v, "arn:") || strings.Contains(v, "⟨") {
				return
			}
			shapes[s] = tier
		}
	}
	e.shapes = shapes
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
	if t, ok := r.lookup(table.byType[r.s.Ref.Type][kp], v); ok {
		return t, true
	}
	if alias := r.tf.knownAlias; alias.typ != "" && strings.HasPrefix(kp, alias.prefix) {
		if t, ok := r.lookup(table.byType[alias.typ][kp], v); ok {
			return t, true
		}
	}
	if !strings.Contains(kp, ".") && !strings.Contains(kp, "[") {
		return r.lookup(table.byType[anyType][kp], v)
	}
	return drift.TierUnknown, false
}

// anyType keys the rows that hold for every resource type: a top-level
// (path, value) the corpus folds on several types and never reports.
const anyType = "*"

func (r *run) lookup(e *knownEntry, v any) (drift.Tier, bool) {
	if e == nil {
		return drift.TierUnknown, false
	}
	c := normalize.Canonical(v)
	if t, ok := e.exact[c]; ok {
		return t, true
	}
	if len(e.templated) == 0 && e.shapes == nil {
		return drift.TierUnknown, false
	}
	tmpl := Template(v, r.templateContext())
	if t, ok := e.templated[tmpl]; ok {
		return t, true
	}
	if e.shapes != nil && len(tmpl) > 1 && tmpl[0] == '"' {
		if t, ok := e.shapes[Shape(tmpl)]; ok {
			return t, true
		}
	}
	return drift.TierUnknown, false
}

func (r *run) templateContext() TemplateContext {
	return TemplateContext{PhysicalID: r.s.Ref.PhysicalID, StackName: r.stackName, AccountID: r.opts.AccountID, Region: r.opts.Region}
}
