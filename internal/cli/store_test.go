package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/baseline"
	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/internal/store/storetest"
)

// tableEnv is a sandbox env whose verbs keep their state in a DynamoDB
// Local table (--store dynamodb://TABLE) instead of a state directory.
type tableEnv struct {
	*sandboxEnv
	ddbURL string
	table  *store.Dynamo
	url    string
}

// newTableEnv starts the App world and creates a fresh table.
func newTableEnv(t *testing.T, endpoint string) *tableEnv {
	t.Helper()
	db := dynamodb.New(dynamodb.Options{
		Region: testRegion, BaseEndpoint: aws.String(endpoint),
		Credentials:                     credentials.NewStaticCredentialsProvider("local", "local", ""),
		DisableValidateResponseChecksum: true,
	})
	name := fmt.Sprintf("realdrift-store-%d", time.Now().UnixNano())
	if err := store.CreateTable(t.Context(), db, name); err != nil {
		t.Fatal(err)
	}
	return &tableEnv{sandboxEnv: newAppEnv(t), ddbURL: endpoint, table: store.NewDynamo(db, name), url: "dynamodb://" + name + "?region=" + testRegion}
}

// getenv is the sandbox env's plus AWS_ENDPOINT_URL_DYNAMODB: the table
// is reached at DynamoDB Local, every other call at the sandbox.
func (e *tableEnv) getenv(k string) string {
	if k == "AWS_ENDPOINT_URL_DYNAMODB" {
		return e.ddbURL
	}
	return e.sandboxEnv.getenv(k)
}

// runStore runs a verb with --store (the given URL, or the table's when
// empty) and no --state-dir.
func (e *tableEnv) runStore(stdin io.Reader, tty bool, verb string, args ...string) (stdout, stderr string, code int) {
	ctx, cancel := context.WithTimeout(context.Background(), deadlinetest.Scale(e.t, 120*time.Second))
	defer cancel()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var out lockedBuffer
	var errb bytes.Buffer
	full := append([]string{verb, "--endpoint-url", e.sandboxEnv.url, "--store", e.url}, args...)
	code = runVerb(e.t, ctx, IO{Stdin: stdin, Stdout: &out, Stderr: &errb, Getenv: e.getenv, StdinTTY: tty}, full)
	return out.String(), errb.String(), code
}

func (e *tableEnv) checkJSON(args ...string) (jsonReport, string, int) {
	e.t.Helper()
	out, errs, code := e.runStore(nil, false, "check", append([]string{"--json"}, args...)...)
	var rep jsonReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		e.t.Fatalf("check --json --store: %v\nstdout:\n%s\nstderr:\n%s", err, out, errs)
	}
	return rep, errs, code
}

var appRef = drift.StackRef{Name: "App", Account: testAccount, Region: testRegion}

