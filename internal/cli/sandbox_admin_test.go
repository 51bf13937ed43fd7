package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestSandboxAdminVerbs: sandbox change / delete / add / calls drive a
// running sandbox; a change with no --account lands in the account the
// caller's AWS_ACCESS_KEY_ID acts as (here not the world's default).
func TestSandboxAdminVerbs(t *testing.T) {
	w := appWorld(t, map[string][]appResource{"App": {
		queue("Q", "q", map[string]any{"VisibilityTimeout": 30}, nil),
		queue("Gone", "gone", nil, nil),
	}})
	const other = "222222222222"
	w.Accounts = append(w.Accounts, &sandbox.Account{ID: other, Name: "other",
		AccessKeys: []sandbox.AccessKey{{ID: "AKIATESTOTHER0000002", UserName: "ops"}},
		Regions:    []*sandbox.Region{{Name: testRegion}}})
	w.DefaultAccount = other
	e := startSandbox(t, w, testKey, testRegion)
	if _, stderr, code := e.run("record", "--yes", "App"); code != ExitOK {
		t.Fatalf("record: %d %s", code, stderr)
	}
	admin := func(args ...string) (string, string, int) {
		return runPlainEnv(e, append([]string{"sandbox"}, args...)...)
	}
	if out, errs, code := admin("change", "--type", "AWS::SQS::Queue", "--id", queueURL("q"), "--path", "VisibilityTimeout", "--value", "45"); code != ExitOK || !strings.Contains(out, "changed AWS::SQS::Queue") {
		t.Fatalf("sandbox change: exit %d\n%s\n%s", code, out, errs)
	}
	if out, errs, code := admin("delete", "--type", "AWS::SQS::Queue", "--id", queueURL("gone")); code != ExitOK {
		t.Fatalf("sandbox delete: exit %d\n%s\n%s", code, out, errs)
	}
	if out, errs, code := admin("change", "--type", "AWS::SQS::Queue", "--id", queueURL("q"), "--path", "DelaySeconds", "--value", "x"); code != ExitError || !strings.Contains(errs, "not JSON") {
		t.Errorf("bad --value: exit %d\n%s\n%s", code, out, errs)
	}
	out, _, code := e.run("check", "--fail", "App")
	if code != ExitDrift || !strings.Contains(out, "Q.VisibilityTimeout") || !strings.Contains(out, "[Deleted: 1]") {
		t.Errorf("check after the admin verbs: exit %d\n%s", code, out)
	}
	out, errs, code := admin("calls", "--reset")
	// Each call carries the SDK's attempt number; requests and retries are
	// counted apart.
	if code != ExitOK || !strings.Contains(out, "DescribeStacks") || !strings.Contains(out, `"requests"`) || !strings.Contains(out, `"attempt": 1`) {
		t.Errorf("sandbox calls: exit %d, want the calls with their attempts\n%s\n%s", code, out, errs)
	}
	if _, errs, code := runPlainEnv(e, "sandbox", "chnage"); code != ExitError || !strings.Contains(errs, "did you mean change?") {
		t.Errorf("sandbox chnage: exit %d %s", code, errs)
	}
}

// runPlainEnv runs a verb with the env's variables and AWS_ENDPOINT_URL,
// without check's --state-dir/--endpoint-url flags.
func runPlainEnv(e *sandboxEnv, args ...string) (string, string, int) {
	var out, errb strings.Builder
	getenv := func(k string) string {
		if k == "AWS_ENDPOINT_URL" {
			return e.url
		}
		return e.getenv(k)
	}
	code := runVerb(e.t, t0ctx(), IO{Stdout: &out, Stderr: &errb, Getenv: getenv}, args)
	return out.String(), errb.String(), code
}

func t0ctx() context.Context { return context.Background() }
