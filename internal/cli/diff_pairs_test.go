package cli

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/diff/vscdk"
)

var updatePairs = flag.Bool("update", false, "rewrite realdrift.txt of the template pairs under testdata/diff-vs-cdk")

// vsCDKDir holds the template pairs compared with cdk diff
// (scripts/diff-vs-cdk.sh): per pair old/ (the deployed templates), app/
// (the next deploy's cloud assembly), stack (its name), cdk.txt (cdk diff's
// output, stored), realdrift.txt (ours, golden) and, where the tools
// disagree, note.md.
var vsCDKDir = filepath.Join("..", "..", "testdata", "diff-vs-cdk")

// diffPair runs diff --template on one pair (no AWS call).
func diffPair(t *testing.T, dir string, extra ...string) (string, string, int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "stack"))
	if err != nil {
		t.Fatal(err)
	}
	stack := strings.TrimSpace(string(b))
	args := append([]string{"diff", "--app", filepath.Join(dir, "app"), "--template", filepath.Join(dir, "old", stack+".template.json"), "--recursive", "--region", "us-east-1"}, extra...)
	return runArgs(t, append(args, stack)...)
}

// TestDiffVsCDKPairs: realdrift's diff of every pair is its golden
// realdrift.txt (-update rewrites it), and where it and the stored cdk
// diff state different facts, the pair's note says realdrift is right.
func TestDiffVsCDKPairs(t *testing.T) {
	dirs, err := os.ReadDir(vsCDKDir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		n++
		t.Run(d.Name(), func(t *testing.T) {
			dir := filepath.Join(vsCDKDir, d.Name())
			out, errs, code := diffPair(t, dir)
			if code != ExitOK {
				t.Fatalf("diff: exit %d\n%s", code, errs)
			}
			golden := filepath.Join(dir, "realdrift.txt")
			if *updatePairs {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(out, string(want)); d != "" {
				t.Errorf("realdrift.txt (-got +want):\n%s", d)
			}
			o, err := vscdk.Compare(dir)
			if err != nil {
				t.Fatal(err)
			}
			switch o.Verdict {
			case vscdk.Agree:
			case vscdk.RealdriftRight:
				if len(o.Reason) < 40 {
					t.Errorf("note.md gives no reason: %q", o.Reason)
				}
			default:
				t.Errorf("verdict %s: only cdk %q, only realdrift %q", o.Verdict, o.OnlyCDK, o.OnlyRealdrift)
			}
		})
	}
	if n < 12 {
		t.Errorf("%d template pairs, want at least 12", n)
	}
}

// TestDiffSecurityOnlyAndFailOn: --security-only prints the security
// tables alone; --fail-on exits 1 for its class of change only.
func TestDiffSecurityOnlyAndFailOn(t *testing.T) {
	pair := func(name string) string { return filepath.Join(vsCDKDir, name) }
	out, _, code := diffPair(t, pair("iam-broadening"), "--security-only")
	if code != ExitOK || !strings.Contains(out, "IAM Statement Changes") || !strings.Contains(out, "IAM Policy Changes") || strings.Contains(out, "Resources\n") {
		t.Errorf("--security-only on iam-broadening: exit %d\n%s", code, out)
	}
	out, _, _ = diffPair(t, pair("security-group"), "--security-only")
	if !strings.Contains(out, "Security Group Changes") || !strings.Contains(out, "Everyone (IPv4)") || strings.Contains(out, "IAM Statement Changes") {
		t.Errorf("--security-only on security-group:\n%s", out)
	}
	out, _, _ = diffPair(t, pair("tags"), "--security-only")
	if !strings.Contains(out, "There were no security-related changes") {
		t.Errorf("--security-only on tags:\n%s", out)
	}
	for _, tc := range []struct {
		pair, class string
		want        int
	}{
		{"iam-broadening", "broadening", ExitDrift},
		{"security-group", "broadening", ExitDrift},
		{"iam-narrowing", "broadening", ExitOK},
		{"tags", "broadening", ExitOK},
		{"class3-key-schema", "destructive", ExitDrift},
		{"delete", "destructive", ExitDrift},
		{"iam-broadening", "destructive", ExitOK},
		{"create", "destructive", ExitOK},
		{"iam-narrowing", "any", ExitDrift},
		{"condition-false", "any", ExitOK},
	} {
		if _, errs, code := diffPair(t, pair(tc.pair), "--fail-on", tc.class); code != tc.want {
			t.Errorf("%s --fail-on %s: exit %d, want %d\n%s", tc.pair, tc.class, code, tc.want, errs)
		}
	}
	if _, errs, code := diffPair(t, pair("tags"), "--fail-on", "everything"); code != ExitError || !strings.Contains(errs, "--fail-on") {
		t.Errorf("--fail-on everything: exit %d\n%s", code, errs)
	}
}
