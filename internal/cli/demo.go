package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/ignore"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
	"github.com/realdrift/realdrift/internal/schema"
)

const demoSynopsis = `[--corpus DIR]

Walks through realdrift against the built-in sandbox: an emulated AWS
organisation started in-process with the demo world (no AWS account, no
network). It checks the orders application, records a baseline, makes three
out-of-band changes through the sandbox, checks again, ignores one finding,
shows the JSON report, reverts the rest and diffs the app's next version
(nested stack included) against the drifted stacks. Every command's output
is real.`

// builtInRecordings names, in flag help, the recordings the binary embeds
// (worldgen.DemoCases), which seed the demo's live models unless a corpus
// directory is given.
const builtInRecordings = "the recordings built into the binary"

// demoCases are the recordings the demo world is built from: dir's cases
// (--corpus, else $REALDRIFT_CORPUS_DIR), else the embedded ones, so the
// demo needs no checkout.
func demoCases(dir string) ([]*corpus.Case, error) {
	if dir == "" {
		return worldgen.DemoCases()
	}
	return corpus.LoadDirs(dir)
}

// The demo's account and region: the organisation's dev account.
const (
	demoAccountName = "acme-dev"
	demoRegion      = "us-east-1"
)

func runDemo(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "demo", demoSynopsis)
	corpusDir := fs.String("corpus", "", "golden-corpus directory whose recordings seed the demo's live models (default $REALDRIFT_CORPUS_DIR, else "+builtInRecordings+")")
	if done, code := parse(s, fs, args); done {
		return code
	}
	if *corpusDir == "" {
		*corpusDir = getenv(s, "REALDRIFT_CORPUS_DIR")
	}
	if fs.NArg() > 0 {
		return fail(s, "demo", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	d, err := newDemo(s, *corpusDir)
	if err != nil {
		return fail(s, "demo", err)
	}
	defer d.close()
	if err := d.story(ctx); err != nil {
		if ctx.Err() != nil {
			return ExitInterrupt
		}
		return fail(s, "demo", err)
	}
	return ExitOK
}

// demo is one run of the walkthrough: the sandbox, its listener, a scratch
// state directory and the resources the story changes.
type demo struct {
	out      io.Writer
	color    bool
	srv      *sandbox.Server
	hs       *http.Server
	url      string
	stateDir string
	account  string
	start    time.Time

	fn, role, queue, bucket demoResource
	// bucketPolicy is the bucket's declared policy, when it has one.
	bucketPolicy *demoResource
	// world is the demo world as built (the diff step's next app is
	// made from it).
	world *sandbox.World
}

// demoResource is a resource of the demo world the story points at.
type demoResource struct {
	stack, logicalID, typ, id, path string
}

func newDemo(s IO, corpusDir string) (*demo, error) {
	d := &demo{out: s.Stdout, color: colorOn(s, false), start: time.Now()}
	cases, err := demoCases(corpusDir)
	if err != nil {
		return nil, fmt.Errorf("demo recordings (--corpus): %w", err)
	}
	w, err := worldgen.Demo(cases)
	if err != nil {
		return nil, fmt.Errorf("build the demo world: %w", err)
	}
	for _, a := range worldgen.DemoAccounts() {
		if a.Name == demoAccountName {
			d.account = a.ID
		}
	}
	if d.account == "" {
		return nil, fmt.Errorf("the demo world has no %s account", demoAccountName)
	}
	if err := worldgen.DemoNested(w, d.account, demoDiffRegion); err != nil {
		return nil, fmt.Errorf("build the demo world: %w", err)
	}
	d.world = w
	if err := d.pick(w); err != nil {
		return nil, err
	}
	opts := sandbox.Options{}
	if snap, err := schema.Embedded(); err == nil {
		opts.Facts = snap.Lookup
	}
	if d.srv, err = sandbox.New(w, opts); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		d.srv.Close()
		return nil, fmt.Errorf("start the sandbox: %w", err)
	}
	d.url = "http://" + ln.Addr().String()
	d.hs = &http.Server{Handler: d.srv, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = d.hs.Serve(ln) }()
	if d.stateDir, err = os.MkdirTemp("", "realdrift-demo-"); err != nil {
		d.close()
		return nil, fmt.Errorf("state directory: %w", err)
	}
	return d, nil
}

