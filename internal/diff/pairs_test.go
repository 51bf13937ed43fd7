package diff

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the want.txt of the template pairs under testdata/diff")

// pairsDir holds template pairs: one directory per rule, old.json (the
// deployed template, "" side when absent) and new.json (the next deploy's),
// and want.txt, the summary of their diff, one change per line.
var pairsDir = filepath.Join("..", "..", "testdata", "diff")

// TestTemplatePairs diffs every template pair under testdata/diff against
// the shared deployed context (a nested stack N whose Outputs.Url is
// known) and compares the summary with want.txt (-update rewrites it).
// The nested-* pairs are the parent's side of seed 003: a nested stack
// added is a CREATE and removed a DELETE of its stack resource, a changed
// parameter an UPDATE of Parameters, a new nested template (TemplateURL)
// changes its outputs in place so their readers are attribute-propagated,
// a secret parameter compares expression with expression, and a template
// against itself is no change.
func TestTemplatePairs(t *testing.T) {
	dirs, err := os.ReadDir(pairsDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatalf("no template pairs under %s", pairsDir)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			dir := filepath.Join(pairsDir, d.Name())
			read := func(name string) string {
				b, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				return string(b)
			}
			in := Input{Old: tpl(t, read("old.json")), New: tpl(t, read("new.json")), Context: baseCtx, Facts: factsOf}
			got := strings.Join(summary(Compute(in)), "\n")
			if got != "" {
				got += "\n"
			}
			if *update {
				if err := os.WriteFile(filepath.Join(dir, "want.txt"), []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want := read("want.txt")
			if d := cmp.Diff(got, want); d != "" {
				t.Errorf("(-got +want):\n%s", d)
			}
		})
	}
}
