package baseline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// ErrMalformed marks a baseline file that cannot be used as it is.
var ErrMalformed = errors.New("malformed baseline")

// MalformedError says which file is malformed and why.
type MalformedError struct {
	File    string
	Line    int // 0 when the problem has no single line
	Column  int // 0 when not known
	Problem string
}

func (e *MalformedError) Error() string {
	if e.Line > 0 && e.Column > 0 {
		return fmt.Sprintf("baseline %s:%d:%d: %s", e.File, e.Line, e.Column, e.Problem)
	}
	if e.Line > 0 {
		return fmt.Sprintf("baseline %s:%d: %s", e.File, e.Line, e.Problem)
	}
	return fmt.Sprintf("baseline %s: %s", e.File, e.Problem)
}

// Is lets errors.Is(err, ErrMalformed) match.
func (e *MalformedError) Is(target error) bool { return target == ErrMalformed }

// fileJSON is the storage shape (schemaVersion 1 and 2).
type fileJSON struct {
	SchemaVersion              int               `json:"schemaVersion"`
	StackName                  string            `json:"stackName"`
	Region                     string            `json:"region"`
	AccountID                  string            `json:"accountId,omitempty"`
	CapturedAt                 string            `json:"capturedAt"`
	TemplateHash               string            `json:"templateHash,omitempty"`
	Recorded                   []entryJSON       `json:"recorded"`
	CompleteResources          *[]string         `json:"completeResources,omitempty"`
	RecordedPhysicalIDs        map[string]string `json:"recordedPhysicalIds,omitempty"`
	RecordedSourceFingerprints map[string]string `json:"recordedSourceFingerprints,omitempty"`
	ObservedDefaults           []pathRefJSON     `json:"observedDefaults,omitempty"`
	EnumeratedParents          []parentJSON      `json:"enumeratedParents,omitempty"`
	// Watched is realdrift's additive field (cdk-real-drift ignores it).
	Watched []entryJSON `json:"watched,omitempty"`
}

type entryJSON struct {
	LogicalID    string          `json:"logicalId"`
	ResourceType string          `json:"resourceType"`
	Path         string          `json:"path"`
	Value        json.RawMessage `json:"value"`
}

type pathRefJSON struct {
	LogicalID    string `json:"logicalId"`
	ResourceType string `json:"resourceType"`
	Path         string `json:"path"`
}

type parentJSON struct {
	LogicalID    string `json:"logicalId"`
	ResourceType string `json:"resourceType"`
}

