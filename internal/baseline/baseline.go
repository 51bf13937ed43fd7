package baseline

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
)

// SchemaVersion is the file format version this package writes.
const SchemaVersion = 2

// Entry is one recorded value. Path is empty for a whole added resource,
// whose Value is its full live model.
type Entry struct {
	LogicalID    string
	ResourceType string
	Path         string
	Value        any
}

// PathRef names a path of a resource, without a value.
type PathRef struct {
	LogicalID    string
	ResourceType string
	Path         string
}

// Parent names a declared parent resource whose children were enumerated.
type Parent struct {
	LogicalID    string
	ResourceType string
}

// Baseline is the recorded state of one stack in one account and region.
type Baseline struct {
	Stack drift.StackRef
	// CapturedAt is the record time as written (RFC 3339).
	CapturedAt string
	// TemplateHash is TemplateHash of the deployed template at record.
	TemplateHash string
	Entries      []Entry
	// Complete holds the logical ids the record fully covered.
	Complete map[string]bool
	// PhysicalIDs maps a logical id to its physical id at record.
	PhysicalIDs map[string]string
	// SourceFingerprints maps FingerprintKey(logicalID, path) to the hash of
	// the declared source the recorded value derives from.
	SourceFingerprints map[string]string
	ObservedDefaults   []PathRef
	EnumeratedParents  []Parent
	// Watched are the leaves of the atDefault and generated values the
	// record saw (watched.go): a later change to one is drift.
	Watched []Entry

	// Version is the schemaVersion the file was read with (0 when new).
	Version int
	// Warnings are non-fatal load notes (an old schema, a missing account).
	Warnings []string
}

// FingerprintKey is the key of a source fingerprint: "<logicalId>::<path>".
func FingerprintKey(logicalID, path string) string { return logicalID + "::" + path }

type entryKey struct{ lid, path string }

// RecordedAt is the record time (zero for a nil baseline, or a time that
// does not parse).
func (b *Baseline) RecordedAt() time.Time {
	if b == nil {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339, b.CapturedAt)
	if err != nil {
		return time.Time{}
	}
	return t
}

func (b *Baseline) sortAll() {
	sort.SliceStable(b.Entries, func(i, j int) bool {
		a, c := b.Entries[i], b.Entries[j]
		if a.LogicalID != c.LogicalID {
			return a.LogicalID < c.LogicalID
		}
		return a.Path < c.Path
	})
	sortEntries(b.Watched)
	sort.Slice(b.ObservedDefaults, func(i, j int) bool {
		a, c := b.ObservedDefaults[i], b.ObservedDefaults[j]
		if a.LogicalID != c.LogicalID {
			return a.LogicalID < c.LogicalID
		}
		return a.Path < c.Path
	})
	sort.Slice(b.EnumeratedParents, func(i, j int) bool {
		return b.EnumeratedParents[i].LogicalID < b.EnumeratedParents[j].LogicalID
	})
}

// topKey returns the top-level property name of a dotted path.
func topKey(path string) string {
	if i := strings.IndexAny(path, ".["); i >= 0 {
		return path[:i]
	}
	return path
}

// within reports whether path is p or below it (p.x, p[k], p.0).
func within(path, p string) bool {
	if path == p {
		return true
	}
	return strings.HasPrefix(path, p) && len(path) > len(p) && (path[len(p)] == '.' || path[len(p)] == '[')
}

// TemplateHash is the templateHash of a deployed template body: the hex
// SHA-256 of its bytes.
func TemplateHash(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}
