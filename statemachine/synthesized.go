package statemachine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// SynthesizedFile is the committed record, relative to the repository
// root, of what infra synthesizes for each state machine: its name, type
// and the SHA-256 of its DefinitionString. infra's tests hold it equal to
// the synthesized template (go test -run TestStateMachines -update rewrites
// it); Local.Run takes a named definition's type from it, and the local
// tests hold the definition the runner executed equal to it.
const SynthesizedFile = "testdata/statemachine/synthesized.json"

// Synthesized is one state machine as infra synthesizes it.
type Synthesized struct {
	// Name is the StateMachineName.
	Name string `json:"name"`
	// Type is the StateMachineType (TypeStandard, TypeExpress).
	Type string `json:"type"`
	// SHA256 is the hex SHA-256 of the DefinitionString (the ASL with its
	// ${XFunctionArn} placeholders, before substitution).
	SHA256 string `json:"sha256"`
}

// DefinitionSHA256 is the hex SHA-256 of a definition's bytes.
func DefinitionSHA256(def []byte) string {
	sum := sha256.Sum256(def)
	return hex.EncodeToString(sum[:])
}

// Synthesized reads SynthesizedFile: definition name → what infra
// synthesizes.
func (l Local) Synthesized() (map[string]Synthesized, error) {
	b, err := os.ReadFile(filepath.Join(l.Root, SynthesizedFile))
	if err != nil {
		return nil, fmt.Errorf("read infra's synthesized state machines: %w", err)
	}
	var out map[string]Synthesized
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("%s: %w", SynthesizedFile, err)
	}
	return out, nil
}
