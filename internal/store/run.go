package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
)

// DefaultRunRetention is how long run history is kept when a RunRecord
// carries no ExpiresAt: counted from FinishedAt (or StartedAt).
const DefaultRunRetention = 90 * 24 * time.Hour

// RunStatus says how a stack's check ended.
type RunStatus uint8

// The run statuses.
const (
	RunStatusUnknown RunStatus = iota
	// RunOK: the check finished (drift or not).
	RunOK
	// RunFailed: the check could not finish; RunRecord.Reason says why.
	RunFailed
)

var runStatusNames = [...]string{RunStatusUnknown: "unknown", RunOK: "ok", RunFailed: "failed"}

// String returns the wire name.
func (s RunStatus) String() string {
	if int(s) < len(runStatusNames) {
		return runStatusNames[s]
	}
	return fmt.Sprintf("RunStatus(%d)", uint8(s))
}

// ParseRunStatus maps a wire name back to its RunStatus.
func ParseRunStatus(s string) (RunStatus, error) {
	switch s {
	case "ok":
		return RunOK, nil
	case "failed":
		return RunFailed, nil
	}
	return RunStatusUnknown, fmt.Errorf("unknown run status %q", s)
}

// RunRecord is one check of one stack. (RunID, Stack) is unique: a sweep
// shares its run id across the stacks it checks.
type RunRecord struct {
	RunID      string
	Stack      drift.StackRef
	StartedAt  time.Time
	FinishedAt time.Time
	Status     RunStatus
	// Reason explains a failed run.
	Reason string
	// Counts are findings per tier (zero counts may be omitted).
	Counts map[drift.Tier]int
	// Fingerprint identifies the drift set (see notify.Fingerprint).
	Fingerprint string
	// Verdict is the run's outcome (drift.Judge: clean, potentialDrift,
	// incomplete, drift; error for a failed run), Resources the number of
	// resources the check covered and NotRead how many of them were not
	// read. A record written before verdicts were kept reads back
	// OutcomeUnknown (no verdict), never clean.
	Verdict            drift.Outcome
	Resources, NotRead int
	// ExpiresAt is when the history entry expires; zero on write means
	// DefaultRunRetention.
	ExpiresAt time.Time
}

// expiry returns the record's expiry, applying the default retention.
func (r RunRecord) expiry() time.Time {
	if !r.ExpiresAt.IsZero() {
		return r.ExpiresAt
	}
	base := r.FinishedAt
	if base.IsZero() {
		base = r.StartedAt
	}
	return base.Add(DefaultRunRetention)
}

func (r RunRecord) validate() error {
	if err := validStack(r.Stack); err != nil {
		return err
	}
	if err := validName("run id", r.RunID); err != nil {
		return err
	}
	if r.StartedAt.IsZero() {
		return fmt.Errorf("run %s: %w: StartedAt is zero", r.RunID, ErrInvalid)
	}
	if r.Status != RunOK && r.Status != RunFailed {
		return fmt.Errorf("run %s: %w: status %v", r.RunID, ErrInvalid, r.Status)
	}
	for t := range r.Counts {
		if t == drift.TierUnknown || t > drift.Ignored {
			return fmt.Errorf("run %s: %w: count for tier %v", r.RunID, ErrInvalid, t)
		}
	}
	return nil
}

// runSrc is the stored shape of a RunRecord.
type runSrc struct {
	RunID       string         `json:"runId"`
	Stack       drift.StackRef `json:"stack"`
	StartedAt   time.Time      `json:"startedAt"`
	FinishedAt  time.Time      `json:"finishedAt,omitzero"`
	Status      string         `json:"status"`
	Reason      string         `json:"reason,omitempty"`
	Counts      map[string]int `json:"counts,omitempty"`
	Fingerprint string         `json:"fingerprint,omitempty"`
	Verdict     string         `json:"verdict,omitempty"`
	Resources   int            `json:"resources,omitempty"`
	NotRead     int            `json:"notRead,omitempty"`
	ExpiresAt   time.Time      `json:"expiresAt,omitzero"`
}

