package schema

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"sync"
)

//go:generate go run ../../scripts/gen-schema -out snapshot.json.gz -header snapshot_gen.go -shapes ../sandbox/conformance/testdata/registry-shapes.json.gz

//go:embed snapshot.json.gz
var snapshotGz []byte

// Snapshot is an immutable set of facts per resource type.
type Snapshot struct {
	source Source
	types  map[string]*Facts
	names  []string
}

// embedded parses the embedded snapshot once.
var embedded = sync.OnceValues(func() (*Snapshot, error) {
	sum := sha256.Sum256(snapshotGz)
	if got := hex.EncodeToString(sum[:]); got != snapshotSHA256 {
		return nil, fmt.Errorf("embedded snapshot sha256 %s, header says %s (run go generate ./internal/schema/)", got, snapshotSHA256)
	}
	s, err := ReadSnapshot(bytes.NewReader(snapshotGz))
	if err != nil {
		return nil, fmt.Errorf("embedded snapshot: %w", err)
	}
	if s.source.Version != snapshotVersion || s.source.Integrity != snapshotIntegrity {
		return nil, fmt.Errorf("embedded snapshot source %s@%s does not match its header %s@%s",
			s.source.Package, s.source.Version, snapshotPackage, snapshotVersion)
	}
	return s, nil
})

// Embedded returns the snapshot compiled into the binary, parsed on first
// use. The error is non-nil only if the embedded file is corrupt or stale.
func Embedded() (*Snapshot, error) { return embedded() }

// Lookup returns a copy of the facts of typeName.
func (s *Snapshot) Lookup(typeName string) (*Facts, bool) {
	f, ok := s.types[typeName]
	if !ok {
		return nil, false
	}
	return f.Clone(), true
}

// Types returns the type names the snapshot holds, sorted.
func (s *Snapshot) Types() []string {
	return append([]string(nil), s.names...)
}

// Source names the package the snapshot was generated from.
func (s *Snapshot) Source() Source { return s.source }