// TestStore: check, record and ignore with --store dynamodb://TABLE keep
// and read their baselines and ignore rules in the table (DynamoDB Local,
// the real SDK client), concurrent writers through the table lose nothing,
// and a bad store URL is exit 2 before any call.
func TestStore(t *testing.T) {
	var local storetest.DynamoLocal
	t.Cleanup(local.Stop)
	endpoint := local.Endpoint(t, "check/record/ignore --store")

	t.Run("RecordCheckRoundTrip", func(t *testing.T) {
		e := newTableEnv(t, endpoint)
		t.Chdir(t.TempDir()) // a default .realdrift would show here
		rep, errs, code := e.checkJSON("App", "--fail")
		if code != ExitOK || rep.Verdict != "potentialDrift" {
			t.Fatalf("check before record: exit %d verdict %s\n%s", code, rep.Verdict, errs)
		}
		out, errs, code := e.runStore(nil, false, "record", "--yes", "App")
		if code != ExitOK || !strings.Contains(out, "→ "+e.url+" (baseline App.111111111111.us-east-1)") {
			t.Fatalf("record --store: exit %d\n%s%s", code, out, errs)
		}
		b, _, err := baseline.LoadStored(t.Context(), e.table, appRef)
		if err != nil || b == nil || len(b.Entries) != 3 {
			t.Fatalf("the table's baseline: %v, %v; want the 3 live-only values", b, err)
		}
		if _, err := os.Stat(store.DefaultDir); !os.IsNotExist(err) {
			t.Errorf("record --store wrote a state directory: %v", err)
		}
		rep, errs, code = e.checkJSON("App", "--fail")
		if code != ExitOK || rep.Verdict != "clean" {
			t.Errorf("check --store after record: exit %d verdict %s\n%s%v", code, rep.Verdict, errs, rep.briefs())
		}
		// The same check against an empty state directory does not see the
		// table's baseline: the suppression above came from the table.
		if rep, _, code := e.sandboxEnv.checkJSON("App", "--fail"); code != ExitOK || rep.Verdict != "potentialDrift" {
			t.Errorf("check --state-dir (empty): exit %d verdict %s, want potentialDrift", code, rep.Verdict)
		}
		// An unchanged record leaves the table's item alone.
		_, v1, _ := e.table.GetBaseline(t.Context(), appRef)
		if out, errs, code := e.runStore(nil, false, "record", "--yes", "App"); code != ExitOK || !strings.HasPrefix(out, "unchanged ") {
			t.Errorf("second record: exit %d\n%s%s", code, out, errs)
		}
		if _, v2, _ := e.table.GetBaseline(t.Context(), appRef); v2 != v1 {
			t.Errorf("an unchanged record moved the table's version %d → %d", v1, v2)
		}
		e.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: queueURL("App-Orders-1"), Path: "MaximumMessageSize", Value: json.RawMessage(`4096`)})
		rep, errs, code = e.checkJSON("App", "--fail")
		want := map[string][]brief{"OrdersQueue1234": {{Tier: "undeclared", Path: "MaximumMessageSize", Note: "changed since record"}}}
		if diff := cmp.Diff(rep.briefs(), want); code != ExitDrift || diff != "" {
			t.Errorf("check --store after a change: exit %d (-got +want):\n%s\n%s", code, diff, errs)
		}
		// revert reads the same baseline: the recorded value is its plan.
		out, errs, code = e.runStore(nil, false, "revert", "--dry-run", "App")
		if code != ExitOK || !strings.Contains(out, "MaximumMessageSize") || !strings.Contains(out, "1024") {
			t.Errorf("revert --dry-run --store: exit %d\n%s%s", code, out, errs)
		}
	})

	t.Run("ConcurrentRecords", func(t *testing.T) {
		e := newTableEnv(t, endpoint)
		wants := []string{"Fn.CodeSha256", "Orders/Queue.MaximumMessageSize", "Jobs.MaximumMessageSize"}
		var wg sync.WaitGroup
		for i, w := range wants {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var prompt lockedBuffer
				ctx, cancel := context.WithTimeout(context.Background(), deadlinetest.Scale(t, 120*time.Second))
				defer cancel()
				var errb bytes.Buffer
				code := runVerb(t, ctx, IO{Stdin: &chooser{want: w, prompt: &prompt}, Stdout: &prompt, Stderr: &errb, Getenv: e.getenv, StdinTTY: true, IsTTY: true},
					[]string{"record", "--endpoint-url", e.sandboxEnv.url, "--store", e.url, "App"})
				if code != ExitOK {
					t.Errorf("record #%d (%s): exit %d\n%s%s", i, w, code, prompt.String(), errb.String())
				}
			}()
		}
		wg.Wait()
		b, _, err := baseline.LoadStored(t.Context(), e.table, appRef)
		if err != nil || b == nil || len(b.Entries) != len(wants) {
			t.Fatalf("the table's baseline after %d concurrent records: %v, %v; want %d entries", len(wants), b, err, len(wants))
		}
		if rep, errs, code := e.checkJSON("App", "--fail"); code != ExitOK || rep.Verdict != "clean" {
			t.Errorf("check --store: exit %d verdict %s\n%s%v", code, rep.Verdict, errs, rep.briefs())
		}
	})

	t.Run("IgnoreRules", func(t *testing.T) {
		e := newTableEnv(t, endpoint)
		out, errs, code := e.runStore(nil, false, "ignore", "--path", "Orders/Queue.MaximumMessageSize", "App")
		if code != ExitOK || !strings.Contains(out, "added 1 ignore rule(s) to "+e.url+" (ignore rules)") {
			t.Fatalf("ignore --path --store: exit %d\n%s%s", code, out, errs)
		}
		rep, errs, code := e.checkJSON("App", "--verbose")
		if f, ok := rep.find("OrdersQueue1234", "MaximumMessageSize"); code != ExitOK || !ok || f.Tier != drift.Ignored {
			t.Errorf("check --store after ignore: exit %d, finding %+v (found %v); want it ignored\n%s", code, f, ok, errs)
		}
		// --all-findings through the table: the rest of the stack's
		// findings, appended after the first rule.
		if out, errs, code := e.runStore(nil, false, "ignore", "--all-findings", "App"); code != ExitOK {
			t.Fatalf("ignore --all-findings --store: exit %d\n%s%s", code, out, errs)
		}
		if rep, errs, code := e.checkJSON("App", "--fail"); code != ExitOK || rep.Verdict != "clean" {
			t.Errorf("check --store after ignoring everything: exit %d verdict %s\n%s%v", code, rep.Verdict, errs, rep.briefs())
		}
		// Concurrent appends through the table: every rule lands once.
		const writers = 6
		var wg sync.WaitGroup
		for i := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if out, errs, code := e.runStore(nil, false, "ignore", "--path", fmt.Sprintf("Queue%d.X", i)); code != ExitOK {
					t.Errorf("ignore #%d: exit %d\n%s%s", i, code, out, errs)
				}
			}()
		}
		wg.Wait()
		rules, err := ignore.LoadStored(t.Context(), e.table, "")
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for _, r := range rules {
			got[r.Path]++
		}
		for i := range writers {
			if p := fmt.Sprintf("Queue%d.X", i); got[p] != 1 {
				t.Errorf("rule %s stored %d times, want once (rules %v)", p, got[p], got)
			}
		}
		if got["Orders/Queue.MaximumMessageSize"] != 1 {
			t.Errorf("the first rule is gone: %v", got)
		}
	})

	t.Run("BadURL", func(t *testing.T) {
		e := newTableEnv(t, endpoint)
		before := e.srv.Calls().Total
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"check", "--store", "s3://bucket", "App"}, "--store"},
			{[]string{"check", "--store", "dynamodb://", "App"}, "no table"},
			{[]string{"record", "--yes", "--store", "dynamodb://tbl?profile=x", "App"}, `unknown parameter "profile"`},
			{[]string{"ignore", "--path", "A.B", "--store", "realdrift-table"}, "want dynamodb://TABLE"},
			{[]string{"ignore", "--all-findings", "--store", "file://", "App"}, "no directory"},
			{[]string{"revert", "--dry-run", "--store", "dynamodb://a/b", "App"}, "--store"},
			{[]string{"check", "--store", e.url, "--state-dir", t.TempDir(), "App"}, "exclude each other"},
		} {
			var out, errb bytes.Buffer
			full := append([]string{c.args[0], "--endpoint-url", e.sandboxEnv.url}, c.args[1:]...)
			code := runVerb(t, t.Context(), IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: e.getenv}, full)
			if code != ExitError || !strings.Contains(errb.String(), c.want) {
				t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errb.String(), c.want)
			}
		}
		if after := e.srv.Calls().Total; after != before {
			t.Errorf("bad store URLs made %d sandbox calls, want none", after-before)
		}
		// A table that does not exist is an error naming the URL, never a
		// check against no baseline.
		missing := "dynamodb://realdrift-no-such-table?region=" + testRegion
		for _, verb := range [][]string{{"check", "App"}, {"record", "--yes", "App"}, {"ignore", "--path", "A.B"}} {
			var out, errb bytes.Buffer
			full := append([]string{verb[0], "--endpoint-url", e.sandboxEnv.url, "--store", missing}, verb[1:]...)
			code := runVerb(t, t.Context(), IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: e.getenv}, full)
			if code != ExitError || !strings.Contains(errb.String(), "the table does not exist") {
				t.Errorf("%s --store %s: exit %d, stderr %q; want 2 and the table named", verb[0], missing, code, errb.String())
			}
		}
		// Without ?region= the region the table was looked for in is the
		// verb's: every message names it.
		noRegion := "dynamodb://realdrift-no-such-table"
		for _, verb := range [][]string{{"check", "App"}, {"record", "--yes", "App"}, {"ignore", "--path", "A.B"}} {
			var out, errb bytes.Buffer
			full := append([]string{verb[0], "--endpoint-url", e.sandboxEnv.url, "--store", noRegion}, verb[1:]...)
			code := runVerb(t, t.Context(), IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: e.getenv}, full)
			want := noRegion + "?region=" + testRegion + ": the table does not exist in " + testRegion
			if code != ExitError || !strings.Contains(errb.String(), want) {
				t.Errorf("%s --store %s: exit %d, stderr %q; want 2 and %q", verb[0], noRegion, code, errb.String(), want)
			}
		}
		// file://DIR is the state directory.
		dir := filepath.Join(t.TempDir(), "state")
		var out, errb bytes.Buffer
		if code := runVerb(t, t.Context(), IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: e.getenv},
			[]string{"ignore", "--path", "A.B", "--store", "file://" + dir}); code != ExitOK || !strings.Contains(out.String(), filepath.Join(dir, "ignore.yaml")) {
			t.Errorf("ignore --store file://: exit %d\n%s%s", code, out.String(), errb.String())
		}
	})
}
