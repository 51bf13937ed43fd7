package service

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/store"
)

// The run-state keys. Every key is deterministic in (run id, stack, batch),
// so a retried handler overwrites what its first attempt wrote.
//
//	run                          the sweep: accounts, start time
//	account.<acct>               one account's discovered stacks
//	account-failed.<acct>        why an account could not be listed
//	started.<stack>              when the stack's check started
//	schema.<acct>:<region>:<type> DescribeType's answer for a type the snapshot lacks
//	desired.<stack>              desired model + schema facts
//	live.<stack>.<batch>         live models of one read batch
//	reading.<stack>.<batch>      the batch's attempts and still-throttled reads
//	resolved.<stack>             re-resolved desired, pass-1.5 re-reads, parents
//	children.<stack>.<batch>     children of one parent batch
//	enumerating.<stack>.<batch>  the parent batch's attempts and still-throttled parents
//	findings.<stack>             the reconciled findings
//	persisted.<stack>            persist's decision (changed, counts, fingerprints)
//	failed.<stack>               the error a stack's check failed with
//	notified.<stack>             the fingerprint notify sent
//	writer.<stack>.<hash>        a resource's last writer (under writersRun)
//
// <stack> is <account>:<region>:<name>. A stack's keys are stored in the
// stack's own partition of the run (statePartition). One more key outlives runs: under
// the fixed run id alertsRun, alerted.<stack> holds the drift-set
// fingerprint last alerted for the stack (kept for AlertMemory); under
// writersRun, writer.<stack>.<hash> the last writer of each of the
// stack's resources the trigger saw or a lookup found (kept
// WriterMemory, writers.go).
const (
	keyRun           = "run"
	keyAccount       = "account."
	keyAccountFailed = "account-failed."
	keyStarted       = "started."
	keySchema        = "schema."
	keyDesired       = "desired."
	keyLive          = "live."
	keyReading       = "reading."
	keyResolved      = "resolved."
	keyChildren      = "children."
	keyEnumerating   = "enumerating."
	keyFindings      = "findings."
	keyPersisted     = "persisted."
	keyFailed        = "failed."
	keyAlerted       = "alerted."
	keyNotified      = "notified."
	keyWriter        = "writer."
)

// alertsRun is the run id under which the last alerted fingerprints live.
const alertsRun = "realdrift-alerts"

// AlertMemory is how long the last alerted fingerprint of a stack is kept;
// after it, the latest run's fingerprint stands in for it.
const AlertMemory = 400 * 24 * time.Hour

func stackKey(s drift.StackRef) string { return s.Account + ":" + s.Region + ":" + s.Name }

func stateKey(prefix string, s drift.StackRef) string { return prefix + stackKey(s) }

func batchKey(prefix string, s drift.StackRef, batch int) string {
	return prefix + stackKey(s) + "." + strconv.Itoa(batch)
}

// perStack are the key prefixes of one stack's check: their items live in
// the stack's own partition of the run (statePartition).
var perStack = []string{keyStarted, keyDesired, keyLive, keyReading, keyResolved, keyChildren, keyEnumerating, keyFindings, keyPersisted, keyFailed, keyNotified, keyWriter}

// statePartition is the run id under which key's item is stored: a stack's
// check state under "<run id>.<account>:<region>:<stack>" (the table's
// partition key RUN#<that>), so a sweep's state is spread over one
// partition per stack instead of piling onto one; the run-wide keys (run,
// account.*, schema.*) under the run id itself. Every reader and writer of
// run state goes through it, so the two always agree.
func statePartition(runID, key string) string {
	for _, p := range perStack {
		if rest, ok := strings.CutPrefix(key, p); ok {
			stack, _, _ := strings.Cut(rest, ".") // a stack key has no '.'; a batch follows one
			if part := runID + "." + stack; len(part) <= maxPartition {
				return part
			}
			return runID
		}
	}
	return runID
}

// maxPartition is the longest run id the store takes.
const maxPartition = 256

// putJSON stores v as run state under key.
func (s *Service) putJSON(ctx context.Context, runID, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode state %s: %w", key, err)
	}
	return s.store.PutState(ctx, statePartition(runID, key), key, b, s.now().Add(s.set.StateTTL))
}

// getState reads run state key's bytes.
func (s *Service) getState(ctx context.Context, runID, key string) ([]byte, error) {
	return s.store.GetState(ctx, statePartition(runID, key), key)
}

// getJSON reads run state key into v (numbers as json.Number when v holds
// maps of any). found is false when the state is absent.
func (s *Service) getJSON(ctx context.Context, runID, key string, v any) (found bool, err error) {
	b, err := s.getState(ctx, runID, key)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("decode state %s: %w", key, err)
	}
	return true, nil
}

// mustJSON is getJSON for state an earlier step must have written.
func (s *Service) mustJSON(ctx context.Context, runID, key string, v any) error {
	ok, err := s.getJSON(ctx, runID, key, v)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("run %s: state %s is missing (expired, or an earlier step did not run)", runID, key)
	}
	return nil
}

// startedAt returns when the stack's check started in this run, recording
// now on first use, so every retry and the failure path agree.
func (s *Service) startedAt(ctx context.Context, runID string, stack drift.StackRef) (time.Time, error) {
	var t time.Time
	ok, err := s.getJSON(ctx, runID, stateKey(keyStarted, stack), &t)
	if err != nil || ok {
		return t, err
	}
	t = s.now().UTC()
	return t, s.putJSON(ctx, runID, stateKey(keyStarted, stack), t)
}

// decodeNumbers decodes b into v keeping numbers as json.Number, as the
// store does for findings.
func decodeNumbers(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}
