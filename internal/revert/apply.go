package revert

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/smithy-go"
	"golang.org/x/sync/errgroup"

	"github.com/realdrift/realdrift/internal/live"
)

// writer is what Apply writes through; *live.Writers is one.
type writer interface {
	UpdateCloudControl(ctx context.Context, typ, id string, ops []byte, token string) error
	WriteSDK(ctx context.Context, t live.Target, ops []byte, prior any) error
	DeleteChild(ctx context.Context, typ, id string, model map[string]any, token string) error
}

var _ writer = (*live.Writers)(nil)

// Default retry settings without a --wait deadline.
const (
	DefaultAttempts = 3
	firstBackoff    = time.Second
	maxBackoff      = 30 * time.Second
)

// ApplyOptions tune Apply. Time comes in as parameters.
type ApplyOptions struct {
	// Wait, when positive, retries transient failures until this long
	// after the run started (one deadline for the whole run); otherwise a
	// write gets DefaultAttempts attempts.
	Wait time.Duration
	// Now is the clock; Sleep waits (both required when Wait > 0 or a
	// retry happens; nil Sleep returns at once, nil Now is a frozen clock).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// Resources give the writers the declared properties they need.
	Resources []Resource
	// Progress, when set, gets one line per retry (called from several
	// goroutines, one at a time).
	Progress func(line string)
	// Concurrency bounds the resources written at once (1 when ≤ 0).
	Concurrency int
}

// Write is the outcome of writing one item.
type Write struct {
	ID       string `json:"id"`
	Attempts int    `json:"attempts"`
	// Err is the error of the last attempt; nil when the write succeeded.
	Err error `json:"-"`
}

// group is the items written in one call: one resource, one mechanism.
type group struct {
	key   string
	items []Item
}

// groups batches the plan's items per resource and call, in plan order.
func groups(p *Plan) []group {
	var out []group
	at := map[string]int{}
	for _, it := range p.Items {
		k := it.Kind.String() + "|" + it.ResourceType + "|" + it.Identifier + "|" + it.LogicalID + "|" + it.Call
		switch {
		case it.List != "":
			// The members of one attachment list: one write of the list.
			k += "|" + it.List
		case it.Kind == Delete || (it.Kind == Writer && isPropWrite(it)):
			k += "|" + it.ID
		}
		i, ok := at[k]
		if !ok {
			at[k] = len(out)
			out = append(out, group{key: k})
			i = len(out) - 1
		}
		out[i].items = append(out[i].items, it)
	}
	return out
}

// isPropWrite reports whether an item is written per entry by a property
// writer (its own write); the keys of an ELB attribute bag are not: the
// keys of one resource share one write.
func isPropWrite(it Item) bool {
	top := topKey(it.Path)
	_, ok := live.PropWriter(it.ResourceType, top)
	return ok && !live.AttributeBag(it.ResourceType, top)
}

// Apply writes every item of p, one resource at a time, retrying
// transient failures. It returns one Write per item, in plan order.
func Apply(ctx context.Context, w writer, p *Plan, opt ApplyOptions) []Write {
	now := opt.Now
	if now == nil {
		t0 := time.Unix(0, 0)
		now = func() time.Time { return t0 }
	}
	sleep := opt.Sleep
	if sleep == nil {
		sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	}
	var deadline time.Time
	if opt.Wait > 0 {
		deadline = now().Add(opt.Wait)
	}
	declared := map[string]map[string]any{}
	for _, r := range opt.Resources {
		declared[r.LogicalID] = r.Declared
	}
	byID := map[string]Write{}
	var mu sync.Mutex
	if progress := opt.Progress; progress != nil {
		opt.Progress = func(line string) { mu.Lock(); defer mu.Unlock(); progress(line) }
	}
	g := new(errgroup.Group)
	g.SetLimit(max(opt.Concurrency, 1))
	for _, grp := range groups(p) {
		g.Go(func() error {
			attempts, err := retry(ctx, opt, now, sleep, deadline, grp, func(attempt int) error {
				return writeGroup(ctx, w, p, grp, declared, attempt)
			})
			mu.Lock()
			defer mu.Unlock()
			for _, it := range grp.items {
				byID[it.ID] = Write{ID: it.ID, Attempts: attempts, Err: err}
			}
			return nil
		})
	}
	_ = g.Wait()
	out := make([]Write, 0, len(p.Items))
	for _, it := range p.Items {
		out = append(out, byID[it.ID])
	}
	return out
}

