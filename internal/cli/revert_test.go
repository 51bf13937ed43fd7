package cli

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/corpus/corpustest"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
)

// revertReport is the part of revert --json the tests read.
type revertReport struct {
	Stacks []struct {
		Outcomes []struct {
			ID, Status, Error string
		} `json:"outcomes"`
		Error string `json:"error"`
	} `json:"stacks"`
	Summary revertSummary `json:"summary"`
}

func (e *sandboxEnv) revertJSON(args ...string) (revertReport, string, int) {
	e.t.Helper()
	out, errs, code := e.run("revert", append([]string{"--json"}, args...)...)
	var rep revertReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		e.t.Fatalf("revert --json: %v\nstdout:\n%s\nstderr:\n%s", err, out, errs)
	}
	return rep, errs, code
}

// writeCalls counts the write calls in the sandbox call log.
func writeCalls(srv *sandbox.Server) int {
	n := 0
	for api, c := range srv.Calls().Counts {
		action := api[strings.IndexByte(api, ':')+1:]
		for _, p := range []string{"Update", "Delete", "Put", "Set", "Create", "Add", "Remove", "Unsubscribe", "Attach", "Detach"} {
			if strings.HasPrefix(action, p) {
				n += c
				break
			}
		}
	}
	return n
}

// demoEnv serves the demo world with its planted drift (the deleted
// dead-letter queue left out: a deploy recreates it, no revert can) for
// the dev account's us-east-1, recorded before the drift.
func demoEnv(t *testing.T) *sandboxEnv {
	t.Helper()
	return demoEnvWith(t, sandbox.Options{})
}

// demoEnvWith is demoEnv on a sandbox with opts.
func demoEnvWith(t *testing.T, opts sandbox.Options) *sandboxEnv {
	t.Helper()
	cases, err := corpus.LoadDirs(corpustest.Subset(t))
	if err != nil {
		t.Fatal(err)
	}
	w, err := worldgen.Demo(cases)
	if err != nil {
		t.Fatal(err)
	}
	dev := worldgen.DemoAccounts()[1].ID
	env := startSandboxWith(t, w, worldgen.DemoAccessKey(dev), "us-east-1", opts)
	if _, errs, code := env.run("record", "--all", "--yes"); code != ExitOK {
		t.Fatalf("record: exit %d\n%s", code, errs)
	}
	changes, err := worldgen.DemoDrift(w, dev, "us-east-1")
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range changes {
		if ch.Op == sandbox.OpDelete {
			continue
		}
		env.change(ch.Change)
	}
	return env
}

// TestRevertDemo: on the demo world, a dry run writes nothing; revert
// --yes reverts every planted drift and check --fail is clean after.
func TestRevertDemo(t *testing.T) {
	env := demoEnv(t)
	if _, _, code := env.checkJSON("--all", "--fail"); code != ExitDrift {
		t.Fatalf("check before revert: exit %d, want 1", code)
	}
	env.srv.ResetCalls()
	dry, errs, code := env.revertJSON("--all")
	if code != ExitOK || !dry.Summary.DryRun || dry.Summary.Planned == 0 {
		t.Fatalf("dry run: exit %d summary %+v\n%s", code, dry.Summary, errs)
	}
	if n := writeCalls(env.srv); n != 0 {
		t.Errorf("the dry run made %d write calls: %v", n, env.srv.Calls().Counts)
	}
	rep, errs, code := env.revertJSON("--all", "--yes")
	t.Logf("demo revert: %+v", rep.Summary)
	if code != ExitOK {
		for _, s := range rep.Stacks {
			for _, o := range s.Outcomes {
				if o.Status != "reverted" {
					t.Logf("%s: %s %s", o.ID, o.Status, o.Error)
				}
			}
		}
		t.Fatalf("revert --yes: exit %d\n%s", code, errs)
	}
	if rep.Summary.Reverted != dry.Summary.Planned {
		t.Errorf("reverted %d of %d planned", rep.Summary.Reverted, dry.Summary.Planned)
	}
	if c, _, code := env.checkJSON("--all", "--fail"); code != ExitOK {
		t.Errorf("check after revert: exit %d, findings %v", code, c.briefs())
	}
}

