package sandboxtest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ReadRole is the committed copy of the member read role's policies
// (testdata/iam/member-read-role.json, held equal to what infra
// synthesizes by infra's TestReadRolePolicyCopy).
type ReadRole struct {
	Role   string
	Inline []struct {
		PolicyName     string
		PolicyDocument struct {
			Version   string
			Statement []map[string]any
		}
	}
	Managed []json.RawMessage
	// Handlers are its customer managed policies granting Cloud Control's
	// read and list handlers' permissions (through AWS services only).
	Handlers []struct {
		PolicyName     string
		PolicyDocument json.RawMessage
	}
}

// LoadReadRole reads the copy from iamDir (the repo's testdata/iam).
func LoadReadRole(t testing.TB, iamDir string) ReadRole {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(iamDir, "member-read-role.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r ReadRole
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("member-read-role.json: %v", err)
	}
	return r
}

// Actions returns the actions the role's inline statements of effect
// ("Allow" or "Deny") name without a Condition, sorted.
func (r ReadRole) Actions(effect string) []string {
	var out []string
	for _, p := range r.Inline {
		for _, st := range p.PolicyDocument.Statement {
			if st["Effect"] != effect || st["Condition"] != nil {
				continue
			}
			switch a := st["Action"].(type) {
			case string:
				out = append(out, a)
			case []any:
				for _, x := range a {
					if s, ok := x.(string); ok {
						out = append(out, s)
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// Documents returns the role's policy documents: its inline policies,
// statements whose Sid is in drop left out (each must exist), its Cloud
// Control handler policies, and the
// committed excerpt under iamDir/managed of every AWS managed policy it
// attaches (a managed policy without an excerpt fails the test, so a new
// attachment gets one).
func (r ReadRole) Documents(t testing.TB, iamDir string, drop ...string) []json.RawMessage {
	t.Helper()
	var docs []json.RawMessage
	dropped := 0
	for _, p := range r.Inline {
		d := p.PolicyDocument
		d.Statement = slices.DeleteFunc(slices.Clone(d.Statement), func(st map[string]any) bool {
			sid, _ := st["Sid"].(string)
			if slices.Contains(drop, sid) {
				dropped++
				return true
			}
			return false
		})
		doc, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc)
	}
	if dropped != len(drop) {
		t.Fatalf("dropped %d of the statements %v", dropped, drop)
	}
	for _, h := range r.Handlers {
		docs = append(docs, h.PolicyDocument)
	}
	for _, m := range r.Managed {
		// The ARN is synthesized as a join on the partition: its name is
		// the part after policy/.
		_, name, ok := strings.Cut(string(m), ":iam::aws:policy/")
		if !ok {
			t.Fatalf("managed policy %s is not an AWS managed policy", m)
		}
		name = strings.TrimRight(name, `"]} `+"\n")
		b, err := os.ReadFile(filepath.Join(iamDir, "managed", name+".json"))
		if err != nil {
			t.Fatalf("the read role attaches %s: commit an excerpt of it under testdata/iam/managed (%v)", name, err)
		}
		var ex struct{ Document json.RawMessage }
		if err := json.Unmarshal(b, &ex); err != nil {
			t.Fatalf("managed/%s.json: %v", name, err)
		}
		docs = append(docs, ex.Document)
	}
	return docs
}