func (d *demo) close() {
	if d.hs != nil {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = d.hs.Shutdown(sctx)
		cancel()
	}
	if d.srv != nil {
		d.srv.Close()
	}
	if d.stateDir != "" {
		_ = os.RemoveAll(d.stateDir)
	}
}

// pick finds the resources the story changes in the dev account's region.
func (d *demo) pick(w *sandbox.World) error {
	for _, a := range w.Accounts {
		if a.ID != d.account {
			continue
		}
		for _, r := range a.Regions {
			if r.Name != demoRegion {
				continue
			}
			for _, st := range r.Stacks {
				paths := cdkPaths(st.TemplateBody)
				for _, res := range st.Resources {
					dr := demoResource{stack: st.Name, logicalID: res.LogicalID, typ: res.Type, id: res.Identifier, path: paths[res.LogicalID]}
					if dr.id == "" {
						dr.id = res.PhysicalID
					}
					switch {
					case res.Type == "AWS::Lambda::Function" && d.fn.id == "":
						d.fn = dr
					case res.Type == "AWS::IAM::Role" && d.role.id == "":
						d.role = dr
					case res.Type == "AWS::SQS::Queue" && d.queue.id == "" && !isDeadLetter(dr.path):
						d.queue = dr
					case res.Type == "AWS::S3::Bucket" && d.bucket.id == "":
						d.bucket = dr
					case res.Type == "AWS::S3::BucketPolicy":
						p := dr
						d.bucketPolicy = &p
					}
				}
			}
		}
	}
	for _, r := range []demoResource{d.fn, d.role, d.queue, d.bucket} {
		if r.id == "" {
			return errors.New("the demo world lacks a function, role, queue or bucket in " + demoAccountName + "/" + demoRegion)
		}
	}
	if d.bucketPolicy != nil && d.bucketPolicy.id != d.bucket.id {
		d.bucketPolicy = nil
	}
	return nil
}

// isDeadLetter reports whether a construct path names a dead-letter queue.
func isDeadLetter(path string) bool {
	p := strings.ToLower(path)
	return strings.Contains(p, "dlq") || strings.Contains(p, "dead")
}

// cdkPaths maps logical id → aws:cdk:path of a template.
func cdkPaths(body string) map[string]string {
	var t struct {
		Resources map[string]struct {
			Metadata map[string]any `json:"Metadata"`
		} `json:"Resources"`
	}
	out := map[string]string{}
	if json.Unmarshal([]byte(body), &t) != nil {
		return out
	}
	for id, r := range t.Resources {
		if p, ok := r.Metadata["aws:cdk:path"].(string); ok {
			out[id] = p
		}
	}
	return out
}

// display is how the report names a resource's property.
func (r demoResource) display(prop string) string {
	id := r.logicalID
	if r.path != "" {
		id = ignore.WithinStackPath(r.stack, r.path)
	}
	return id + "." + prop
}

func (d *demo) getenv(k string) string {
	switch k {
	case "AWS_ACCESS_KEY_ID":
		return worldgen.DemoAccessKey(d.account)
	case "AWS_SECRET_ACCESS_KEY":
		return "demo-secret"
	case "AWS_REGION":
		return demoRegion
	case "AWS_CONFIG_FILE":
		return os.DevNull
	}
	return ""
}

// step prints a step's title and one-line explanation.
func (d *demo) step(n int, title, why string) {
	rule := strings.Repeat("═", 72)
	if d.color {
		fmt.Fprintf(d.out, "\n\x1b[1m%s\nStep %d — %s\x1b[0m\n%s\n\n", rule, n, title, why)
		return
	}
	fmt.Fprintf(d.out, "\n%s\nStep %d — %s\n%s\n\n", rule, n, title, why)
}

