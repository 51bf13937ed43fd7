package cli

import (
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/drift"
)

// TestRevertOnlyConstructPath: revert --only takes the names check prints
// (OrdersQueue.*, a construct path), as ignore --path does, and reverts
// the queue and nothing else; a glob that names nothing is exit 2 naming
// the candidates, with nothing written.
func TestRevertOnlyConstructPath(t *testing.T) {
	env := demoEnv(t)
	queueDrift := func(rep jsonReport) []drift.Finding {
		var out []drift.Finding
		for _, s := range rep.Stacks {
			for _, f := range s.Findings {
				if f.Tier.IsDrift() && f.ResourceType == "AWS::SQS::Queue" && strings.HasSuffix(f.ConstructPath, "/OrdersQueue/Resource") {
					out = append(out, f)
				}
			}
		}
		return out
	}
	before, _, _ := env.checkJSON("--all")
	if len(queueDrift(before)) == 0 {
		t.Fatalf("the demo world's OrdersQueue has no drift to revert: %v", before.briefs())
	}
	otherDrift := before.Drifted - len(queueDrift(before))

	out, errs, code := env.run("revert", "--all", "--yes", "--only", "NoSuchQueue.*")
	if code != ExitError || !strings.Contains(errs, `--only "NoSuchQueue.*" names no resource or finding`) || !strings.Contains(errs, "OrdersQueue.") {
		t.Fatalf("revert --only NoSuchQueue.*: exit %d, want 2 naming the candidates\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	if after, _, _ := env.checkJSON("--all"); after.Drifted != before.Drifted {
		t.Fatalf("a filter naming nothing wrote something: %d drifts before, %d after", before.Drifted, after.Drifted)
	}

	out, errs, code = env.run("revert", "--all", "--yes", "--only", "OrdersQueue.*")
	if code == ExitError || !strings.Contains(out, "reverted: OrdersQueue") {
		t.Fatalf("revert --only OrdersQueue.*: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	after, _, _ := env.checkJSON("--all")
	if left := queueDrift(after); len(left) != 0 {
		t.Errorf("the queue still drifts after revert --only OrdersQueue.*: %+v", left)
	}
	if after.Drifted != otherDrift {
		t.Errorf("revert --only OrdersQueue.* touched other drift: %d drifts left, want %d", after.Drifted, otherDrift)
	}
}
