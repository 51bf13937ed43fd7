package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/inputfile"
	"github.com/realdrift/realdrift/internal/schema"
)

// UnresolvedMarker is the string the corpus stores where a declared value
// could not be resolved.
const UnresolvedMarker = "__cdkrd_corpus_unresolved__"

// Resource is the case's resource as declared in its template.
type Resource struct {
	LogicalID     string         `json:"logicalId"`
	ResourceType  string         `json:"resourceType"`
	PhysicalID    string         `json:"physicalId"`
	ConstructPath string         `json:"constructPath,omitempty"`
	Declared      map[string]any `json:"declared"`
	// SiblingPolicyNames are the names of AWS::IAM::Policy resources of the
	// same stack attached to this role.
	SiblingPolicyNames []string `json:"siblingPolicyNames,omitempty"`
}

// Case is one golden-corpus case.
type Case struct {
	// File is the case's file name (not part of the JSON).
	File string `json:"-"`

	CorpusVersion int            `json:"corpusVersion"`
	Description   string         `json:"description,omitempty"`
	Resource      Resource       `json:"resource"`
	LiveRaw       map[string]any `json:"liveRaw"`
	Schema        schema.Facts   `json:"schema"`
	// Opts holds the classifier options exactly as stored; see the
	// classifier for the keys it understands.
	Opts     map[string]any  `json:"opts"`
	Expected []drift.Finding `json:"expected"`
	// RawLive is liveRaw exactly as it appears in the file.
	RawLive json.RawMessage `json:"-"`
	// Extra holds top-level keys this package does not know.
	Extra map[string]json.RawMessage `json:"-"`

	options *classify.Options // Opts decoded by Parse
}

// Options is the case's opts as classifier options. Parse decodes them
// once, so a replay measures the classifier, not the options decoder; a
// Case built another way decodes Opts on every call.
func (c *Case) Options() classify.Options {
	if c.options != nil {
		return *c.options
	}
	return classify.OptionsFromMap(c.Opts)
}

var knownKeys = map[string]bool{
	"corpusVersion": true, "description": true, "resource": true, "liveRaw": true,
	"schema": true, "opts": true, "expected": true,
}

// Parse decodes one case from its JSON text; name (the file's path) is
// used in errors. A case that does not have the format's shape is a
// *CaseError listing every problem found.
func Parse(name string, data []byte) (*Case, error) {
	if probs := check(data); len(probs) > 0 {
		return nil, &CaseError{Path: name, Problems: probs}
	}
	var c Case
	if err := json.Unmarshal(data, &c); err != nil {
		p := Problem{Msg: err.Error()}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			p = Problem{Field: te.Field, Msg: fmt.Sprintf("got JSON %s, want %s", te.Value, te.Type)}
		}
		return nil, &CaseError{Path: name, Problems: []Problem{p}}
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, &CaseError{Path: name, Problems: []Problem{{Msg: err.Error()}}}
	}
	for k, v := range top {
		if !knownKeys[k] {
			if c.Extra == nil {
				c.Extra = map[string]json.RawMessage{}
			}
			c.Extra[k] = v
		}
	}
	c.File = filepath.Base(name)
	c.RawLive = top["liveRaw"]
	c.Resource.Declared = markUnknown(c.Resource.Declared).(map[string]any)
	o := classify.OptionsFromMap(c.Opts)
	c.options = &o
	return &c, nil
}

// MaxCaseFile is the size limit of one case file: far above any real
// case, far below what a wrong path (a device, a log) could feed a reader.
const MaxCaseFile = 64 << 20

// Load reads one case file: a regular file within MaxCaseFile, valid
// UTF-8 (inputfile), else an error naming it.
func Load(path string) (*Case, error) {
	data, err := inputfile.Read(path, MaxCaseFile)
	if err == nil {
		err = inputfile.UTF8(path, data)
	}
	if err != nil {
		return nil, &CaseError{Path: path, Problems: []Problem{{Msg: err.Error()}}}
	}
	return Parse(path, data)
}

// LoadDirs reads every *.json case under the given directories (or files),
// sorted by file name. It never stops at a bad case: it returns every case
// it could read, and an error joining one *CaseError per case it could not
// (and one error per path it could not list), so a caller may report the
// error and go on with the cases.
func LoadDirs(paths ...string) ([]*Case, error) {
	var files []string
	var errs []error
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("corpus: %w", err))
			continue
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		m, err := filepath.Glob(filepath.Join(p, "*.json"))
		if err != nil {
			errs = append(errs, fmt.Errorf("corpus: %w", err))
			continue
		}
		files = append(files, m...)
	}
	sort.SliceStable(files, func(i, j int) bool { return filepath.Base(files[i]) < filepath.Base(files[j]) })
	cases := make([]*Case, 0, len(files))
	for _, f := range files {
		c, err := Load(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		cases = append(cases, c)
	}
	return cases, errors.Join(errs...)
}

func markUnknown(v any) any {
	switch t := v.(type) {
	case string:
		if t == UnresolvedMarker {
			return drift.Unknown{Reason: "unresolved in the recorded template"}
		}
		if strings.Contains(t, UnresolvedMarker) {
			return drift.Unknown{Reason: "partly unresolved in the recorded template"}
		}
	case map[string]any:
		for k, e := range t {
			t[k] = markUnknown(e)
		}
	case []any:
		for i, e := range t {
			t[i] = markUnknown(e)
		}
	}
	return v
}
