// Package reporttest checks JSON reports against the published contract,
// report.schema.json at the repository root (JSON Schema 2020-12).
//
// Tests that produce a JSON report (check --json, diff --json, revert
// --json, check -o json://FILE) pass it to Validate: a field the schema
// does not list, a missing one or a value outside its enum fails the
// test, so the schema and the outputs cannot part.
package reporttest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// FileName is the schema's file name at the repository root.
const FileName = "report.schema.json"

// startDir is the working directory when the test binary started — its
// package's directory under go test — taken before any test moves to a
// temporary directory (os.Chdir, t.Chdir), so Path does not depend on
// where a test happens to be when it first validates.
var startDir, startDirErr = os.Getwd()

// Path is the schema file's path: FileName in the nearest directory
// above the test binary's starting directory that holds go.mod.
func Path() (string, error) {
	if startDirErr != nil {
		return "", fmt.Errorf("find %s: %w", FileName, startDirErr)
	}
	dir := startDir
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, FileName), nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("find %s: no go.mod above %s", FileName, startDir)
		}
		dir = up
	}
}

// compiled is the schema, compiled once per test binary.
var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	p, err := Path()
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	s, err := c.Compile(p)
	if err != nil {
		return nil, fmt.Errorf("compile %s: %w", FileName, err)
	}
	return s, nil
})

// Schema is report.schema.json, compiled.
func Schema() (*jsonschema.Schema, error) { return compiled() }

// Check validates one JSON document against the schema.
func Check(data []byte) error {
	s, err := Schema()
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if err := s.Validate(doc); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return fmt.Errorf("does not validate against %s:\n%v", FileName, ve)
		}
		return err
	}
	return nil
}

// Validate fails t unless data, a JSON report named what, validates
// against the schema.
func Validate(t testing.TB, what string, data []byte) {
	t.Helper()
	if err := Check(data); err != nil {
		t.Errorf("%s: %v\n%.3000s", what, err, data)
	}
}
