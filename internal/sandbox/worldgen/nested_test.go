package worldgen_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
)

var update = flag.Bool("update", false, "rewrite the nested world under testdata/nested")

// nestedWorldFile is the committed form of worldgen.Nested: a world file
// `realdrift sandbox --world` serves as it is.
var nestedWorldFile = filepath.Join("..", "..", "..", "testdata", "nested", "world.json")

// TestNestedWorld: the nested world is deterministic, matches its
// committed file (-update rewrites it) and links parent to child only
// through the nesting resources' physical ids.
func TestNestedWorld(t *testing.T) {
	w, err := worldgen.Nested()
	if err != nil {
		t.Fatal(err)
	}
	got, err := w.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	again, _ := worldgen.Nested()
	if b, _ := again.Marshal(); !bytes.Equal(got, b) {
		t.Fatal("two builds differ")
	}
	if *update {
		if err := os.WriteFile(nestedWorldFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(nestedWorldFile)
	if err != nil {
		t.Fatalf("%v (go test -run TestNestedWorld -update writes it)", err)
	}
	if d := cmp.Diff(string(got), string(want)); d != "" {
		t.Fatalf("the nested world differs from %s (-update rewrites it):\n%s", nestedWorldFile, d)
	}

	loaded, err := sandbox.LoadWorld(nestedWorldFile)
	if err != nil {
		t.Fatal(err)
	}
	stacks := loaded.Accounts[0].Regions[0].Stacks
	var names []string
	parent := map[string]string{}
	byID := map[string]string{}
	for _, s := range stacks {
		names = append(names, s.Name)
		byID[s.ID] = s.Name
	}
	for _, s := range stacks {
		parent[s.Name] = byID[s.ParentID]
	}
	if d := cmp.Diff(names, worldgen.NestedStackNames()); d != "" {
		t.Errorf("stacks (-got +want):\n%s", d)
	}
	n := worldgen.NestedStackNames()
	wantParents := map[string]string{n[0]: "", n[1]: n[0], n[2]: n[1], n[3]: n[0]}
	if d := cmp.Diff(parent, wantParents); d != "" {
		t.Errorf("parents (-got +want):\n%s", d)
	}
}