// TestRevertEventualConsistency: where the services' reads lag their
// writes (the sandbox's StaleReads: IAM, SQS, S3 bucket policies, EC2),
// revert's verification re-reads until the writes show — every planted
// drift reverted, check clean after — and, where they never show within
// its re-reads, says each written item is not confirmed instead of
// reporting it reverted.
func TestRevertEventualConsistency(t *testing.T) {
	t.Run("catches up", func(t *testing.T) {
		env := demoEnvWith(t, sandbox.Options{StaleReads: 3})
		// One stack at a time: the lag is counted in reads per account and
		// service, so another stack's concurrent reads could use up the
		// stale ones before this stack's verification reads.
		rep, errs, code := env.revertJSON("--all", "--yes", "--concurrency", "1")
		if code != ExitOK || rep.Summary.Reverted == 0 || rep.Summary.StillDrifted != 0 || rep.Summary.Failed != 0 {
			t.Fatalf("revert --yes: exit %d summary %+v\n%s", code, rep.Summary, errs)
		}
		if !strings.Contains(errs, "still read as drifted: re-reading") {
			t.Errorf("no re-read: the sandbox's reads never lagged\n%s", errs)
		}
		if c, _, code := env.checkJSON("--all", "--fail"); code != ExitOK {
			t.Errorf("check after revert: exit %d, findings %v", code, c.briefs())
		}
	})
	t.Run("never confirmed", func(t *testing.T) {
		env := demoEnvWith(t, sandbox.Options{StaleReads: 1000})
		rep, errs, code := env.revertJSON("--all", "--yes")
		if code == ExitOK || rep.Summary.StillDrifted == 0 {
			t.Fatalf("revert --yes: exit %d summary %+v, want items not confirmed\n%s", code, rep.Summary, errs)
		}
		for _, s := range rep.Stacks {
			for _, o := range s.Outcomes {
				if o.Status == "stillDrifted" && !strings.HasPrefix(o.Error, "written, but not confirmed: 4 re-read(s)") {
					t.Errorf("%s: %q does not say the write is unconfirmed", o.ID, o.Error)
				}
			}
		}
	})
}

// writeActions are the write APIs the writers call, per service.
func writeActions() map[string][]string {
	return map[string][]string{
		"cloudcontrolapi": {"UpdateResource", "DeleteResource"},
		"s3":              {"PutBucketPolicy", "DeleteBucketPolicy"},
		"sqs":             {"SetQueueAttributes"},
		"sns":             {"SetTopicAttributes"},
		"iam": {"PutRolePolicy", "DeleteRolePolicy", "PutUserPolicy", "DeleteUserPolicy", "PutGroupPolicy", "DeleteGroupPolicy", "CreatePolicyVersion", "DeletePolicyVersion",
			"AttachRolePolicy", "DetachRolePolicy", "AttachUserPolicy", "DetachUserPolicy", "AttachGroupPolicy", "DetachGroupPolicy"},
		"lambda":               {"AddPermission", "RemovePermission"},
		"route53":              {"ChangeResourceRecordSets"},
		"elasticloadbalancing": {"ModifyLoadBalancerAttributes", "ModifyTargetGroupAttributes", "ModifyListenerAttributes"},
	}
}

