package statemachinetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/lambdarouter"
	"github.com/realdrift/realdrift/statemachine"
)

// Batch sizes the Fake uses to split a stack's resources and parents.
const (
	ReadBatchSize   = 20
	ParentBatchSize = 10
)

// Stack is one stack of the Fake's world and how it behaves.
type Stack struct {
	Ref drift.StackRef
	// Resources is the number of declared resources (0 means 3).
	Resources int
	// FailLoad makes load-desired fail with errorType AccessDenied.
	FailLoad bool
	// ThrottleOnce makes the first read-resources call for the stack fail
	// with errorType Throttled.
	ThrottleOnce bool
	// Unchanged makes persist report the findings as unchanged.
	Unchanged bool
	// Drift is the number of drift findings classify reports.
	Drift int
	// SlowRead makes every read-resources call for the stack take this
	// long (real time).
	SlowRead time.Duration
}

// Fake is an in-memory stand-in for the service's Lambda handlers. Set the
// world (Accounts, FailAccounts) before serving; read the record after the
// execution ends.
type Fake struct {
	// Accounts maps an account id to its stacks.
	Accounts map[string][]Stack
	// FailAccounts lists accounts whose stacks cannot be listed.
	FailAccounts map[string]bool
	// Targets is where discover writes each account-region's stack list
	// (a JSON array of StackRef), for the sweep's Stacks Map to read with
	// its ItemReader, as the service does with a targets bucket.
	Targets *S3

	mu        sync.Mutex
	calls     map[string]int
	throttled map[string]bool
	issued    map[string]string // store key → stack key, as issued
	outcome   map[string]string // stack key → checked | failed
	changed   map[string]bool   // stack key → findings changed
	counts    statemachine.Counts
	acctFail  []string
	notified  []statemachine.NotifyTask
	runs      map[string]*run
}

type run struct {
	accounts int
	stacks   int
	closed   bool
}

// AccessDenied is the error the Fake's failing handlers return.
type AccessDenied struct{ msg string }

func (e *AccessDenied) Error() string { return e.msg }

func stackKey(s drift.StackRef) string { return s.Account + "/" + s.Region + "/" + s.Name }

func (f *Fake) init() {
	if f.calls == nil {
		f.calls = map[string]int{}
		f.throttled = map[string]bool{}
		f.issued = map[string]string{}
		f.outcome = map[string]string{}
		f.changed = map[string]bool{}
		f.counts = statemachine.Counts{}
		f.runs = map[string]*run{}
	}
}

// Register serves the Fake's handlers (every function but trigger) on r.
func (f *Fake) Register(r *lambdarouter.Router) error {
	f.mu.Lock()
	f.init()
	f.mu.Unlock()
	handlers := map[string]any{
		statemachine.FunctionDiscover:          f.discover,
		statemachine.FunctionLoadDesired:       f.loadDesired,
		statemachine.FunctionReadResources:     f.readResources,
		statemachine.FunctionResolve:           f.resolve,
		statemachine.FunctionEnumerateChildren: f.enumerateChildren,
		statemachine.FunctionClassify:          f.classify,
		statemachine.FunctionPersist:           f.persist,
		statemachine.FunctionNotify:            f.notify,
	}
	for name, h := range handlers {
		if err := r.Handle(name, h); err != nil {
			return err
		}
	}
	return nil
}

func (f *Fake) call(name string) {
	f.mu.Lock()
	f.calls[name]++
	f.mu.Unlock()
}

func (f *Fake) stack(ref drift.StackRef) (Stack, error) {
	for _, s := range f.Accounts[ref.Account] {
		if s.Ref == ref {
			return s, nil
		}
	}
	return Stack{}, fmt.Errorf("no stack %s in the world", ref)
}

func needRun(runID string) error {
	if runID == "" {
		return errors.New("contract: runId is empty")
	}
	return nil
}

func batches(n, size int) []int {
	out := []int{}
	for i := 0; i*size < n; i++ {
		out = append(out, i)
	}
	return out
}

