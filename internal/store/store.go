package store

import (
	"context"
	"errors"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
)

// ErrNotFound reports that the item asked for does not exist (or expired).
var ErrNotFound = errors.New("not found")

// ErrConflict reports a write whose expected version is not the stored one.
// The stored value is unchanged; read it again and retry.
var ErrConflict = errors.New("version conflict")

// ErrInvalid reports a name that cannot be a key (bad stack, run id, ...).
var ErrInvalid = errors.New("invalid name")

// Store is everything realdrift keeps between runs. Callers usually declare
// the smaller interface they need; Store is what both implementations offer.
type Store interface {
	Baselines
	IgnoreRules
	Findings
	History
	Index
	RunState
	Audits
}

// Baselines holds one baseline document per stack.
type Baselines interface {
	// GetBaseline returns the stack's baseline and its version, or an error
	// wrapping ErrNotFound.
	GetBaseline(ctx context.Context, stack drift.StackRef) (doc []byte, version int64, err error)
	// PutBaseline stores doc if the stored version is expectedVersion (0: no
	// baseline yet) and returns the new version; otherwise it returns an
	// error wrapping ErrConflict.
	PutBaseline(ctx context.Context, stack drift.StackRef, doc []byte, expectedVersion int64) (version int64, err error)
}

// IgnoreRules holds one ignore-rules document (YAML) per scope. The empty
// scope is the default one (the CLI's ignore.yaml); others name an
// organisation or team.
type IgnoreRules interface {
	GetIgnoreRules(ctx context.Context, scope string) (doc []byte, version int64, err error)
	PutIgnoreRules(ctx context.Context, scope string, doc []byte, expectedVersion int64) (version int64, err error)
}

// Findings holds each stack's latest findings.
type Findings interface {
	// PutRun records a finished run of one stack: it adds rec and findings
	// to the stack's history and, for a RunOK run, makes them the stack's
	// latest findings unless a run that started later is already the
	// latest. A failed run never replaces the latest findings (it has
	// none); ListRuns shows it.
	PutRun(ctx context.Context, rec RunRecord, findings []drift.Finding) error
	// LatestFindings returns the latest successful run of the stack and its
	// findings, or an error wrapping ErrNotFound.
	LatestFindings(ctx context.Context, stack drift.StackRef) (RunRecord, []drift.Finding, error)
}

// History reads past runs. Runs expire (RunRecord.ExpiresAt).
type History interface {
	// ListRuns returns up to limit unexpired runs of the stack, newest
	// (latest StartedAt) first. limit <= 0 means all.
	ListRuns(ctx context.Context, stack drift.StackRef, limit int) ([]RunRecord, error)
	// RunFindings returns one run of the stack with its findings, or an
	// error wrapping ErrNotFound.
	RunFindings(ctx context.Context, stack drift.StackRef, runID string) (RunRecord, []drift.Finding, error)
	// RunsByID returns the records of every stack a run (a sweep) checked,
	// in stack order (account, region, name).
	RunsByID(ctx context.Context, runID string) ([]RunRecord, error)
}

// Index maps physical resource ids to the stacks that own them. Sweeps write
// it; the change-event trigger reads it.
type Index interface {
	// PutIndex adds or replaces entries (same physical id, stack and
	// logical id replace).
	PutIndex(ctx context.Context, entries []IndexEntry) error
	// LookupIndex returns every unexpired entry for a physical id, in stack
	// order; none is an empty result, not an error.
	LookupIndex(ctx context.Context, physicalID string) ([]IndexEntry, error)
}

// RunState holds the intermediate state of a run (live models, resolved
// templates): arbitrary bytes by run id and key, always with an expiry.
type RunState interface {
	PutState(ctx context.Context, runID, key string, data []byte, expiresAt time.Time) error
	// GetState returns exactly the bytes put, or an error wrapping
	// ErrNotFound (absent or expired).
	GetState(ctx context.Context, runID, key string) ([]byte, error)
}

// IndexEntry says which stack owns a physical resource.
type IndexEntry struct {
	PhysicalID string         `json:"physicalId"`
	Type       string         `json:"resourceType"`
	Stack      drift.StackRef `json:"stack"`
	LogicalID  string         `json:"logicalId"`
	IndexedAt  time.Time      `json:"indexedAt"`
	// ExpiresAt is when the entry stops being returned; zero means never.
	// Sweeps set it a few sweep intervals ahead, so entries of resources
	// that left their stack age out.
	ExpiresAt time.Time `json:"expiresAt,omitzero"`
}
