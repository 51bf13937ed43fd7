package cli

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/baseline"
	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/store"
)

const (
	alertsArn = "arn:aws:sns:" + testRegion + ":" + testAccount + ":App-Alerts-1"
	subArn    = alertsArn + ":0b4e5a52-sub-1"
)

// faultWorld is the App stack with every read path: Cloud Control reads
// (Orders, Jobs, Data, Alerts), an SDK override reader (JobsPolicy: SQS
// GetQueueAttributes), child listings (the queues' and the bucket's
// out-of-band policies, the topic's subscriptions) and a child's full read
// (Cloud Control GetResource of the subscription); beside it a stack Other.
func faultWorld(t *testing.T) *sandboxEnv {
	t.Helper()
	doc := map[string]any{"Version": "2012-10-17", "Statement": []any{map[string]any{
		"Sid": "Send", "Effect": "Allow", "Principal": map[string]any{"AWS": "arn:aws:iam::" + testAccount + ":root"}, "Action": "sqs:SendMessage", "Resource": "*",
	}}}
	jobsPolicy := appResource{
		logicalID: "JobsPolicy", typ: "AWS::SQS::QueuePolicy", physicalID: "App-JobsPolicy-1",
		declared: map[string]any{"Queues": []any{queueURL("App-Jobs-1")}, "PolicyDocument": doc},
		live:     map[string]any{"Queues": []any{queueURL("App-Jobs-1")}, "PolicyDocument": doc},
	}
	topic := appResource{
		logicalID: "Alerts", typ: "AWS::SNS::Topic", physicalID: alertsArn,
		declared: map[string]any{"DisplayName": "alerts"},
		live:     map[string]any{"TopicName": "App-Alerts-1", "TopicArn": alertsArn, "DisplayName": "alerts"},
	}
	orders := queue("Orders", "App-Orders-1", map[string]any{"VisibilityTimeout": 30}, map[string]any{"MaximumMessageSize": 1024})
	jobs := queue("Jobs", "App-Jobs-1", map[string]any{"VisibilityTimeout": 60}, nil)
	env := startSandbox(t, appWorld(t, map[string][]appResource{
		"App":   {orders, jobs, jobsPolicy, bucket("Data", "app-data-1"), topic},
		"Other": {queue("OtherQueue", "Other-Q-1", map[string]any{"VisibilityTimeout": 30}, nil)},
	}), testKey, testRegion)
	env.change(sandbox.Change{Op: sandbox.OpAdd, Type: "AWS::S3::BucketPolicy", Identifier: "app-data-1", Properties: bucketPolicy("app-data-1", "Read")})
	env.addSubscription(subArn, "ops@example.com")
	return env
}

func (e *sandboxEnv) addSubscription(arn, endpoint string) {
	e.t.Helper()
	props, _ := json.Marshal(map[string]any{"TopicArn": alertsArn, "Protocol": "email", "Endpoint": endpoint, "SubscriptionArn": arn})
	e.change(sandbox.Change{Op: sandbox.OpAdd, Type: "AWS::SNS::Subscription", Identifier: arn, Properties: props})
}

// recorded is what a baseline holds, as the fault test compares it.
type recorded struct {
	Entries  []baseline.Entry
	Complete map[string]bool
	Phys     map[string]string
	Parents  []baseline.Parent
}

func (e *sandboxEnv) baselineOf(stack string) recorded {
	e.t.Helper()
	ref := drift.StackRef{Name: stack, Account: testAccount, Region: testRegion}
	b, _, err := baseline.LoadStored(e.t.Context(), store.NewFile(e.stateDir), ref)
	if err != nil || b == nil {
		e.t.Fatalf("baseline of %s: %v, %v", stack, b, err)
	}
	return recorded{b.Entries, b.Complete, b.PhysicalIDs, b.EnumeratedParents}
}

