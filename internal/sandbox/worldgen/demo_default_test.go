package worldgen_test

import (
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
)

// TestDemoDefaultAccount: the demo world's default account is acme-dev,
// the account holding the demo's stacks and the one the README's keys act
// as — an admin change sent with neither account nor key lands there.
func TestDemoDefaultAccount(t *testing.T) {
	cases, err := worldgen.DemoCases()
	if err != nil {
		t.Fatal(err)
	}
	// The embedded recordings are every file the demo is built from.
	got := map[string]bool{}
	for _, c := range cases {
		got[c.File] = true
	}
	for typ, file := range worldgen.DemoRecordings() {
		if !got[file] {
			t.Errorf("%s: recording %s is not embedded", typ, file)
		}
	}
	w, err := worldgen.Demo(cases)
	if err != nil {
		t.Fatal(err)
	}
	if w.DefaultAccount != worldgen.DemoDefaultAccount {
		t.Fatalf("default account %s, want %s", w.DefaultAccount, worldgen.DemoDefaultAccount)
	}
	for _, a := range w.Accounts {
		if a.ID != w.DefaultAccount {
			continue
		}
		if a.Name != "acme-dev" {
			t.Errorf("default account is %s, want acme-dev", a.Name)
		}
		stacks := 0
		for _, r := range a.Regions {
			stacks += len(r.Stacks)
		}
		if stacks == 0 {
			t.Errorf("the default account %s holds no stack", a.ID)
		}
		return
	}
	t.Fatalf("default account %s is not in the world", w.DefaultAccount)
}