// TestRevertFaults: with 20 % of the writes failing transiently (and no
// SDK retries), revert --wait converges; with a permanent AccessDenied on
// one resource's writes the others converge and that one fails.
func TestRevertFaults(t *testing.T) {
	t.Run("transient", func(t *testing.T) {
		env := demoEnv(t)
		var rules []sandbox.FaultRule
		for svc, actions := range writeActions() {
			for _, a := range actions {
				rules = append(rules, sandbox.FaultRule{Service: svc, Action: a, Rate: 0.2, Code: "InternalFailure"})
			}
		}
		if err := env.srv.SetFaults(rules); err != nil {
			t.Fatal(err)
		}
		rep, errs, code := env.revertJSON("--all", "--yes", "--wait", "2m", "--max-attempts", "1")
		t.Logf("20%% transient write faults: %+v; injected: %v", rep.Summary, env.srv.Calls().Errors)
		if code != ExitOK {
			t.Fatalf("revert --wait 2m: exit %d\n%s", code, errs)
		}
		if err := env.srv.SetFaults(nil); err != nil {
			t.Fatal(err)
		}
		if _, _, code := env.checkJSON("--all", "--fail"); code != ExitOK {
			t.Errorf("check after revert: exit %d", code)
		}
	})
	t.Run("access denied on one resource", func(t *testing.T) {
		env := demoEnv(t)
		// The queue whose visibility timeout was changed: every write that
		// names it is denied.
		var target string
		snap, _ := env.srv.Snapshot()
		w, _ := sandbox.ParseWorld(snap)
		dev := worldgen.DemoAccounts()[1].ID
		planted, err := worldgen.DemoDrift(w, dev, "us-east-1")
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range planted {
			if ch.Type == "AWS::SQS::Queue" && ch.Op == sandbox.OpSet {
				target = ch.Identifier
			}
		}
		if target == "" {
			t.Fatal("no planted queue change")
		}
		if err := env.srv.SetFaults([]sandbox.FaultRule{{Service: "cloudcontrolapi", Action: "UpdateResource", Match: target, Code: "AccessDeniedException", Status: 403}}); err != nil {
			t.Fatal(err)
		}
		rep, _, code := env.revertJSON("--all", "--yes")
		t.Logf("AccessDenied on %s: %+v", target, rep.Summary)
		if code != ExitError || rep.Summary.Failed != 1 || rep.Summary.StillDrifted != 0 || rep.Summary.Reverted == 0 {
			t.Fatalf("exit %d summary %+v, want 2 with one failed and the rest reverted", code, rep.Summary)
		}
		for _, s := range rep.Stacks {
			for _, o := range s.Outcomes {
				if o.Status == "failed" && !strings.Contains(o.Error, "AccessDenied") {
					t.Errorf("%s failed with %q, want the AWS error", o.ID, o.Error)
				}
			}
		}
	})
}

// TestRevertManagedPolicyAttachments: on the demo world, an AWS managed
// policy attached to one function role out of band is detached and the
// declared one detached from another role is attached again
// (DetachRolePolicy / AttachRolePolicy, not a Cloud Control write of the
// whole list); check --fail is clean after. A rogue attached policy is
// what a user reverts first: it must be revertable.
func TestRevertManagedPolicyAttachments(t *testing.T) {
	env := demoEnv(t)
	if _, errs, code := env.run("revert", "--all", "--yes"); code != ExitOK {
		t.Fatalf("revert of the planted drift: exit %d\n%s", code, errs)
	}
	snap, _ := env.srv.Snapshot()
	w, err := sandbox.ParseWorld(snap)
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, a := range w.Accounts {
		for _, r := range a.Regions {
			if a.ID != worldgen.DemoAccounts()[1].ID || r.Name != "us-east-1" {
				continue
			}
			for _, st := range r.Stacks {
				for _, res := range st.Resources {
					if res.Type == "AWS::IAM::Role" && strings.Contains(string(res.Properties), "AWSLambdaBasicExecutionRole") {
						roles = append(roles, res.PhysicalID)
					}
				}
			}
		}
	}
	if len(roles) < 2 {
		t.Fatalf("demo roles with a managed policy: %v", roles)
	}
	const basic, admin = "arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole", "arn:aws:iam::aws:policy/AdministratorAccess"
	env.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::IAM::Role", Identifier: roles[0], Path: "ManagedPolicyArns", Value: json.RawMessage(`["` + basic + `","` + admin + `"]`)})
	env.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::IAM::Role", Identifier: roles[1], Path: "ManagedPolicyArns", Value: json.RawMessage(`[]`)})
	if _, _, code := env.checkJSON("--all", "--fail"); code != ExitDrift {
		t.Fatalf("check after the attachment changes: exit %d, want 1", code)
	}
	env.srv.ResetCalls()
	rep, errs, code := env.revertJSON("--all", "--yes")
	t.Logf("managed-policy attachments: %+v; calls %v", rep.Summary, env.srv.Calls().Counts)
	// ManagedPolicyArns is an attachment list (internal/classify/doc.go):
	// the detached declared policy is a declared finding, the rogue one
	// undeclared at its member (appeared since record); the planner writes
	// each role's list as read less the rogue member plus the declared
	// one — one detach, one attach, no Cloud Control write.
	if code != ExitOK || rep.Summary.Reverted != 2 || len(rep.Summary.NotRevertable) != 0 {
		t.Fatalf("revert: exit %d summary %+v\n%s", code, rep.Summary, errs)
	}
	calls := env.srv.Calls().Requests
	if calls["iam:DetachRolePolicy"] != 1 || calls["iam:AttachRolePolicy"] != 1 || calls["cloudcontrolapi:UpdateResource"] != 0 {
		t.Errorf("write calls: detach %d attach %d cloud control %d; want 1, 1, 0",
			calls["iam:DetachRolePolicy"], calls["iam:AttachRolePolicy"], calls["cloudcontrolapi:UpdateResource"])
	}
	for _, role := range roles[:2] {
		if m, _ := env.srv.Live("", "us-east-1", "AWS::IAM::Role", role); !strings.Contains(string(m), `"ManagedPolicyArns":["`+basic+`"]`) {
			t.Errorf("role %s after the revert: %s", role, m)
		}
	}
	if c, _, code := env.checkJSON("--all", "--fail"); code != ExitOK {
		t.Errorf("check after revert: exit %d, findings %v", code, c.briefs())
	}
}