// Decode parses a baseline file's bytes; name is used in errors. When want
// has a non-empty field, the file's identity must match it: a stack, account
// or region mismatch is an error (a file copied to the wrong path); a file
// with no accountId only warns.
func Decode(name string, data []byte, want drift.StackRef) (*Baseline, error) {
	bad := func(line int, format string, a ...any) error {
		return &MalformedError{File: name, Line: line, Problem: fmt.Sprintf(format, a...)}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, bad(0, "empty file")
	}
	var f fileJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, bad(lineAt(data, se.Offset), "invalid JSON: %v", err)
		case errors.As(err, &te):
			return nil, bad(lineAt(data, te.Offset), "field %q: got JSON %s, want %s", te.Field, te.Value, jsonKind(te.Type))
		default:
			return nil, bad(0, "invalid JSON: %v", err)
		}
	}
	if dec.More() {
		return nil, bad(0, "trailing data after the JSON object")
	}
	switch {
	case f.SchemaVersion == 0:
		return nil, bad(0, "missing schemaVersion")
	case f.SchemaVersion > SchemaVersion:
		return nil, bad(0, "schemaVersion %d is newer than this realdrift reads (%d)", f.SchemaVersion, SchemaVersion)
	case f.SchemaVersion < 1:
		return nil, bad(0, "invalid schemaVersion %d", f.SchemaVersion)
	case f.StackName == "":
		return nil, bad(0, "missing stackName")
	case f.Region == "":
		return nil, bad(0, "missing region")
	}
	if p := checkFormat(data, f.SchemaVersion); p != nil {
		line, col := lineCol(data, p.off)
		problem := p.msg
		if p.path != "" {
			problem = p.path + ": " + p.msg
		}
		return nil, &MalformedError{File: name, Line: line, Column: col, Problem: problem}
	}
	if want.Name != "" && f.StackName != want.Name {
		return nil, bad(0, "stackName %q does not match stack %q", f.StackName, want.Name)
	}
	if want.Region != "" && f.Region != want.Region {
		return nil, bad(0, "region %q does not match region %q", f.Region, want.Region)
	}
	if want.Account != "" && f.AccountID != "" && f.AccountID != want.Account {
		return nil, bad(0, "accountId %q does not match account %q (file copied to the wrong account's path?)", f.AccountID, want.Account)
	}
	b := &Baseline{
		Stack:              drift.StackRef{Account: f.AccountID, Region: f.Region, Name: f.StackName},
		CapturedAt:         f.CapturedAt,
		TemplateHash:       f.TemplateHash,
		Complete:           map[string]bool{},
		PhysicalIDs:        map[string]string{},
		SourceFingerprints: map[string]string{},
		Version:            f.SchemaVersion,
	}
	if f.AccountID == "" {
		b.Stack.Account = want.Account
		b.Warnings = append(b.Warnings, fmt.Sprintf("baseline %s has no accountId; the next record stamps it", name))
	}
	seen := map[entryKey]bool{}
	for i, e := range f.Recorded {
		switch {
		case e.LogicalID == "":
			return nil, bad(0, "recorded[%d]: missing logicalId", i)
		case e.ResourceType == "":
			return nil, bad(0, "recorded[%d] (%s): missing resourceType", i, e.LogicalID)
		case len(e.Value) == 0:
			return nil, bad(0, "recorded[%d] (%s.%s): missing value", i, e.LogicalID, e.Path)
		}
		k := entryKey{e.LogicalID, e.Path}
		if seen[k] {
			return nil, bad(0, "recorded[%d]: duplicate entry for %s %q", i, e.LogicalID, e.Path)
		}
		seen[k] = true
		var v any
		if err := json.Unmarshal(e.Value, &v); err != nil {
			return nil, bad(0, "recorded[%d] (%s.%s): value: %v", i, e.LogicalID, e.Path, err)
		}
		b.Entries = append(b.Entries, Entry{LogicalID: e.LogicalID, ResourceType: e.ResourceType, Path: e.Path, Value: v})
	}
	if f.CompleteResources != nil {
		for _, id := range *f.CompleteResources {
			if id == "" {
				return nil, bad(0, "completeResources: empty logical id")
			}
			b.Complete[id] = true
		}
	} else if f.SchemaVersion < 2 {
		b.Warnings = append(b.Warnings, fmt.Sprintf("baseline %s is schema v1: no resource is snapshot-complete, so values that appeared since record read as potential drift until the next record upgrades the file", name))
	}
	for id, p := range f.RecordedPhysicalIDs {
		if id == "" {
			return nil, bad(0, "recordedPhysicalIds: empty logical id")
		}
		b.PhysicalIDs[id] = p
	}
	for k, h := range f.RecordedSourceFingerprints {
		if !strings.Contains(k, "::") || strings.HasPrefix(k, "::") {
			return nil, bad(0, "recordedSourceFingerprints: key %q is not <logicalId>::<path>", k)
		}
		b.SourceFingerprints[k] = h
	}
	for i, o := range f.ObservedDefaults {
		if o.LogicalID == "" || o.Path == "" {
			return nil, bad(0, "observedDefaults[%d]: logicalId and path are required", i)
		}
		b.ObservedDefaults = append(b.ObservedDefaults, PathRef(o))
	}
	seenW := map[entryKey]bool{}
	for i, e := range f.Watched {
		switch {
		case e.LogicalID == "" || e.Path == "":
			return nil, bad(0, "watched[%d]: logicalId and path are required", i)
		case e.ResourceType == "":
			return nil, bad(0, "watched[%d] (%s): missing resourceType", i, e.LogicalID)
		case len(e.Value) == 0:
			return nil, bad(0, "watched[%d] (%s.%s): missing value", i, e.LogicalID, e.Path)
		}
		k := entryKey{e.LogicalID, e.Path}
		if seenW[k] {
			return nil, bad(0, "watched[%d]: duplicate entry for %s %q", i, e.LogicalID, e.Path)
		}
		seenW[k] = true
		var v any
		if err := json.Unmarshal(e.Value, &v); err != nil {
			return nil, bad(0, "watched[%d] (%s.%s): value: %v", i, e.LogicalID, e.Path, err)
		}
		b.Watched = append(b.Watched, Entry{LogicalID: e.LogicalID, ResourceType: e.ResourceType, Path: e.Path, Value: v})
	}
	for i, p := range f.EnumeratedParents {
		if p.LogicalID == "" {
			return nil, bad(0, "enumeratedParents[%d]: missing logicalId", i)
		}
		b.EnumeratedParents = append(b.EnumeratedParents, Parent(p))
	}
	if n := upgradeKeyValues(b); n > 0 {
		b.Warnings = append(b.Warnings, keyValueWarning(name, n))
	}
	return b, nil
}