// capture runs a realdrift verb against the sandbox, shows the command
// and its exit status, checks the status and returns the output unshown.
func (d *demo) capture(ctx context.Context, want int, verb string, args ...string) (string, error) {
	fmt.Fprintf(d.out, "$ realdrift %s %s\n", verb, strings.Join(args, " "))
	var buf bytes.Buffer
	code := d.exec(ctx, &buf, verb, args)
	return buf.String(), d.status(verb, code, want)
}

// cmd runs a verb and prints its output before its exit status.
func (d *demo) cmd(ctx context.Context, want int, verb string, args ...string) error {
	fmt.Fprintf(d.out, "$ realdrift %s %s\n", verb, strings.Join(args, " "))
	var buf bytes.Buffer
	code := d.exec(ctx, &buf, verb, args)
	if _, err := d.out.Write(buf.Bytes()); err != nil {
		return err
	}
	return d.status(verb, code, want)
}

// exec runs a verb in-process with the sandbox's endpoint, the scratch
// state directory and the demo account's keys; stdout and stderr both go
// to w so notes stay in order.
func (d *demo) exec(ctx context.Context, w io.Writer, verb string, args []string) int {
	full := append([]string{verb, "--endpoint-url", d.url, "--state-dir", d.stateDir}, args...)
	return Run(ctx, IO{Stdin: strings.NewReader(""), Stdout: w, Stderr: w, Getenv: d.getenv, IsTTY: d.color}, full)
}

func (d *demo) status(verb string, code, want int) error {
	fmt.Fprintf(d.out, "[exit status %d]\n", code)
	if code != want {
		return fmt.Errorf("%s exited %d, expected %d", verb, code, want)
	}
	return nil
}