// TestRevertRemoveUnrecorded: a live-only value nobody recorded is not
// revertable (unrecorded) and untouched by revert --yes; with
// --remove-unrecorded it is removed and check no longer reports it.
func TestRevertRemoveUnrecorded(t *testing.T) {
	w := appWorld(t, map[string][]appResource{"App": {queue("Q", "q", map[string]any{"VisibilityTimeout": 30}, map[string]any{"DelaySeconds": 5})}})
	env := startSandbox(t, w, testKey, testRegion)
	rep, errs, code := env.revertJSON("App", "--yes")
	if code != ExitDrift || rep.Summary.NotRevertable["unrecorded"] == 0 || rep.Summary.Reverted != 0 {
		t.Fatalf("revert --yes: exit %d summary %+v\n%s", code, rep.Summary, errs)
	}
	if n := writeCalls(env.srv); n != 0 {
		t.Errorf("revert --yes wrote an unrecorded value (%d write calls)", n)
	}
	rep, errs, code = env.revertJSON("App", "--yes", "--remove-unrecorded")
	t.Logf("--remove-unrecorded: %+v", rep.Summary)
	if rep.Summary.Reverted == 0 || rep.Summary.NotRevertable["unrecorded"] != 0 || rep.Summary.Failed != 0 {
		t.Fatalf("revert --yes --remove-unrecorded: exit %d summary %+v\n%s", code, rep.Summary, errs)
	}
	c, _, _ := env.checkJSON("App", "--no-baseline")
	for _, bs := range c.briefs() {
		for _, b := range bs {
			if strings.HasPrefix(b.Path, "DelaySeconds") {
				t.Errorf("DelaySeconds still reported: %+v", b)
			}
		}
	}
}

