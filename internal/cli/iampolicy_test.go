package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/who"
)

// TestREADMEPermissions: the README's Permissions section, the policy
// `realdrift iam-policy` prints and live.ReadActions agree: every read
// action is granted, and the README shows exactly what the verb prints.
func TestREADMEPermissions(t *testing.T) {
	var out, errb bytes.Buffer
	if code := runVerb(t, t.Context(), IO{Stdout: &out, Stderr: &errb}, []string{"iam-policy"}); code != ExitOK {
		t.Fatalf("iam-policy: exit %d\n%s", code, errb.String())
	}
	var doc struct {
		Statement []struct {
			Effect   string
			Action   []string
			Resource string
		}
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("iam-policy prints no policy document: %v\n%s", err, out.String())
	}
	if len(doc.Statement) != 1 || doc.Statement[0].Effect != "Allow" || doc.Statement[0].Resource != "*" {
		t.Fatalf("iam-policy: want one Allow statement on *: %+v", doc.Statement)
	}
	granted := map[string]bool{}
	for _, a := range doc.Statement[0].Action {
		granted[a] = true
	}
	for _, a := range live.ReadActions() {
		if !granted[a] {
			t.Errorf("iam-policy does not grant %s (live.ReadActions)", a)
		}
	}
	for _, a := range []string{"cloudformation:DescribeStacks", "cloudformation:GetTemplate", "cloudformation:ListStackResources", "cloudformation:GetResource"} {
		if !granted[a] {
			t.Errorf("iam-policy does not grant %s, which every check calls", a)
		}
	}

	readme := filepath.Join("..", "..", "README.md")
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	const marker = "<!-- iam-policy:"
	head, rest, ok := strings.Cut(string(b), marker)
	if !ok || !strings.Contains(head, "\n## Permissions\n") {
		t.Fatalf("README has no Permissions section with the %q block", marker)
	}
	_, rest, _ = strings.Cut(rest, "```json\n")
	block, _, ok := strings.Cut(rest, "```\n")
	if !ok {
		t.Fatal("README's Permissions block is not closed")
	}
	if diff := cmp.Diff(block, out.String()); diff != "" {
		t.Errorf("README's Permissions policy differs from `realdrift iam-policy` (paste the output of `realdrift iam-policy`) (-README +iam-policy):\n%s", diff)
	}

	out.Reset()
	if code := runVerb(t, t.Context(), IO{Stdout: &out, Stderr: &errb}, []string{"iam-policy", "--revert"}); code != ExitOK {
		t.Fatalf("iam-policy --revert: exit %d\n%s", code, errb.String())
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Statement) != 2 {
		t.Fatalf("iam-policy --revert: %v\n%s", err, out.String())
	}
	if diff := cmp.Diff(doc.Statement[1].Action, live.WriteActions()); diff != "" {
		t.Errorf("iam-policy --revert's writes differ from live.WriteActions (-got +want):\n%s", diff)
	}

	out.Reset()
	if code := runVerb(t, t.Context(), IO{Stdout: &out, Stderr: &errb}, []string{"iam-policy", "--who", "--revert"}); code != ExitOK {
		t.Fatalf("iam-policy --who --revert: exit %d\n%s", code, errb.String())
	}
	doc.Statement = nil
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Statement) != 3 {
		t.Fatalf("iam-policy --who --revert: want read, who and revert statements: %v\n%s", err, out.String())
	}
	if diff := cmp.Diff(doc.Statement[1].Action, who.Actions()); diff != "" {
		t.Errorf("iam-policy --who's lookups differ from who.Actions (-got +want):\n%s", diff)
	}
}