func (d *demo) story(ctx context.Context) error {
	fmt.Fprintf(d.out, "realdrift demo — an emulated AWS organisation (3 accounts × 2 regions) runs in-process at %s.\n", d.url)
	fmt.Fprintf(d.out, "Every command below runs against it as account %s (%s), region %s,\n", d.account, demoAccountName, demoRegion)
	fmt.Fprintf(d.out, "with --endpoint-url %s --state-dir <temporary directory> added.\n", d.url)

	// Step 1: console edits made before the story starts, then a check.
	carol := d.principal("carol")
	if err := d.apply(sandbox.Change{Op: sandbox.OpSet, Type: d.fn.typ, Identifier: d.fn.id, Path: "MemorySize", Value: json.RawMessage(`1024`),
		Principal: carol, UserAgent: demoConsole, SourceIP: "198.51.100.23", EventName: "UpdateFunctionConfiguration", EventSource: "lambda.amazonaws.com"}); err != nil {
		return err
	}
	if err := d.apply(sandbox.Change{Op: sandbox.OpSet, Type: d.queue.typ, Identifier: d.queue.id, Path: "ReceiveMessageWaitTimeSeconds", Value: json.RawMessage(`20`),
		Principal: carol, UserAgent: demoConsole, SourceIP: "198.51.100.23", EventName: "SetQueueAttributes", EventSource: "sqs.amazonaws.com"}); err != nil {
		return err
	}
	d.step(1, "first check",
		"Last month someone raised "+d.fn.display("MemorySize")+" in the console and turned on long polling for\n"+
			d.queue.display("ReceiveMessageWaitTimeSeconds")+", which the template never declared. check compares the deployed\n"+
			"templates with the live resources: the memory edit is declared drift; the live-only value is potential drift\n"+
			"(realdrift cannot tell yet whether it is intended). Without --fail, check only reports (exit 0).")
	if err := d.cmd(ctx, ExitOK, "check", "--all"); err != nil {
		return err
	}

	d.step(2, "record a baseline",
		"record snapshots the live-only state as the norm (a reviewable file under .realdrift/baselines/);\n"+
			"check then stays quiet about it and reports any later change to it. Declared drift is never recorded.")
	if err := d.cmd(ctx, ExitOK, "record", "--all", "--yes"); err != nil {
		return err
	}

	d.step(3, "three out-of-band changes",
		"Changes made behind CloudFormation's back, through the sandbox's admin API (as a console click or a script would):")
	if err := d.outOfBand(); err != nil {
		return err
	}

	d.step(4, "check again",
		"The changes are confirmed drift now: the baseline says what the live-only state was. With --fail, drift exits 1 (CI mode).\n"+
			"--who names who made each change: the last CloudTrail write event naming the resource (one LookupEvents call per\n"+
			"drifted resource; the sandbox records its own trail of every write and admin change).")
	if err := d.cmd(ctx, ExitDrift, "check", "--all", "--fail", "--who"); err != nil {
		return err
	}

	rule := d.fn.display("MemorySize")
	d.step(5, "ignore one finding",
		"The memory bump is intended and tuned outside the code: ignore is the way to stop reporting a declared property.\n"+
			"The rule is appended to .realdrift/ignore.yaml (a commented, reviewable policy file).")
	if err := d.cmd(ctx, ExitOK, "ignore", d.fn.stack, "--path", rule); err != nil {
		return err
	}

	d.step(6, "the JSON report",
		"--json carries every finding for machines; an excerpt (the ignored finding is reported as ignored, never dropped):")
	out, err := d.capture(ctx, ExitDrift, "check", "--all", "--fail", "--json")
	if err != nil {
		return err
	}
	if err := d.excerpt(out); err != nil {
		return err
	}

	d.step(7, "revert the rest",
		"revert writes the drift back: the template's value for declared drift (the bucket policy without the public\n"+
			"statement), the recorded value for a changed live-only setting (the queue's retention), removal for an added\n"+
			"child (the inline policy). --dry-run prints the plan and writes nothing; --yes writes it, re-reads every\n"+
			"touched resource and says per item whether it converged. The ignored finding is left alone.")
	if err := d.cmd(ctx, ExitOK, "revert", "--all", "--dry-run"); err != nil {
		return err
	}
	if err := d.cmd(ctx, ExitOK, "revert", "--all", "--yes"); err != nil {
		return err
	}
	d.step(8, "check once more",
		"Nothing but the ignored finding is left: check --fail exits 0.")
	if err := d.cmd(ctx, ExitOK, "check", "--all", "--fail"); err != nil {
		return err
	}
	if err := d.diffStep(ctx); err != nil {
		return err
	}
	if err := d.incompleteStep(ctx); err != nil {
		return err
	}
	fmt.Fprintf(d.out, "\nDone in %.1fs. Run the same commands against your account without --endpoint-url.\n", time.Since(d.start).Seconds())
	return nil
}