// The fault table: AccessDenied, 5xx, throttling and timeouts on each read
// path, for check and record. A fault on a resource read, an override
// reader, a child listing or a child's read makes the resources it touches
// skipped with the reason — never drift, never a lost baseline entry — and
// --strict exits 1; a fault on the stack's own calls is a stack error (exit
// 2) while the other stack is still reported. After the fault, check is
// clean and a new out-of-band child is "appeared since record".
//
// Only a hang depends on the call deadline, so only the hang cases run with
// a short one (2s, stretched by REALDRIFT_TEST_TIMESCALE); an error answer
// gets a deadline no busy machine reaches, so its reason is the error's,
// never a timeout.
func TestFaultsNeverLoseCoverage(t *testing.T) {
	const cc, sqs, sns, s3, cfn = "cloudcontrolapi", "sqs", "sns", "s3", "cloudformation"
	hangAfter := deadlinetest.Scale(t, 2*time.Second)
	noAnswer := "no answer within " + hangAfter.String()
	denied := func(svc, action, match, code string) sandbox.FaultRule {
		return sandbox.FaultRule{Service: svc, Action: action, Match: match, Code: code, Status: 403}
	}
	failing := func(svc, action, match string) sandbox.FaultRule {
		return sandbox.FaultRule{Service: svc, Action: action, Match: match, Code: "InternalFailure"}
	}
	throttled := func(svc, action, match, code string) sandbox.FaultRule {
		return sandbox.FaultRule{Service: svc, Action: action, Match: match, Code: code, Status: 400}
	}
	hung := func(svc, action, match string) sandbox.FaultRule {
		return sandbox.FaultRule{Service: svc, Action: action, Match: match, Hang: true}
	}
	tests := []struct {
		name string
		rule sandbox.FaultRule
		// skipped are the logical ids reported skipped, reason a part of
		// each one's reason; stackErr is set for a stack-level fault.
		skipped  []string
		reason   string
		stackErr bool
	}{
		{"stack template AccessDenied", denied(cfn, "GetTemplate", "StackName=App&", "AccessDenied"), nil, "AccessDenied", true},
		// A listed stack is not described again (the listing's description
		// serves), so its own stack-level 5xx is the resource list's.
		{"stack resource list 5xx", failing(cfn, "ListStackResources", "StackName=App&"), nil, "InternalFailure", true},
		{"stack resources throttled", throttled(cfn, "ListStackResources", "StackName=App&", "Throttling"), nil, "Throttling", true},
		{"stack template hangs", hung(cfn, "GetTemplate", "StackName=App&"), nil, noAnswer, true},
		{"Cloud Control AccessDenied", denied(cc, "GetResource", "App-Orders-1", "AccessDeniedException"), []string{"Orders"}, "CloudControl GetResource: AccessDeniedException", false},
		{"Cloud Control 5xx", failing(cc, "GetResource", "App-Orders-1"), []string{"Orders"}, "CloudControl GetResource: InternalFailure", false},
		{"Cloud Control throttled", throttled(cc, "GetResource", "App-Orders-1", "ThrottlingException"), []string{"Orders"}, "ThrottlingException", false},
		{"Cloud Control hangs", hung(cc, "GetResource", "App-Orders-1"), []string{"Orders"}, "timeout: CloudControl GetResource got " + noAnswer, false},
		{"override reader AccessDenied", denied(sqs, "GetQueueAttributes", "App-Jobs-1", "AccessDenied"), []string{"JobsPolicy"}, "SQS GetQueueAttributes: AccessDenied", false},
		{"override reader 5xx", failing(sqs, "GetQueueAttributes", "App-Jobs-1"), []string{"JobsPolicy"}, "InternalFailure", false},
		{"override reader hangs", hung(sqs, "GetQueueAttributes", "App-Jobs-1"), []string{"JobsPolicy"}, "timeout: SQS GetQueueAttributes", false},
		{"child listing AccessDenied", denied(sns, "ListSubscriptionsByTopic", "", "AuthorizationError"), []string{"Alerts"}, "enumerate children: SNS ListSubscriptionsByTopic: AuthorizationError", false},
		{"child listing throttled", throttled(sns, "ListSubscriptionsByTopic", "", "Throttling"), []string{"Alerts"}, "Throttling", false},
		{"child listing 5xx", failing(s3, "GetBucketPolicy", "app-data-1"), []string{"Data"}, "S3 GetBucketPolicy", false},
		{"child listing hangs", hung(sns, "ListSubscriptionsByTopic", ""), []string{"Alerts"}, "timeout: SNS ListSubscriptionsByTopic", false},
		{"child read AccessDenied", denied(cc, "GetResource", "0b4e5a52-sub-1", "AccessDeniedException"), []string{"Alerts/Subscription"}, "AccessDeniedException", false},
		{"child read hangs", hung(cc, "GetResource", "0b4e5a52-sub-1"), []string{"Alerts/Subscription"}, "timeout: CloudControl GetResource", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := faultWorld(t)
			flags := []string{"--call-timeout", "60s", "--max-attempts", "2"}
			switch {
			case tt.rule.Hang:
				flags = []string{"--call-timeout", hangAfter.String(), "--max-attempts", "2"}
			case tt.rule.Status == 400:
				// Throttled: the adaptive retryer slows every later call of
				// the client, so give them the time a real run has.
				flags = []string{"--call-timeout", "30s", "--max-attempts", "1"}
			}
			if _, errs, code := env.run("record", append([]string{"--all", "--yes"}, flags...)...); code != ExitOK {
				t.Fatalf("record without faults: exit %d\n%s", code, errs)
			}
			before := env.baselineOf("App")
			if err := env.srv.SetFaults([]sandbox.FaultRule{tt.rule}); err != nil {
				t.Fatal(err)
			}

			// check: no drift, the gaps named, exit as documented.
			start := time.Now()
			rep, errs, code := env.checkJSON(append([]string{"--all", "--fail"}, flags...)...)
			if d := time.Since(start); d > deadlinetest.Scale(t, 30*time.Second) {
				t.Errorf("check took %s: a fault held the run past its call deadlines", d)
			}
			wantCode := ExitIncomplete // nothing drifted, but not clean
			if tt.stackErr {
				wantCode = ExitError
			}
			if code != wantCode {
				t.Fatalf("check --fail: exit %d, want %d\n%s", code, wantCode, errs)
			}
			if b := rep.briefs(); len(b) != 0 {
				t.Errorf("check under a fault reports drift: %v", b)
			}
			if strings.Contains(errs, "exiting 0") && wantCode != ExitOK {
				t.Errorf("exit %d with a report-only note:\n%s", code, errs)
			}
			for _, s := range rep.Stacks {
				switch {
				case s.Stack == "Other" && (s.Verdict != "clean" || s.Error != ""):
					t.Errorf("stack Other: verdict %s error %q, want clean", s.Verdict, s.Error)
				case s.Stack == "App" && tt.stackErr:
					if !strings.Contains(s.Error, tt.reason) || s.Account != testAccount {
						t.Errorf("stack App: error %q account %q, want an error with %q and the account", s.Error, s.Account, tt.reason)
					}
				}
			}
			if len(rep.Stacks) != 2 {
				t.Errorf("check reported %d stacks, want both", len(rep.Stacks))
			}
			for _, lid := range tt.skipped {
				f, ok := skippedOf(rep, lid)
				if !ok || !strings.Contains(f.Reason, tt.reason) {
					t.Errorf("%s: %+v (found %v), want skipped with a reason containing %q", lid, f, ok, tt.reason)
				}
			}
			if _, errs, code := env.run("check", append([]string{"--all", "--strict"}, flags...)...); code != map[bool]int{true: ExitError, false: ExitDrift}[tt.stackErr] {
				t.Errorf("check --strict: exit %d\n%s", code, errs)
			}

			// record --strict: nothing lost, the gaps named, exit 1 (2 for a
			// stack error, nothing written for that stack).
			_, errs, code = env.run("record", append([]string{"--all", "--yes", "--strict"}, flags...)...)
			wantCode = ExitDrift
			if tt.stackErr {
				wantCode = ExitError
			}
			if code != wantCode {
				t.Errorf("record --strict: exit %d, want %d\n%s", code, wantCode, errs)
			}
			for _, lid := range tt.skipped {
				if !strings.Contains(errs, "coverage incomplete") || !strings.Contains(errs, lid+" (") {
					t.Errorf("record does not name %s as not read:\n%s", lid, errs)
				}
			}
			if diff := cmp.Diff(env.baselineOf("App"), before); diff != "" {
				t.Errorf("baseline after record under the fault (-got +want):\n%s", diff)
			}

			// After the fault: clean, nothing "no longer present"; a new
			// out-of-band child is drift, not potential drift.
			if err := env.srv.SetFaults(nil); err != nil {
				t.Fatal(err)
			}
			env.addSubscription(alertsArn+":0b4e5a52-sub-2", "new@example.com")
			rep, errs, code = env.checkJSON(append([]string{"App", "--fail"}, flags...)...)
			want := map[string][]brief{"Alerts/Subscription": {{Tier: "added", Note: baseline.NoteAppeared}}}
			got := rep.briefs()
			for lid, bs := range got {
				for i := range bs {
					if strings.HasPrefix(bs[i].Note, baseline.NoteAppeared) {
						bs[i].Note = baseline.NoteAppeared
					}
				}
				got[lid] = bs
			}
			if diff := cmp.Diff(got, want); diff != "" || code != ExitDrift || strings.Contains(errs, "no longer present") {
				t.Errorf("after the fault: exit %d (want 1), findings (-got +want):\n%s\nstderr:\n%s", code, diff, errs)
			}
		})
	}
}