func (f *Fake) discover(ctx context.Context, in statemachine.DiscoverTask) (any, error) {
	f.call(statemachine.FunctionDiscover)
	if err := needRun(in.RunID); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.runs[in.RunID]
	if in.Account == "" {
		accounts := make([]string, 0, len(f.Accounts)+len(f.FailAccounts))
		seen := map[string]bool{}
		for a := range f.Accounts {
			accounts, seen[a] = append(accounts, a), true
		}
		for a := range f.FailAccounts {
			if !seen[a] {
				accounts = append(accounts, a)
			}
		}
		sort.Strings(accounts)
		f.runs[in.RunID] = &run{accounts: len(accounts)}
		return statemachine.DiscoveredAccounts{Accounts: accounts, AccountsAtOnce: 10}, nil
	}
	if r == nil {
		return nil, fmt.Errorf("contract: run %s was not opened", in.RunID)
	}
	if f.FailAccounts[in.Account] {
		return nil, &AccessDenied{msg: "cannot assume the read role in " + in.Account}
	}
	if f.Targets == nil {
		return nil, errors.New("the Fake has no Targets bucket to write the stack lists to")
	}
	if in.Results != nil {
		return f.largeStacks(ctx, in)
	}
	// One entry per region, in the order the account's stacks name them.
	var out statemachine.DiscoveredTargets
	at := map[string]int{}
	for _, s := range f.Accounts[in.Account] {
		i, ok := at[s.Ref.Region]
		if !ok {
			i = len(out.Regions)
			at[s.Ref.Region] = i
			out.Regions = append(out.Regions, statemachine.RegionTargets{Region: s.Ref.Region})
		}
		out.Regions[i].Targets = append(out.Regions[i].Targets, s.Ref)
		out.Regions[i].Stacks++
		r.stacks++
	}
	for i, rt := range out.Regions {
		prefix := fmt.Sprintf("runs/%s/%s/%s/", in.RunID, in.Account, rt.Region)
		b, err := json.Marshal(rt.Targets)
		if err != nil {
			return nil, err
		}
		if err := f.Targets.Put(ctx, prefix+"targets.json", b); err != nil {
			return nil, err
		}
		out.Regions[i].Bucket, out.Regions[i].Key, out.Regions[i].ResultsPrefix, out.Regions[i].Targets = f.Targets.Bucket, prefix+"targets.json", prefix+"results", nil
	}
	return out, nil
}

// largeStacks lists what the Stacks Map Run of in.Region left to the
// LargeStacks Map, from its results, in the order of the region's list.
func (f *Fake) largeStacks(ctx context.Context, in statemachine.DiscoverTask) (statemachine.RegionTargets, error) {
	prefix := fmt.Sprintf("runs/%s/%s/%s/", in.RunID, in.Account, in.Region)
	read := func(key string, v any) error { return f.getJSON(ctx, key, v) }
	large, err := statemachine.LargeStacks(read, in.Results.Key, prefix+"targets.json")
	if err != nil {
		return statemachine.RegionTargets{}, err
	}
	if large == nil {
		large = []drift.StackRef{}
	}
	b, err := json.Marshal(large)
	if err != nil {
		return statemachine.RegionTargets{}, err
	}
	if err := f.Targets.Put(ctx, prefix+"large.json", b); err != nil {
		return statemachine.RegionTargets{}, err
	}
	return statemachine.RegionTargets{Region: in.Region, Stacks: len(large), Bucket: f.Targets.Bucket, Key: prefix + "large.json", ResultsPrefix: prefix + "results-large"}, nil
}

func (f *Fake) getJSON(ctx context.Context, key string, v any) error {
	b, err := f.Targets.Get(ctx, key)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	return nil
}