// outOfBand makes the three changes: an inline policy on a role, a queue
// attribute, a bucket policy.
func (d *demo) outOfBand() error {
	live := func(r demoResource) (map[string]any, error) {
		raw, ok := d.srv.Live(d.account, demoRegion, r.typ, r.id)
		if !ok {
			return nil, fmt.Errorf("demo: %s %s is not live", r.typ, r.id)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("demo: live model of %s: %w", r.id, err)
		}
		return m, nil
	}

	// 1. An inline policy added to a role.
	role, err := live(d.role)
	if err != nil {
		return err
	}
	policies, _ := role["Policies"].([]any)
	policies = append(policies, map[string]any{
		"PolicyName": "debug-access",
		"PolicyDocument": map[string]any{"Version": "2012-10-17", "Statement": []any{
			map[string]any{"Effect": "Allow", "Action": "s3:*", "Resource": "*"},
		}},
	})
	if err := d.setJSON(d.role, "Policies", policies, sandbox.Change{Principal: d.principal("alice"), UserAgent: "aws-cli/2.15.0 Python/3.11.6 Linux/6.1 exe/x86_64", SourceIP: "203.0.113.10", EventName: "PutRolePolicy", EventSource: "iam.amazonaws.com"}); err != nil {
		return err
	}
	fmt.Fprintf(d.out, "  • alice, AWS CLI — aws iam put-role-policy: inline policy debug-access (s3:* on *) added to role %s\n", d.role.id)

	// 2. A queue attribute changed.
	if err := d.apply(sandbox.Change{Op: sandbox.OpSet, Type: d.queue.typ, Identifier: d.queue.id, Path: "MessageRetentionPeriod", Value: json.RawMessage(`60`),
		Principal: "arn:aws:sts::" + d.account + ":assumed-role/Admin/bob", UserAgent: demoConsole, SourceIP: "198.51.100.7", EventName: "SetQueueAttributes", EventSource: "sqs.amazonaws.com"}); err != nil {
		return err
	}
	fmt.Fprintf(d.out, "  • bob (role Admin), console — set-queue-attributes: MessageRetentionPeriod=60 on %s\n", d.queue.id)

	// 3. A bucket policy attached (or, when the template declares one,
	// a public-read statement slipped into it).
	deployBot := sandbox.Change{Principal: "arn:aws:sts::" + d.account + ":assumed-role/ci-deployer/build-4711", SourceIdentity: "dave",
		UserAgent: "aws-sdk-go-v2/1.36.3 os/linux lang/go#1.24", SourceIP: "203.0.113.80", EventName: "PutBucketPolicy", EventSource: "s3.amazonaws.com"}
	grant := map[string]any{
		"Sid": "PublicRead", "Effect": "Allow", "Principal": "*", "Action": "s3:GetObject",
		"Resource": "arn:aws:s3:::" + d.bucket.id + "/*",
	}
	if d.bucketPolicy != nil {
		pol, err := live(*d.bucketPolicy)
		if err != nil {
			return err
		}
		doc, _ := pol["PolicyDocument"].(map[string]any)
		if doc == nil {
			doc = map[string]any{"Version": "2012-10-17"}
		}
		stmts, _ := doc["Statement"].([]any)
		doc["Statement"] = append(stmts, grant)
		if err := d.setJSON(*d.bucketPolicy, "PolicyDocument", doc, deployBot); err != nil {
			return err
		}
	} else {
		props, _ := json.Marshal(map[string]any{"Bucket": d.bucket.id, "PolicyDocument": map[string]any{"Version": "2012-10-17", "Statement": []any{grant}}})
		ch := deployBot
		ch.Op, ch.Type, ch.Identifier, ch.Properties = sandbox.OpAdd, "AWS::S3::BucketPolicy", d.bucket.id, props
		if err := d.apply(ch); err != nil {
			return err
		}
	}
	fmt.Fprintf(d.out, "  • a script of role ci-deployer (source identity dave), SDK — put-bucket-policy: public-read statement on bucket %s\n", d.bucket.id)
	return nil
}

// setJSON sets a path of a resource to v, made as by (its Principal,
// UserAgent, SourceIP and event).
func (d *demo) setJSON(r demoResource, path string, v any, by sandbox.Change) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	by.Op, by.Type, by.Identifier, by.Path, by.Value = sandbox.OpSet, r.typ, r.id, path, b
	return d.apply(by)
}

// demoConsole is the user agent CloudTrail records for a console click.
const demoConsole = "console.amazonaws.com"

// principal is an IAM user of the demo account, by name.
func (d *demo) principal(user string) string { return "arn:aws:iam::" + d.account + ":user/" + user }

func (d *demo) apply(ch sandbox.Change) error {
	ch.Account, ch.Region = d.account, demoRegion
	if err := d.srv.Apply(ch); err != nil {
		return fmt.Errorf("out-of-band change: %w", err)
	}
	return nil
}

