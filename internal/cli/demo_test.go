package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/corpus/corpustest"
	"github.com/realdrift/realdrift/internal/deadlinetest"
)

// TestDemo runs the demo as `make demo` does and checks every section, the
// exit statuses it shows, its own exit code and its duration.
func TestDemo(t *testing.T) {
	// built-in: no --corpus, the recordings the binary embeds.
	for name, args := range map[string][]string{"recordings": {"--corpus", corpustest.Subset(t)}, "built-in": nil} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			out, errs, code := runArgs(t, append([]string{"demo"}, args...)...)
			if code != ExitOK {
				t.Fatalf("exit %d; stderr:\n%s\nstdout:\n%s", code, errs, out)
			}
			if limit := deadlinetest.Scale(t, 30*time.Second); time.Since(start) > limit {
				t.Errorf("demo took %v, want under %v", time.Since(start), limit)
			}
			sections := []string{
				"Step 1 — first check", "$ realdrift check --all\n", "[CFn-Declared Drift: 1]", "Handler.MemorySize", "[Potential Drift: 1]", "ReceiveMessageWaitTimeSeconds",
				"Step 2 — record a baseline", "$ realdrift record --all --yes", "recorded OrdersService",
				"Step 3 — three out-of-band changes", "inline policy debug-access", "MessageRetentionPeriod=60", "public-read statement",
				"Step 4 — check again", "$ realdrift check --all --fail --who\n", "PolicyDocument.Statement", "changed by dave (SDK) ", "changed by carol (console) ", "ServiceRole.Policies", "appeared since record", "changed by alice (CLI) ", "changed by bob (console) ",
				"Step 5 — ignore one finding", "added 1 ignore rule",
				"Step 6 — the JSON report", `"verdict": "drift"`, `"tier":"ignored"`,
				"Step 7 — revert the rest", "$ realdrift revert --all --dry-run", "dry run: 3 to revert, 0 not revertable; nothing written",
				"$ realdrift revert --all --yes", "revert: 3 reverted, 0 still drifted, 0 failed, 0 not revertable",
				"Step 8 — check once more", "$ realdrift check --all --fail\n", "0 with drift", "[exit status 0]",
				// Step 9: check finds the nested stack's drift; diff shows a
				// replacement, its propagation to a dependent, an in-place
				// update of the drifted property with its drift note, and an
				// Outputs-only change of another stack.
				"Step 9 — what the next deploy changes",
				"$ realdrift check --region eu-west-1 --all --hide-clean --fail\n",
				"Nested stack: OrdersAlerts-BacklogStack-", "BacklogQueue.VisibilityTimeout (AWS::SQS::Queue): template 60 → live 300",
				"total: 4 stacks — 1 with drift (1 finding), 0 with potential drift (0), 3 clean, 0 errors", "[exit status 1]",
				"$ realdrift diff --region eu-west-1 --app ", " --all --recursive --fail\n",
				"Stack OrdersAlerts\n", "[~] AWS::CloudFormation::Stack BacklogStack", "TemplateURL: ",
				"Nested stack: OrdersAlerts~BacklogStack (OrdersAlerts-BacklogStack-",
				"[~] AWS::SQS::Queue BacklogDeadLetters", " replace [stateful",
				`QueueName: "orders-backlog-dlq" → "orders-backlog-dead-letters" (requires replacement)`,
				"[~] AWS::SQS::Queue BacklogQueue", "RedrivePolicy: ", "[replacement propagated from BacklogDeadLetters]",
				"VisibilityTimeout: 60 → 120", "drift: VisibilityTimeout drifted (live 300): the deploy will overwrite this live value",
				"Stack OrdersData\nOutputs\n[+] AssetsBucketArn\n", "[+] OrdersData:AssetsBucketArn [export]",
				"0 to create, 0 to update, 0 to delete\n2 output(s) to add, 0 to change, 0 to remove\n", "[exit status 1]",
				// Step 10: the read policy lacks a permission: INCOMPLETE,
				// never CLEAN, exit 3; granted back, clean.
				"Step 10 — a permission missing", "$ realdrift check OrdersService --fail\n", "cloudformation:GetResource",
				"result: INCOMPLETE (", " not read)", "[exit status 3]", "The fix: grant cloudformation:GetResource back",
				"result: CLEAN", "[exit status 0]",
				"Done in",
			}
			at := 0
			for _, s := range sections {
				i := strings.Index(out[at:], s)
				if i < 0 {
					t.Errorf("demo output lacks %q after offset %d:\n%s", s, at, out)
					return
				}
				at += i + len(s)
			}
			statuses := []string{}
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, "[exit status ") {
					statuses = append(statuses, line)
				}
			}
			want := "[exit status 0] [exit status 0] [exit status 1] [exit status 0] [exit status 1] [exit status 0] [exit status 0] [exit status 0] [exit status 1] [exit status 1] [exit status 3] [exit status 0]"
			if got := strings.Join(statuses, " "); got != want {
				t.Errorf("exit statuses shown:\n got %s\nwant %s", got, want)
			}
		})
	}
}
