package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/cloudtrail"

	"github.com/realdrift/realdrift/internal/baseline"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/notify"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/who"
)

// writersRun is the run id under which the last writer of each indexed
// resource lives (writer.<stack>.<hash of the physical id>, in the
// stack's own partition), kept WriterMemory.
const writersRun = "realdrift-writers"

// WriterMemory is how long a resource's last writer is kept: the 90 days
// CloudTrail's event history covers, beyond which a lookup could not
// name it either.
const WriterMemory = who.Window

// LookupBudget bounds the time one check spends on LookupEvents calls (2
// a second per account and region), well inside the classify function's
// timeout: the drifted resources left say they were not looked up, and
// since the writers found are stored, the next check goes on from there.
const LookupBudget = 30 * time.Second

// storedWriter is a resource's last writer as the table keeps it. Drift
// is set on an answer a lookup found (a writer, or who.Settled's "no
// event names it"): the fingerprint of the resource's drift it was found
// for (notify.Fingerprint), so a later change no trigger saw (other
// drift) is looked up again rather than credited to it, and unchanged
// drift is not looked up again every sweep. A writer the trigger saw has
// none: its event is the latest change.
type storedWriter struct {
	PhysicalID string          `json:"physicalId"`
	ChangedBy  drift.ChangedBy `json:"changedBy"`
	Drift      string          `json:"drift,omitempty"`
}

func writerKey(stack drift.StackRef, physicalID string) string {
	sum := sha256.Sum256([]byte(physicalID))
	return stateKey(keyWriter, stack) + "." + hex.EncodeToString(sum[:16])
}

// knownWriter is the stored last writer of a stack's resource.
func (s *Service) knownWriter(ctx context.Context, stack drift.StackRef, physicalID string) (storedWriter, bool, error) {
	var w storedWriter
	ok, err := s.getJSON(ctx, writersRun, writerKey(stack, physicalID), &w)
	// An unknown is kept only with the drift it was looked up for.
	if err != nil || !ok || w.PhysicalID != physicalID || !w.ChangedBy.Known() && w.Drift == "" {
		return storedWriter{}, false, err
	}
	return w, true, nil
}

// rememberWriter keeps c as the last writer of a stack's resource: an
// answer a lookup found for the resource's drift fingerprint fp (also a
// settled unknown: no event names it), or the trigger's event (fp "")
// unless the one stored is more recent (events may arrive out of order).
func (s *Service) rememberWriter(ctx context.Context, stack drift.StackRef, physicalID string, c drift.ChangedBy, fp string) error {
	if fp == "" {
		// The trigger's: the most recent event wins.
		if prev, ok, err := s.knownWriter(ctx, stack, physicalID); err != nil {
			return fmt.Errorf("last writer of %s: %w", physicalID, err)
		} else if ok && (prev.ChangedBy.Time.After(c.Time) || prev.ChangedBy.EventID == c.EventID) {
			return nil
		}
	}
	b, err := json.Marshal(storedWriter{PhysicalID: physicalID, ChangedBy: c, Drift: fp})
	if err != nil {
		return fmt.Errorf("last writer of %s: %w", physicalID, err)
	}
	key := writerKey(stack, physicalID)
	return s.store.PutState(ctx, statePartition(writersRun, key), key, b, s.now().Add(WriterMemory))
}

// attribute sets ChangedBy on the stack's drifted findings (who.Drifted):
// the last writer the trigger stored for the resource when it is not
// older than the window's start (the earlier of the stack's last update
// and its baseline's record), else one LookupEvents call in the member
// account through the read role (in the region CloudTrail records the
// type's writes in), paced to its quota, within LookupBudget; the
// writers a lookup found are stored for the next check. What cannot be
// known says why on the finding; nothing here changes a tier or a
// verdict.
func (s *Service) attribute(ctx context.Context, stack drift.StackRef, d *scan.Desired, b *baseline.Baseline, findings []drift.Finding) error {
	if d == nil {
		return nil
	}
	since, what := who.WindowStart(d.LastUpdated, b.RecordedAt())
	byResource := map[string][]drift.Finding{}
	for _, f := range findings {
		if who.Drifted(f) {
			byResource[f.PhysicalID] = append(byResource[f.PhysicalID], f)
		}
	}
	if len(byResource) == 0 {
		return nil // no drift: nothing to attribute, no call
	}
	lctx, cancel := context.WithTimeout(ctx, LookupBudget)
	defer cancel()
	found := s.finder.Session().Attribute(lctx, findings, who.Stack{
		Account: stack.Account, Region: stack.Region, Since: since, SinceWhat: what,
		API: func(_ context.Context, region string) (who.LookupAPI, error) {
			return cloudtrail.NewFromConfig(s.accounts.config(stack.Account, region)), nil
		},
		// Read on the check's own context: the budget is the lookups'.
		Known: func(_ context.Context, physicalID string) (drift.ChangedBy, bool) {
			// A store that cannot be read is no answer: the lookup is.
			w, ok, _ := s.knownWriter(ctx, stack, physicalID)
			if !ok || w.Drift != "" && w.Drift != notify.Fingerprint(byResource[physicalID]) {
				return drift.ChangedBy{}, false
			}
			return w.ChangedBy, true
		},
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	var errs []error
	for id, c := range found {
		if err := s.rememberWriter(ctx, stack, id, c, notify.Fingerprint(byResource[id])); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