// excerpt prints the JSON report's totals and, per stack, its drift-side
// and ignored findings as one compact line each (long values shortened).
func (d *demo) excerpt(out string) error {
	var rep struct {
		Verdict          string `json:"verdict"`
		Drifted          int    `json:"drifted"`
		PotentialDrift   int    `json:"potentialDrift"`
		CoverageComplete bool   `json:"coverageComplete"`
		Stacks           []struct {
			Stack    string           `json:"stack"`
			Findings []map[string]any `json:"findings"`
		} `json:"stacks"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		return fmt.Errorf("the JSON report does not decode: %w", err)
	}
	fmt.Fprintf(d.out, "{\"schemaVersion\": 1, \"verdict\": %q, \"drifted\": %d, \"potentialDrift\": %d, \"coverageComplete\": %v,\n \"stacks\": [\n",
		rep.Verdict, rep.Drifted, rep.PotentialDrift, rep.CoverageComplete)
	for i, s := range rep.Stacks {
		fmt.Fprintf(d.out, "  {\"stack\": %q, \"findings\": [\n", s.Stack)
		for _, f := range s.Findings {
			switch f["tier"] {
			case "deleted", "declared", "undeclared", "added", "ignored":
			default:
				continue
			}
			for _, k := range []string{"actual", "desired"} {
				if v, ok := f[k]; ok {
					if b, _ := json.Marshal(v); len(b) > 40 {
						f[k] = fmt.Sprintf("…%d bytes…", len(b))
					}
				}
			}
			delete(f, "physicalId")
			b, err := json.Marshal(f)
			if err != nil {
				return err
			}
			fmt.Fprintf(d.out, "    %s,\n", b)
		}
		fmt.Fprintf(d.out, "    … %d findings in all (informational tiers included)]}", len(s.Findings))
		if i < len(rep.Stacks)-1 {
			fmt.Fprint(d.out, ",")
		}
		fmt.Fprintln(d.out)
	}
	fmt.Fprintln(d.out, "]}")
	return nil
}

// incompleteStep takes cloudformation:GetResource (Cloud Control's read)
// away from the demo user's policy: the stack's check is INCOMPLETE, never
// CLEAN, and --fail exits 3; granting it back (the world as it was) makes
// the check clean again.
func (d *demo) incompleteStep(ctx context.Context) error {
	before, err := d.srv.Snapshot()
	if err != nil {
		return err
	}
	w, err := sandbox.ParseWorld(before)
	if err != nil {
		return err
	}
	key := worldgen.DemoAccessKey(d.account)
	for _, a := range w.Accounts {
		for _, k := range a.AccessKeys {
			if a.ID == d.account && k.ID == key {
				policy := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","NotAction":"cloudformation:GetResource","Resource":"*"}]}`
				a.Policies = append(a.Policies, &sandbox.Policies{User: k.UserName, Documents: []json.RawMessage{json.RawMessage(policy)}})
			}
		}
	}
	denied, err := w.Marshal()
	if err != nil {
		return err
	}
	if err := d.srv.Restore(denied); err != nil {
		return err
	}
	d.step(10, "a permission missing",
		"The read policy lost cloudformation:GetResource (the IAM action of Cloud Control's reads): realdrift cannot\n"+
			"read those resources, so it cannot know whether they drifted. The stack is INCOMPLETE (n of m not read), never\n"+
			"CLEAN; each skipped resource names the call that was refused. With --fail, incomplete coverage exits 3.")
	if err := d.cmd(ctx, ExitIncomplete, "check", d.queue.stack, "--fail"); err != nil {
		return err
	}
	if err := d.srv.Restore(before); err != nil {
		return err
	}
	fmt.Fprintln(d.out, "\nThe fix: grant cloudformation:GetResource back to the read policy. Then the same check is clean:")
	return d.cmd(ctx, ExitOK, "check", d.queue.stack, "--fail")
}