func (f *Fake) loadDesired(_ context.Context, in statemachine.StackTask) (statemachine.Desired, error) {
	f.call(statemachine.FunctionLoadDesired)
	if err := needRun(in.RunID); err != nil {
		return statemachine.Desired{}, err
	}
	s, err := f.stack(in.Stack)
	if err != nil {
		return statemachine.Desired{}, err
	}
	if s.FailLoad {
		return statemachine.Desired{}, &AccessDenied{msg: "cloudformation:GetTemplate denied for " + in.Stack.Name}
	}
	n := s.Resources
	if n == 0 {
		n = 3
	}
	key := "desired#" + in.RunID + "#" + stackKey(in.Stack)
	f.mu.Lock()
	f.issued[key] = stackKey(in.Stack)
	f.mu.Unlock()
	return statemachine.Desired{Key: key, Resources: n, Batches: batches(n, ReadBatchSize)}, nil
}

func (f *Fake) checkKey(key string, stack drift.StackRef) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.issued[key] != stackKey(stack) {
		return fmt.Errorf("contract: key %q was not issued for stack %s", key, stack)
	}
	return nil
}

func (f *Fake) readResources(ctx context.Context, in statemachine.ReadBatch) (any, error) {
	f.call(statemachine.FunctionReadResources)
	if err := f.checkKey(in.DesiredKey, in.Stack); err != nil {
		return nil, err
	}
	s, err := f.stack(in.Stack)
	if err != nil {
		return nil, err
	}
	if s.SlowRead > 0 {
		select {
		case <-time.After(s.SlowRead):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if s.ThrottleOnce && !f.throttled[stackKey(in.Stack)] {
		f.throttled[stackKey(in.Stack)] = true
		return nil, &statemachine.Throttled{Err: errors.New("cloudcontrol: Rate exceeded")}
	}
	return map[string]int{"batch": in.Batch, "read": ReadBatchSize}, nil
}

func (f *Fake) resolve(_ context.Context, in statemachine.ResolveTask) (statemachine.Resolved, error) {
	f.call(statemachine.FunctionResolve)
	if err := f.checkKey(in.DesiredKey, in.Stack); err != nil {
		return statemachine.Resolved{}, err
	}
	s, err := f.stack(in.Stack)
	if err != nil {
		return statemachine.Resolved{}, err
	}
	parents := s.Resources / 4
	key := "resolved#" + in.RunID + "#" + stackKey(in.Stack)
	f.mu.Lock()
	f.issued[key] = stackKey(in.Stack)
	f.mu.Unlock()
	return statemachine.Resolved{Key: key, ParentBatches: batches(parents, ParentBatchSize)}, nil
}

func (f *Fake) enumerateChildren(_ context.Context, in statemachine.EnumerateBatch) (any, error) {
	f.call(statemachine.FunctionEnumerateChildren)
	if err := f.checkKey(in.ResolvedKey, in.Stack); err != nil {
		return nil, err
	}
	return map[string]int{"batch": in.Batch, "children": 2}, nil
}

func (f *Fake) classify(_ context.Context, in statemachine.ClassifyTask) (statemachine.Classified, error) {
	f.call(statemachine.FunctionClassify)
	if err := f.checkKey(in.DesiredKey, in.Stack); err != nil {
		return statemachine.Classified{}, err
	}
	if err := f.checkKey(in.ResolvedKey, in.Stack); err != nil {
		return statemachine.Classified{}, err
	}
	s, err := f.stack(in.Stack)
	if err != nil {
		return statemachine.Classified{}, err
	}
	key := "findings#" + in.RunID + "#" + stackKey(in.Stack)
	f.mu.Lock()
	f.issued[key] = stackKey(in.Stack)
	f.mu.Unlock()
	return statemachine.Classified{Key: key, Counts: statemachine.Counts{"drift": s.Drift, "unrecorded": 1}}, nil
}

func (f *Fake) persist(_ context.Context, in statemachine.PersistTask) (any, error) {
	f.call(statemachine.FunctionPersist)
	if err := needRun(in.RunID); err != nil {
		return nil, err
	}
	switch in.Action {
	case statemachine.ActionRecordStack:
		if in.Stack == nil {
			return nil, errors.New("contract: record-stack without stack")
		}
		if err := f.checkKey(in.FindingsKey, *in.Stack); err != nil {
			return nil, err
		}
		s, err := f.stack(*in.Stack)
		if err != nil {
			return nil, err
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		f.outcome[stackKey(*in.Stack)] = "checked"
		f.changed[stackKey(*in.Stack)] = !s.Unchanged
		for k, v := range in.Counts {
			f.counts[k] += v
		}
		return statemachine.Persisted{Changed: !s.Unchanged}, nil
	case statemachine.ActionRecordFailure:
		if in.Error == "" {
			return nil, errors.New("contract: record-failure without error")
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		switch {
		case in.Stack != nil:
			f.outcome[stackKey(*in.Stack)] = "failed"
		case in.Account != "":
			f.acctFail = append(f.acctFail, in.Account+": "+in.Error)
		default:
			return nil, errors.New("contract: record-failure without stack or account")
		}
		return map[string]bool{"recorded": true}, nil
	case statemachine.ActionCloseRun:
		f.mu.Lock()
		defer f.mu.Unlock()
		r := f.runs[in.RunID]
		if r == nil || r.closed {
			return nil, fmt.Errorf("contract: run %s not open", in.RunID)
		}
		r.closed = true
		sum := statemachine.RunSummary{RunID: in.RunID, Accounts: r.accounts, AccountsFailed: len(f.acctFail), Stacks: r.stacks, Counts: statemachine.Counts{}}
		for k, o := range f.outcome {
			switch o {
			case "checked":
				sum.Checked++
				if f.changed[k] {
					sum.Changed++
				}
			case "failed":
				sum.Failed++
			}
		}
		sum.Missing = sum.Stacks - sum.Checked - sum.Failed
		for k, v := range f.counts {
			sum.Counts[k] = v
		}
		return sum, nil
	}
	return nil, fmt.Errorf("contract: unknown persist action %q", in.Action)
}

func (f *Fake) notify(_ context.Context, in statemachine.NotifyTask) (any, error) {
	f.call(statemachine.FunctionNotify)
	if err := needRun(in.RunID); err != nil {
		return nil, err
	}
	switch in.Kind {
	case statemachine.KindStack:
		if in.Stack == nil || in.FindingsKey == "" {
			return nil, errors.New("contract: stack notification without stack or findings key")
		}
	case statemachine.KindSweep:
		if in.Summary == nil || in.Summary.RunID != in.RunID {
			return nil, errors.New("contract: sweep notification without its run's summary")
		}
	default:
		return nil, fmt.Errorf("contract: unknown notify kind %q", in.Kind)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.notified = append(f.notified, in)
	return map[string]bool{"sent": true}, nil
}

// Record is what the Fake observed.
type Record struct {
	Calls           map[string]int
	Outcomes        map[string]string // account/region/stack → checked | failed
	AccountFailures []string
	// Notified lists stack notifications as account/region/stack and sweep
	// notifications as "sweep:<runId>", sorted.
	Notified []string
}

// Record returns a copy of what the Fake observed so far.
func (f *Fake) Record() Record {
	f.mu.Lock()
	defer f.mu.Unlock()
	rec := Record{Calls: map[string]int{}, Outcomes: map[string]string{}, AccountFailures: append([]string(nil), f.acctFail...)}
	for k, v := range f.calls {
		rec.Calls[k] = v
	}
	for k, v := range f.outcome {
		rec.Outcomes[k] = v
	}
	for _, n := range f.notified {
		if n.Kind == statemachine.KindSweep {
			rec.Notified = append(rec.Notified, "sweep:"+n.RunID)
		} else {
			rec.Notified = append(rec.Notified, stackKey(*n.Stack))
		}
	}
	sort.Strings(rec.Notified)
	sort.Strings(rec.AccountFailures)
	return rec
}
