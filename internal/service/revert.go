package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/realdrift/realdrift/internal/baseline"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/revert"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/statemachine"
)

// The revert's run-state keys, under the run id of the execution's name:
//
//	revert-plan.<stack>          the plan, the desired model it was built from
//	approval                     the task token and the link code's hash
//	decision                     who decided, once the decision was sent
//	revert-write.<stack>.<n>     the writes of the plan's resource n
//	revert-outcomes.<stack>      each item's outcome after the re-check
//	revert-audit.<stack>         the audit item (kept AuditRetention), in
//	                             the store's write-once audit partition
const (
	keyRevertPlan     = "revert-plan."
	keyApproval       = "approval"
	keyDecision       = "decision"
	keyRevertWrite    = "revert-write."
	keyRevertOutcomes = "revert-outcomes."
	keyRevertAudit    = "revert-audit."
)

// RevertStateTTL is how long a revert's run state lives: past the
// approval window (the definition's 24-hour approval timeout) and the
// execution's own limit.
const RevertStateTTL = 7 * 24 * time.Hour

// AuditRetention is how long a revert's audit item is kept.
const AuditRetention = 400 * 24 * time.Hour

// ErrRevertOff reports a revert step in a deployment without the member
// revert role: the read role never writes.
var ErrRevertOff = errors.New("reverts are off: no revert role is configured (enable the member revert role and set " + EnvRevertRoleName + ")")

// revertPlanState is the stored plan and what the writes need with it.
type revertPlanState struct {
	Request   statemachine.RevertInput `json:"request"`
	Plan      *revert.Plan             `json:"plan"`
	Desired   *scan.Desired            `json:"desired"`
	PlannedAt time.Time                `json:"plannedAt"`
}

// RevertPlan is the revert-plan function: it checks the stack afresh
// through the read role (scan.Check, as `realdrift check` does),
// reconciles the findings with the stored baseline and ignore rules, builds
// the plan of the chosen findings (revert.Build, the CLI's own planner) and
// stores it with the desired model. A request that names neither findings
// nor all is refused: nothing is reverted by default.
func (s *Service) RevertPlan(ctx context.Context, in statemachine.RevertPlanTask) (statemachine.RevertPlanned, error) {
	req := in.Request
	stack := req.Ref()
	switch {
	case in.RunID == "":
		return statemachine.RevertPlanned{}, errors.New("revert-plan: no run id")
	case stack.Account == "" || stack.Region == "" || stack.Name == "":
		return statemachine.RevertPlanned{}, fmt.Errorf("revert-plan: the input needs account, region and stack (got %+v)", stack)
	case !req.All && len(req.Findings) == 0:
		return statemachine.RevertPlanned{}, errors.New("revert-plan: choose the findings to revert (findings: [LOGICALID.PATH glob...]) or all: true")
	case req.All && len(req.Findings) > 0:
		return statemachine.RevertPlanned{}, errors.New("revert-plan: findings and all exclude each other")
	}
	key := stateKey(keyRevertPlan, stack)
	var ps revertPlanState
	ok, err := s.getJSON(ctx, in.RunID, key, &ps)
	if err != nil {
		return statemachine.RevertPlanned{}, stepError(err)
	}
	if !ok {
		// A retried plan answers with the first plan: an approval, if any,
		// is for what was stored.
		if ps, err = s.plan(ctx, stack, req); err != nil {
			return statemachine.RevertPlanned{}, stepError(err)
		}
		if err := s.putRevert(ctx, in.RunID, key, ps); err != nil {
			return statemachine.RevertPlanned{}, stepError(err)
		}
	}
	return statemachine.RevertPlanned{
		RunID: in.RunID, Stack: stack, Key: key, Items: len(ps.Plan.Items), NotRevertable: len(ps.Plan.NotRevertable),
		Resources: indexes(len(resourceGroups(ps.Plan))), DryRun: req.DryRun,
	}, nil
}

// plan checks the stack and plans its revert.
func (s *Service) plan(ctx context.Context, stack drift.StackRef, req statemachine.RevertInput) (revertPlanState, error) {
	in, d, err := s.recheck(ctx, stack)
	if err != nil {
		return revertPlanState{}, err
	}
	p, err := revert.Build(in, revert.Options{Only: req.Findings, CloudControlTypes: s.set.RevertTypes})
	if err != nil {
		return revertPlanState{}, fmt.Errorf("plan the revert of %s: %w", stack, err)
	}
	return revertPlanState{Request: req, Plan: p, Desired: d, PlannedAt: s.now().UTC()}, nil
}

// recheck runs the whole check of one stack in-process through the read
// role and returns its reconciled state as the planner takes it.
func (s *Service) recheck(ctx context.Context, stack drift.StackRef) (revert.Input, *scan.Desired, error) {
	c := s.clients(stack.Account, stack.Region)
	src, err := c.FactsSource(false)
	if err != nil {
		return revert.Input{}, nil, err
	}
	res, err := scan.Check(ctx, c, stack, scan.Options{Concurrency: s.set.Concurrency, Schema: src})
	if err != nil {
		return revert.Input{}, nil, fmt.Errorf("check %s: %w", stack, err)
	}
	facts, err := scan.LookupFacts(ctx, src, res.Desired, s.set.Concurrency)
	if err != nil {
		return revert.Input{}, nil, err
	}
	b, _, err := baseline.LoadStored(ctx, s.store, stack)
	if err != nil {
		return revert.Input{}, nil, fmt.Errorf("baseline of %s: %w", stack, err)
	}
	rules, err := s.ignoreRules(ctx)
	if err != nil {
		return revert.Input{}, nil, fmt.Errorf("ignore rules: %w", err)
	}
	findings := Reconcile(res.Desired, res.Findings, b, rules)
	return revert.Input{
		Stack: stack, Findings: findings, Baseline: b, Resources: revert.Resources(res.Desired, res.Lives), Facts: facts,
	}, res.Desired, nil
}

// resourceGroups splits the plan's items by the resource they write (the
// write Map's items), in plan order.
func resourceGroups(p *revert.Plan) [][]revert.Item {
	var out [][]revert.Item
	at := map[string]int{}
	for _, it := range p.Items {
		k := it.LogicalID + "|" + it.PhysicalID
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], it)
	}
	return out
}

func indexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// putRevert stores revert state, kept RevertStateTTL.
func (s *Service) putRevert(ctx context.Context, runID, key string, v any) error {
	return s.putJSONFor(ctx, runID, key, v, RevertStateTTL)
}

// putJSONFor stores v as run state under key, kept for ttl.
func (s *Service) putJSONFor(ctx context.Context, runID, key string, v any, ttl time.Duration) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode state %s: %w", key, err)
	}
	return s.store.PutState(ctx, runID, key, b, s.now().Add(ttl))
}

// loadPlan reads a stored plan, numbers kept exact.
func (s *Service) loadPlan(ctx context.Context, runID, key string) (revertPlanState, error) {
	var ps revertPlanState
	b, err := s.store.GetState(ctx, runID, key)
	if err != nil {
		return ps, fmt.Errorf("run %s: plan %s: %w", runID, key, err)
	}
	if err := decodeNumbers(b, &ps); err != nil {
		return ps, fmt.Errorf("decode plan %s: %w", key, err)
	}
	if ps.Plan == nil || ps.Desired == nil {
		return ps, fmt.Errorf("run %s: plan %s is incomplete", runID, key)
	}
	return ps, nil
}
