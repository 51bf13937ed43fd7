package corpus

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
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
}

var knownKeys = map[string]bool{
	"corpusVersion": true, "description": true, "resource": true, "liveRaw": true,
	"schema": true, "opts": true, "expected": true,
}

// Parse decodes one case from its JSON text.
func Parse(name string, data []byte) (*Case, error) {
	var c Case
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("case %s: %w", name, err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("case %s: %w", name, err)
	}
	for k, v := range top {
		if !knownKeys[k] {
			if c.Extra == nil {
				c.Extra = map[string]json.RawMessage{}
			}
			c.Extra[k] = v
		}
	}
	c.File = name
	c.RawLive = top["liveRaw"]
	if c.Resource.ResourceType == "" {
		return nil, fmt.Errorf("case %s: resource.resourceType is missing", name)
	}
	if c.Resource.Declared == nil {
		c.Resource.Declared = map[string]any{}
	}
	if c.LiveRaw == nil {
		c.LiveRaw = map[string]any{}
	}
	c.Resource.Declared = markUnknown(c.Resource.Declared).(map[string]any)
	return &c, nil
}

// Load reads one case file.
func Load(path string) (*Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read case: %w", err)
	}
	return Parse(filepath.Base(path), data)
}

// LoadDirs reads every *.json case under the given directories (or files),
// sorted by file name.
func LoadDirs(paths ...string) ([]*Case, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("corpus: %w", err)
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		m, err := filepath.Glob(filepath.Join(p, "*.json"))
		if err != nil {
			return nil, fmt.Errorf("corpus: %w", err)
		}
		files = append(files, m...)
	}
	sort.Slice(files, func(i, j int) bool { return filepath.Base(files[i]) < filepath.Base(files[j]) })
	cases := make([]*Case, 0, len(files))
	for _, f := range files {
		c, err := Load(f)
		if err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	return cases, nil
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
