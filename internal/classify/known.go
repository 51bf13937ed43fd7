package classify

import (
	_ "embed"
	"encoding/json"
	"fmt"
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

type knownEntry struct {
	exact     map[string]drift.Tier // canonical JSON → tier
	templated map[string]drift.Tier // template → tier
}

// knownTable is built once from the embedded data and never written after.
var knownTable = sync.OnceValues(func() (map[string]map[string]*knownEntry, error) {
	return parseKnown(knownValuesJSON)
})

func parseKnown(data []byte) (map[string]map[string]*knownEntry, error) {
	var rows []KnownValue
	if err := json.Unmarshal(data, &rows); err != nil {
		return nil, fmt.Errorf("known values: %w", err)
	}
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
	return out, nil
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
	table, err := knownTable()
	if err != nil {
		return drift.TierUnknown, false
	}
	byPath := table[r.s.Ref.Type]
	if byPath == nil {
		return drift.TierUnknown, false
	}
	e := byPath[KeyPath(rp)]
	if e == nil {
		return drift.TierUnknown, false
	}
	c := normalize.Canonical(v)
	if t, ok := e.exact[c]; ok {
		return t, true
	}
	if len(e.templated) > 0 {
		if t, ok := e.templated[templateString(c, r.templateContext())]; ok {
			return t, true
		}
	}
	return drift.TierUnknown, false
}

func (r *run) templateContext() TemplateContext {
	return TemplateContext{PhysicalID: r.s.Ref.PhysicalID, StackName: r.stackName, AccountID: r.opts.AccountID, Region: r.opts.Region}
}