// TestRevertRecordSetAndAttributeBag: a Route 53 record's TTL and a load
// balancer attribute changed out of band are reverted through their SDK
// writers (ChangeResourceRecordSets polled to INSYNC under --wait,
// ModifyLoadBalancerAttributes with the one drifted key) while 30 % of
// those calls fail transiently; check --fail is clean after.
func TestRevertRecordSetAndAttributeBag(t *testing.T) {
	const zone = "Z0CLIREVERT00001"
	lbARN := "arn:aws:elasticloadbalancing:" + testRegion + ":" + testAccount + ":loadbalancer/app/edge/0123456789abcdef"
	rec := map[string]any{"HostedZoneId": zone, "Name": "www.example.com.", "Type": "A", "TTL": "300", "ResourceRecords": []any{"192.0.2.10"}}
	lbDeclared := map[string]any{"Type": "application", "LoadBalancerAttributes": []any{map[string]any{"Key": "idle_timeout.timeout_seconds", "Value": "120"}}}
	lbLive := map[string]any{"LoadBalancerArn": lbARN, "Type": "application", "LoadBalancerAttributes": []any{
		map[string]any{"Key": "idle_timeout.timeout_seconds", "Value": "120"}, map[string]any{"Key": "routing.http2.enabled", "Value": "true"}}}
	w := appWorld(t, map[string][]appResource{"Edge": {
		{logicalID: "Zone", typ: "AWS::Route53::HostedZone", physicalID: zone, declared: map[string]any{"Name": "example.com."}, live: map[string]any{"Id": zone, "Name": "example.com."}},
		{logicalID: "Www", typ: "AWS::Route53::RecordSet", physicalID: "www.example.com", declared: rec, live: rec},
		{logicalID: "Lb", typ: "AWS::ElasticLoadBalancingV2::LoadBalancer", physicalID: lbARN, declared: lbDeclared, live: lbLive},
	}})
	env := startSandbox(t, w, testKey, testRegion)
	if _, errs, code := env.run("record", "--all", "--yes"); code != ExitOK {
		t.Fatalf("record: exit %d\n%s", code, errs)
	}
	if c, _, code := env.checkJSON("--all", "--fail"); code != ExitOK {
		t.Fatalf("check before the changes: exit %d %v", code, c.briefs())
	}
	env.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::Route53::RecordSet", Identifier: "www.example.com", Path: "TTL", Value: json.RawMessage(`"900"`)})
	env.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::ElasticLoadBalancingV2::LoadBalancer", Identifier: lbARN, Path: "LoadBalancerAttributes",
		Value: json.RawMessage(`[{"Key":"idle_timeout.timeout_seconds","Value":"300"},{"Key":"routing.http2.enabled","Value":"true"}]`)})
	if _, _, code := env.checkJSON("--all", "--fail"); code != ExitDrift {
		t.Fatalf("check after the changes: exit %d, want 1", code)
	}
	var rules []sandbox.FaultRule
	for _, r := range [][2]string{{"route53", "ChangeResourceRecordSets"}, {"route53", "GetChange"}, {"elasticloadbalancing", "ModifyLoadBalancerAttributes"}} {
		rules = append(rules, sandbox.FaultRule{Service: r[0], Action: r[1], Rate: 0.3, Code: "ServiceUnavailable", Status: 503})
	}
	if err := env.srv.SetFaults(rules); err != nil {
		t.Fatal(err)
	}
	env.srv.ResetCalls()
	rep, errs, code := env.revertJSON("--all", "--yes", "--wait", "1m", "--max-attempts", "1")
	calls := env.srv.Calls()
	t.Logf("record set and attribute bag: %+v; injected %v", rep.Summary, calls.Errors)
	if code != ExitOK || rep.Summary.Reverted != 2 {
		t.Fatalf("revert: exit %d %+v\n%s", code, rep.Summary, errs)
	}
	if calls.Counts["route53:GetChange"] == 0 || calls.Counts["cloudcontrolapi:UpdateResource"] != 0 {
		t.Errorf("calls: %v", calls.Counts)
	}
	if err := env.srv.SetFaults(nil); err != nil {
		t.Fatal(err)
	}
	if c, _, code := env.checkJSON("--all", "--fail"); code != ExitOK {
		t.Errorf("check after revert: exit %d %v", code, c.briefs())
	}
}

// TestRevertTerminalOffersUnrecorded: on a terminal (no --yes) values
// nobody recorded are offered as opt-in (REMOVE, unrecorded) rows, none
// chosen unless picked; picking one removes it.
func TestRevertTerminalOffersUnrecorded(t *testing.T) {
	w := appWorld(t, map[string][]appResource{"App": {queue("Q", "q", map[string]any{"VisibilityTimeout": 30}, map[string]any{"DelaySeconds": 5})}})
	env := startSandbox(t, w, testKey, testRegion)
	env.tty, env.stdoutTTY, env.stdin = true, true, "\n"
	out, errs, _ := env.run("revert", "App")
	m := regexp.MustCompile(`(?m)^ +(\d+)  Q\.DelaySeconds: 5 → \(REMOVE, unrecorded\)`).FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, "nothing chosen: nothing written") {
		t.Fatalf("no opt-in row for the unrecorded value:\n%s\n%s", out, errs)
	}
	if n := writeCalls(env.srv); n != 0 {
		t.Errorf("nothing chosen, yet %d write calls", n)
	}
	env.stdin = m[1] + "\n"
	out, errs, _ = env.run("revert", "App")
	if !strings.Contains(out, "reverted: Q.DelaySeconds: 5 → (REMOVE, unrecorded)") {
		t.Fatalf("the chosen removal was not reverted:\n%s\n%s", out, errs)
	}
}