func toRunSrc(r RunRecord) runSrc {
	s := runSrc{
		RunID: r.RunID, Stack: r.Stack, StartedAt: r.StartedAt.UTC(), FinishedAt: r.FinishedAt.UTC(),
		Status: r.Status.String(), Reason: r.Reason, Fingerprint: r.Fingerprint, ExpiresAt: r.expiry().UTC(),
		Resources: r.Resources, NotRead: r.NotRead,
	}
	if r.Verdict != drift.OutcomeUnknown {
		s.Verdict = r.Verdict.String()
	}
	if len(r.Counts) > 0 {
		s.Counts = make(map[string]int, len(r.Counts))
		for t, n := range r.Counts {
			s.Counts[t.String()] = n
		}
	}
	return s
}

func (s runSrc) record() (RunRecord, error) {
	st, err := ParseRunStatus(s.Status)
	if err != nil {
		return RunRecord{}, fmt.Errorf("run %s: %w", s.RunID, err)
	}
	r := RunRecord{
		RunID: s.RunID, Stack: s.Stack, StartedAt: s.StartedAt, FinishedAt: s.FinishedAt,
		Status: st, Reason: s.Reason, Fingerprint: s.Fingerprint, ExpiresAt: s.ExpiresAt,
		Resources: s.Resources, NotRead: s.NotRead,
	}
	if s.Verdict != "" {
		if err := r.Verdict.UnmarshalText([]byte(s.Verdict)); err != nil {
			return RunRecord{}, fmt.Errorf("run %s: %w", s.RunID, err)
		}
	}
	if len(s.Counts) > 0 {
		r.Counts = make(map[drift.Tier]int, len(s.Counts))
		for name, n := range s.Counts {
			t, err := drift.ParseTier(name)
			if err != nil {
				return RunRecord{}, fmt.Errorf("run %s counts: %w", s.RunID, err)
			}
			r.Counts[t] = n
		}
	}
	return r, nil
}

// runDoc is the stored shape of a run with its findings (file store, and
// the value of a Dynamo run or latest item).
type runDoc struct {
	Run      runSrc          `json:"run"`
	Findings json.RawMessage `json:"findings"`
}

// encodeFindings writes findings through their JSON form (secrets redacted).
func encodeFindings(fs []drift.Finding) ([]byte, error) {
	if fs == nil {
		fs = []drift.Finding{}
	}
	b, err := json.Marshal(fs)
	if err != nil {
		return nil, fmt.Errorf("encode findings: %w", err)
	}
	return b, nil
}

// decodeFindings reads findings keeping numbers exact (json.Number).
func decodeFindings(b []byte) ([]drift.Finding, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var fs []drift.Finding
	if err := dec.Decode(&fs); err != nil {
		return nil, fmt.Errorf("decode findings: %w", err)
	}
	return fs, nil
}

func encodeRunDoc(rec RunRecord, findings []drift.Finding) ([]byte, error) {
	fb, err := encodeFindings(findings)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(runDoc{Run: toRunSrc(rec), Findings: fb})
	if err != nil {
		return nil, fmt.Errorf("encode run %s: %w", rec.RunID, err)
	}
	return b, nil
}

func decodeRunDoc(b []byte) (RunRecord, []drift.Finding, error) {
	var d runDoc
	if err := json.Unmarshal(b, &d); err != nil {
		return RunRecord{}, nil, fmt.Errorf("decode run: %w", err)
	}
	rec, err := d.Run.record()
	if err != nil {
		return RunRecord{}, nil, err
	}
	fs, err := decodeFindings(d.Findings)
	if err != nil {
		return RunRecord{}, nil, fmt.Errorf("run %s: %w", rec.RunID, err)
	}
	return rec, fs, nil
}

// expired reports whether t is set and not after now.
func expired(t, now time.Time) bool { return !t.IsZero() && !t.After(now) }