// skippedOf finds a skipped finding of lid.
func skippedOf(rep jsonReport, lid string) (drift.Finding, bool) {
	for _, s := range rep.Stacks {
		for _, f := range s.Findings {
			if f.Tier == drift.Skipped && f.LogicalID == lid {
				return f, true
			}
		}
	}
	return drift.Finding{}, false
}

// TestRepeated5xxSaysWhatWasAnswered: a resource whose reads AWS answers
// with 503 every time is skipped with what it was answered and how often
// ("ServiceUnavailable ×3"), whether the attempts ran out or the call
// deadline passed in a retry's backoff — never "got no answer", which
// would send a user hunting for a network fault.
func TestRepeated5xxSaysWhatWasAnswered(t *testing.T) {
	env := faultWorld(t)
	if err := env.srv.SetFaults([]sandbox.FaultRule{{Service: "cloudcontrolapi", Action: "GetResource", Match: "App-Orders-1", Code: "ServiceUnavailable", Status: 503}}); err != nil {
		t.Fatal(err)
	}
	t.Run("attempts run out", func(t *testing.T) {
		rep, errs, code := env.checkJSON("App", "--fail", "--max-attempts", "3", "--call-timeout", "60s")
		if code != ExitIncomplete {
			t.Fatalf("exit %d, want 3\n%s", code, errs)
		}
		f, ok := skippedOf(rep, "Orders")
		if !ok || !strings.Contains(f.Reason, "CloudControl GetResource: ServiceUnavailable ×3") {
			t.Errorf("Orders: %+v (found %v), want skipped as CloudControl GetResource: ServiceUnavailable ×3", f, ok)
		}
	})
	t.Run("deadline passes between attempts", func(t *testing.T) {
		deadline := deadlinetest.Scale(t, 2*time.Second)
		rep, errs, code := env.checkJSON("App", "--fail", "--max-attempts", "1000", "--call-timeout", deadline.String())
		if code != ExitIncomplete {
			t.Fatalf("exit %d, want 3\n%s", code, errs)
		}
		f, ok := skippedOf(rep, "Orders")
		want := regexp.MustCompile(`^timeout: CloudControl GetResource: ServiceUnavailable ×[0-9]+, no success within ` + regexp.QuoteMeta(deadline.String()) + `$`)
		if !ok || !want.MatchString(f.Reason) || strings.Contains(f.Reason, "no answer") {
			t.Errorf("Orders: %+v (found %v), want a reason matching %s", f, ok, want)
		}
	})
}
