package statemachinetest

import (
	"errors"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/realdrift/realdrift/internal/lambdarouter"
	"github.com/realdrift/realdrift/statemachine"
)

// MaxStateOutput is the bound every state's output must stay under in the
// local end-to-end runs (32 KiB).
const MaxStateOutput = 32 * 1024

// Local returns a prepared local runner for the repository holding the
// working directory. Without node and npm the test fails when CI=true and
// is skipped, with the reason, otherwise.
func Local(t testing.TB) statemachine.Local {
	t.Helper()
	l, err := statemachine.FindLocal(".")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Prepare(t.Context()); err != nil {
		if errors.Is(err, statemachine.ErrNoNode) && os.Getenv("CI") != "true" {
			t.Skipf("local Step Functions unavailable (CI=true makes this a failure): %v", err)
		}
		t.Fatal(err)
	}
	return l
}

// Serve starts a lambdarouter on a local port with the handlers register
// adds and returns its endpoint; the server stops when the test ends.
func Serve(t testing.TB, register func(*lambdarouter.Router) error) string {
	t.Helper()
	r := lambdarouter.New()
	if err := register(r); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv.URL
}

// CheckStateOutputs fails the test when any state's output reached
// MaxStateOutput bytes or no state output was reported at all.
func CheckStateOutputs(t testing.TB, ex statemachine.Execution) {
	t.Helper()
	if len(ex.States) == 0 {
		t.Errorf("no state outputs reported; cannot check the %d-byte bound", MaxStateOutput)
	}
	for _, s := range ex.States {
		if s.Bytes >= MaxStateOutput {
			t.Errorf("state %s (%s) output is %d bytes, want < %d", s.Name, s.Type, s.Bytes, MaxStateOutput)
		}
	}
	if ex.MaxStateOutputBytes >= MaxStateOutput {
		t.Errorf("largest state output is %d bytes, want < %d", ex.MaxStateOutputBytes, MaxStateOutput)
	}
}

// CheckSynthesized fails the test unless the run executed the named
// definition byte for byte as infra synthesizes it, and as the type infra
// gives it (statemachine.SynthesizedFile).
func CheckSynthesized(t testing.TB, l statemachine.Local, name string, ex statemachine.Execution) {
	t.Helper()
	synth, err := l.Synthesized()
	if err != nil {
		t.Fatal(err)
	}
	want, ok := synth[name]
	if !ok {
		t.Fatalf("infra synthesizes no state machine %s (%s)", name, statemachine.SynthesizedFile)
	}
	if ex.DefinitionSHA256 != want.SHA256 || ex.Type != want.Type {
		t.Errorf("%s: the runner executed definition sha256 %s as %s; infra synthesizes sha256 %s as %s (cd infra && go test -run TestStateMachines -update)",
			name, ex.DefinitionSHA256, ex.Type, want.SHA256, want.Type)
	}
}