// Encode writes b in the schemaVersion 2 format: indented, keys and lists in
// a stable order, a trailing newline. Secret values are written redacted.
func Encode(b *Baseline) ([]byte, error) {
	c := *b
	c.Entries = append([]Entry(nil), b.Entries...)
	c.Watched = append([]Entry(nil), b.Watched...)
	c.ObservedDefaults = append([]PathRef(nil), b.ObservedDefaults...)
	c.EnumeratedParents = append([]Parent(nil), b.EnumeratedParents...)
	c.sortAll()
	f := fileJSON{
		SchemaVersion:              SchemaVersion,
		StackName:                  c.Stack.Name,
		Region:                     c.Stack.Region,
		AccountID:                  c.Stack.Account,
		CapturedAt:                 c.CapturedAt,
		TemplateHash:               c.TemplateHash,
		Recorded:                   []entryJSON{},
		RecordedPhysicalIDs:        c.PhysicalIDs,
		RecordedSourceFingerprints: c.SourceFingerprints,
	}
	for _, e := range c.Entries {
		v, err := marshal(e.Value)
		if err != nil {
			return nil, fmt.Errorf("encode %s.%s: %w", e.LogicalID, e.Path, err)
		}
		f.Recorded = append(f.Recorded, entryJSON{LogicalID: e.LogicalID, ResourceType: e.ResourceType, Path: e.Path, Value: v})
	}
	complete := []string{}
	for id, ok := range c.Complete {
		if ok {
			complete = append(complete, id)
		}
	}
	sort.Strings(complete)
	f.CompleteResources = &complete
	for _, o := range c.ObservedDefaults {
		f.ObservedDefaults = append(f.ObservedDefaults, pathRefJSON(o))
	}
	for _, e := range c.Watched {
		if drift.ContainsSecret(e.Value) || containsRedacted(e.Value) {
			continue // a secret is never watched
		}
		v, err := marshal(e.Value)
		if err != nil {
			return nil, fmt.Errorf("encode watched %s.%s: %w", e.LogicalID, e.Path, err)
		}
		f.Watched = append(f.Watched, entryJSON{LogicalID: e.LogicalID, ResourceType: e.ResourceType, Path: e.Path, Value: v})
	}
	for _, p := range c.EnumeratedParents {
		f.EnumeratedParents = append(f.EnumeratedParents, parentJSON(p))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, fmt.Errorf("encode baseline: %w", err)
	}
	return buf.Bytes(), nil
}

// marshal writes a JSON value compactly without HTML escaping.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func lineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// jsonKind names the JSON kind a Go type decodes from, so an error never
// shows an internal type name.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "a value"
}