func retry(ctx context.Context, opt ApplyOptions, now func() time.Time, sleep func(context.Context, time.Duration) error,
	deadline time.Time, g group, write func(attempt int) error) (int, error) {
	backoff := firstBackoff
	for attempt := 1; ; attempt++ {
		err := write(attempt)
		if err == nil || !Transient(err) || ctx.Err() != nil {
			return attempt, err
		}
		if deadline.IsZero() && attempt >= DefaultAttempts {
			return attempt, err
		}
		if !deadline.IsZero() {
			left := deadline.Sub(now())
			if left <= 0 {
				return attempt, err
			}
			if backoff > left {
				backoff = left
			}
		}
		if opt.Progress != nil {
			opt.Progress(fmt.Sprintf("↻ %s: %s — retry %d (next in %s)", g.items[0].ID, short(err), attempt, backoff))
		}
		if serr := sleep(ctx, backoff); serr != nil {
			return attempt, err
		}
		backoff += firstBackoff
		if backoff > maxBackoff {
			backoff = maxBackoff
		}
	}
}

func short(err error) string {
	s := err.Error()
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

// writeGroup makes one attempt at one group's write.
func writeGroup(ctx context.Context, w writer, p *Plan, g group, declared map[string]map[string]any, attempt int) error {
	first := g.items[0]
	token := clientToken(p, g.key, attempt)
	switch first.Kind {
	case Delete:
		model, _ := first.Current.(map[string]any)
		return w.DeleteChild(ctx, first.ResourceType, first.Identifier, model, token)
	case CloudControl, Writer:
		var ops []Op
		lists := map[string]bool{}
		for _, it := range g.items {
			if it.List != "" {
				// The items of one list carry the same whole-list patch.
				if lists[it.List] {
					continue
				}
				lists[it.List] = true
			}
			ops = append(ops, it.Patch...)
		}
		doc, err := json.Marshal(ops)
		if err != nil {
			return fmt.Errorf("patch of %s: %w", first.LogicalID, err)
		}
		if first.Kind == CloudControl {
			return w.UpdateCloudControl(ctx, first.ResourceType, first.Identifier, doc, token)
		}
		t := live.Target{Type: first.ResourceType, LogicalID: first.LogicalID, PhysicalID: first.PhysicalID, Identifier: first.Identifier, Declared: declared[first.LogicalID]}
		prior := first.Current
		if first.List != "" {
			prior = first.Prior
		}
		return w.WriteSDK(ctx, t, doc, prior)
	}
	return fmt.Errorf("item %s: unknown kind %s", first.ID, first.Kind)
}

// clientToken is a deterministic Cloud Control client token per group and
// attempt: a retried call of one attempt is idempotent, a new attempt is a
// new request.
func clientToken(p *Plan, key string, attempt int) string {
	sum := sha256.Sum256([]byte(p.Stack.Account + "|" + p.Stack.Region + "|" + p.Stack.Name + "|" + key))
	return hex.EncodeToString(sum[:16]) + "-" + strconv.Itoa(attempt)
}

// transientCodes are the error codes of failures that pass: throttling,
// a resource busy with another operation, a service's internal error.
func transientCodes() map[string]bool {
	return map[string]bool{
		"Throttling": true, "ThrottlingException": true, "TooManyRequestsException": true, "RequestLimitExceeded": true,
		"SlowDown": true, "ConcurrentModification": true, "ConcurrentModificationException": true,
		"ResourceConflictException": true, "ResourceConflict": true, "OperationAbortedException": true,
		"NotStabilized": true, "ServiceInternalError": true, "ServiceTimeout": true, "NetworkFailure": true,
		"InternalFailure": true, "InternalError": true, "ServiceUnavailable": true, "ServiceException": true,
		"ServiceFailure": true, "GeneralServiceException": true, "PriorRequestNotComplete": true,
	}
}

// Transient reports whether a write failure may pass if the write is made
// again: by error code (an API error, or a Cloud Control request's handler
// code), or by the text of a "mid-operation" message.
func Transient(err error) bool {
	var re *live.RequestError
	if errors.As(err, &re) {
		return transientCodes()[re.Code] || midOperation(re.Message)
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return transientCodes()[ae.ErrorCode()] || midOperation(ae.ErrorMessage())
	}
	return false
}

func midOperation(msg string) bool {
	m := strings.ToLower(msg)
	for _, s := range []string{"in progress", "concurrent", "not in the available state", "currently being modified", "try again"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// SleepContext waits d or until ctx ends: the Sleep the CLI and the service
// give Apply.
func SleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
