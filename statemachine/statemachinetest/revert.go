package statemachinetest

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/realdrift/realdrift/internal/lambdarouter"
	"github.com/realdrift/realdrift/statemachine"
)

// RevertFake stands in for the revert definition's handlers (and notify's
// revert kind). It checks every reference it is handed, as Fake does, and
// records what ran. Set the behaviour before serving.
type RevertFake struct {
	// Resources is the number of resources the plan writes (Items: one
	// per resource).
	Resources int
	// FailPlan makes revert-plan fail with errorType AccessDenied.
	FailPlan bool
	// FailWrite lists resources whose revert-write fails as a Lambda error
	// (not a recorded write failure).
	FailWrite map[int]bool

	mu       sync.Mutex
	calls    map[string]int
	written  []int
	audits   []statemachine.RevertAuditTask
	tokens   []string
	notified []string
}

// Register serves the revert handlers on r.
func (f *RevertFake) Register(r *lambdarouter.Router) error {
	f.mu.Lock()
	if f.calls == nil {
		f.calls = map[string]int{}
	}
	f.mu.Unlock()
	for name, h := range map[string]any{
		statemachine.FunctionRevertPlan:      f.plan,
		statemachine.FunctionRequestApproval: f.requestApproval,
		statemachine.FunctionRevertWrite:     f.write,
		statemachine.FunctionRevertConverge:  f.converge,
		statemachine.FunctionRevertAudit:     f.audit,
		statemachine.FunctionNotify:          f.notify,
	} {
		if err := r.Handle(name, h); err != nil {
			return err
		}
	}
	return nil
}

func (f *RevertFake) call(name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[name]++
}

const revertPlanKey = "revert-plan.fake"

func (f *RevertFake) plan(_ context.Context, in statemachine.RevertPlanTask) (statemachine.RevertPlanned, error) {
	f.call(statemachine.FunctionRevertPlan)
	if in.RunID == "" || in.Request.Stack == "" {
		return statemachine.RevertPlanned{}, errors.New("contract: revert-plan without run id or stack")
	}
	if f.FailPlan {
		return statemachine.RevertPlanned{}, &AccessDenied{msg: "cloudformation:GetTemplate denied for " + in.Request.Stack}
	}
	res := make([]int, f.Resources)
	for i := range res {
		res[i] = i
	}
	return statemachine.RevertPlanned{RunID: in.RunID, Stack: in.Request.Ref(), Key: revertPlanKey, Items: f.Resources, Resources: res, DryRun: in.Request.DryRun}, nil
}

func (f *RevertFake) requestApproval(_ context.Context, in statemachine.ApprovalTask) (struct{}, error) {
	f.call(statemachine.FunctionRequestApproval)
	if in.PlanKey != revertPlanKey || in.TaskToken == "" || in.Execution == "" {
		return struct{}{}, fmt.Errorf("contract: request-approval with plan key %q, token %q, execution %q", in.PlanKey, in.TaskToken, in.Execution)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tokens = append(f.tokens, in.TaskToken)
	return struct{}{}, nil
}

func (f *RevertFake) write(_ context.Context, in statemachine.RevertWriteTask) (statemachine.RevertWritten, error) {
	f.call(statemachine.FunctionRevertWrite)
	if in.PlanKey != revertPlanKey || in.Resource < 0 || in.Resource >= f.Resources {
		return statemachine.RevertWritten{}, fmt.Errorf("contract: revert-write of resource %d, plan key %q", in.Resource, in.PlanKey)
	}
	if f.FailWrite[in.Resource] {
		return statemachine.RevertWritten{}, &AccessDenied{msg: fmt.Sprintf("resource %d: the function crashed", in.Resource)}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.written = append(f.written, in.Resource)
	return statemachine.RevertWritten{Resource: in.Resource, Items: 1}, nil
}

func (f *RevertFake) converge(_ context.Context, in statemachine.RevertConvergeTask) (statemachine.RevertConverged, error) {
	f.call(statemachine.FunctionRevertConverge)
	if in.PlanKey != revertPlanKey {
		return statemachine.RevertConverged{}, fmt.Errorf("contract: revert-converge with plan key %q", in.PlanKey)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return statemachine.RevertConverged{Key: "revert-outcomes.fake", Counts: statemachine.Counts{"reverted": len(f.written), "failed": f.Resources - len(f.written)}}, nil
}

func (f *RevertFake) audit(_ context.Context, in statemachine.RevertAuditTask) (statemachine.RevertAudited, error) {
	f.call(statemachine.FunctionRevertAudit)
	if in.RunID == "" || in.Request.Stack == "" || in.Execution == "" {
		return statemachine.RevertAudited{}, errors.New("contract: revert-audit without run id, request or execution")
	}
	switch in.Status {
	case statemachine.RevertApplied:
		if in.Approval == nil || !in.Approval.Approved {
			return statemachine.RevertAudited{}, errors.New("contract: applied without an approval")
		}
	case statemachine.RevertRejected, statemachine.RevertFailed:
		if in.Error == "" {
			return statemachine.RevertAudited{}, fmt.Errorf("contract: %s without an error", in.Status)
		}
	default:
		return statemachine.RevertAudited{}, fmt.Errorf("contract: unknown status %q", in.Status)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.audits = append(f.audits, in)
	return statemachine.RevertAudited{RunID: in.RunID, Stack: in.Request.Ref(), Status: in.Status, Key: "revert-audit.fake", Counts: statemachine.Counts{}}, nil
}

func (f *RevertFake) notify(_ context.Context, in statemachine.NotifyTask) (struct{}, error) {
	f.call(statemachine.FunctionNotify)
	if in.Kind != statemachine.KindRevert || in.AuditKey != "revert-audit.fake" || in.Stack == nil {
		return struct{}{}, fmt.Errorf("contract: revert notification %+v", in)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.notified = append(f.notified, in.RunID)
	return struct{}{}, nil
}

// RevertRecord is what a RevertFake observed.
type RevertRecord struct {
	Calls map[string]int
	// Written are the resources written, sorted.
	Written []int
	Audits  []statemachine.RevertAuditTask
	// Tokens are the task tokens request-approval was given.
	Tokens   []string
	Notified []string
}

// Record returns a copy of what the fake observed.
func (f *RevertFake) Record() RevertRecord {
	f.mu.Lock()
	defer f.mu.Unlock()
	rec := RevertRecord{Calls: map[string]int{}, Written: append([]int(nil), f.written...), Audits: append([]statemachine.RevertAuditTask(nil), f.audits...),
		Tokens: append([]string(nil), f.tokens...), Notified: append([]string(nil), f.notified...)}
	for k, v := range f.calls {
		rec.Calls[k] = v
	}
	sort.Ints(rec.Written)
	return rec
}
