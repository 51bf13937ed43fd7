package statemachine_test

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/statemachine"
	"github.com/realdrift/realdrift/statemachine/statemachinetest"
)

// readDefinition reads a definition from Go (so go test's cache sees edits
// the node scripts read).
func readDefinition(t *testing.T, name string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(name + ".asl.json")
	if err != nil {
		t.Fatal(err)
	}
	var def map[string]any
	if err := json.Unmarshal(b, &def); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return def
}

func TestDefinitionsValidate(t *testing.T) {
	l := statemachinetest.Local(t)
	synth, err := l.Synthesized()
	if err != nil {
		t.Fatal(err)
	}
	var files, args []string
	for _, name := range statemachine.DefinitionNames() {
		readDefinition(t, name)
		files = append(files, l.DefinitionPath(name))
		// Each as the type infra deploys it.
		args = append(args, l.DefinitionPath(name)+"="+synth[name].Type)
	}
	got, err := l.Validate(t.Context(), args...)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			v, ok := got[f]
			if !ok {
				t.Fatalf("no verdict for %s in %v", f, got)
			}
			if !v.Valid {
				t.Errorf("asl-validator: %s", strings.Join(v.Errors, "; "))
			}
		})
	}
}

// TestValidatorRejects proves the validation test can fail, and that it
// refuses what Step Functions refuses of the Distributed Map shapes
// (scripts/sfn/shapes.cjs): an ItemReader resource or InputType AWS does
// not document, a Distributed Map in an Express child or machine.
func TestValidatorRejects(t *testing.T) {
	l := statemachinetest.Local(t)
	tests := []struct{ name, file, typ, from, to, wantErr string }{
		{"missing target", "check-stack", "EXPRESS", `"Next": "Classify"`, `"Next": "Nowhere"`, "Nowhere"},
		{"no substitution for a placeholder", "check-stack", "EXPRESS", `${NotifyFunctionArn}`, `${NotAFunction}`, ""},
		{"ItemReader resource", "sweep", "STANDARD", `arn:aws:states:::s3:getObject`, `arn:aws:states:::s3:getObjekt`, "SHAPE_ITEM_READER"},
		{"ItemReader InputType", "sweep", "STANDARD", `"InputType": "JSON"`, `"InputType": "XML"`, "SHAPE_INPUT_TYPE"},
		{"ResultWriter resource", "sweep", "STANDARD", `arn:aws:states:::s3:putObject`, `arn:aws:states:::s3:putObjects`, "SHAPE_RESULT_WRITER"},
		{"Distributed Map in an Express child", "sweep", "STANDARD", `"ExecutionType": "STANDARD"`, `"ExecutionType": "EXPRESS"`, "SHAPE_DISTRIBUTED_IN_EXPRESS"},
		{"Distributed Map in an Express machine", "sweep", "EXPRESS", `"StartAt"`, `"StartAt"`, "SHAPE_DISTRIBUTED_IN_EXPRESS"},
		{"ItemReader on an inline Map", "sweep", "STANDARD", `"Mode": "DISTRIBUTED",
                      "ExecutionType": "STANDARD"`, `"Mode": "INLINE"`, "SHAPE_INLINE_MAP"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := os.ReadFile(tt.file + ".asl.json")
			if err != nil {
				t.Fatal(err)
			}
			bad := strings.Replace(string(b), tt.from, tt.to, 1)
			if !strings.Contains(string(b), tt.from) || bad == string(b) && tt.from != tt.to {
				t.Fatalf("%q not found in %s", tt.from, tt.file)
			}
			path := filepath.Join(t.TempDir(), "bad.asl.json")
			if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := l.Validate(t.Context(), path+"="+tt.typ)
			if tt.wantErr == "" {
				if err == nil {
					t.Errorf("Validate accepted an unsubstitutable definition: %v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got[path].Valid || !strings.Contains(strings.Join(got[path].Errors, " "), tt.wantErr) {
				t.Errorf("verdict %+v, want invalid mentioning %q", got[path], tt.wantErr)
			}
		})
	}
}

// state is one state with its path, found by walking a definition.
type state struct {
	path string
	body map[string]any
}

func walk(def map[string]any, prefix string, visit func(state)) {
	states, _ := def["States"].(map[string]any)
	names := make([]string, 0, len(states))
	for n := range states {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		body := states[n].(map[string]any)
		visit(state{path: prefix + n, body: body})
		if inner, ok := body["ItemProcessor"].(map[string]any); ok {
			walk(inner, prefix+n+"/", visit)
		}
		if inner, ok := body["Iterator"].(map[string]any); ok {
			walk(inner, prefix+n+"/", visit)
		}
		if branches, ok := body["Branches"].([]any); ok {
			for _, b := range branches {
				walk(b.(map[string]any), prefix+n+"/", visit)
			}
		}
	}
}

// callbackResource is the one service integration the definitions use: a
// Lambda invoked with a task token (scripts/sfn/run.js runs it locally).
const callbackResource = "arn:aws:states:::lambda:invoke.waitForTaskToken"

var placeholder = regexp.MustCompile(`^\$\{([A-Za-z]+FunctionArn)\}$`)

func errorsOf(list any) [][]string {
	var out [][]string
	for _, r := range list.([]any) {
		var names []string
		for _, e := range r.(map[string]any)["ErrorEquals"].([]any) {
			names = append(names, e.(string))
		}
		out = append(out, names)
	}
	return out
}

// TestDefinitionRules holds the rules doc.go states.
func TestDefinitionRules(t *testing.T) {
	known := map[string]bool{}
	for _, fn := range statemachine.FunctionNames() {
		known[statemachine.SubstitutionName(fn)] = true
	}
	lambdaErrors := []string{"Lambda.ServiceException", "Lambda.AWSLambdaException", "Lambda.SdkClientException", "Lambda.TooManyRequestsException"}
	// The sweep's and check-stack's Tasks also retry a Lambda timeout (the
	// handlers are idempotent); the revert's callback Task must not (its
	// timeout is the approval expiring).
	timeouts := []string{"States.Timeout", "Sandbox.Timedout", "Lambda.Unknown"}
	for _, name := range statemachine.DefinitionNames() {
		// Sweeps and checks must retry timeouts; the other definitions may.
		paced := name == statemachine.Sweep || name == statemachine.CheckStack
		wantRetry := [][]string{lambdaErrors, timeouts, {statemachine.ErrorThrottled}}
		def := readDefinition(t, name)
		if _, ok := def["QueryLanguage"]; ok {
			t.Errorf("%s sets QueryLanguage; definitions are JSONPath only", name)
		}
		walk(def, name+":", func(s state) {
			t.Run(s.path, func(t *testing.T) {
				for _, banned := range []string{"Assign", "Arguments", "Output", "QueryLanguage"} {
					if _, ok := s.body[banned]; ok {
						t.Errorf("uses %s, which does not run locally", banned)
					}
				}
				if s.body["Type"] != "Task" {
					return
				}
				// A Task invokes a function directly, or (waiting for a task
				// token) through lambda:invoke.waitForTaskToken naming one.
				fn := s.body["Resource"]
				if fn == callbackResource {
					params, _ := s.body["Parameters"].(map[string]any)
					payload, _ := params["Payload"].(map[string]any)
					if payload["taskToken.$"] != "$$.Task.Token" || s.body["TimeoutSeconds"] == nil {
						t.Errorf("callback Task: want Payload taskToken.$ = $$.Task.Token and a TimeoutSeconds; got %v", s.body)
					}
					fn = params["FunctionName"]
				}
				name, _ := fn.(string)
				m := placeholder.FindStringSubmatch(name)
				if m == nil || !known[m[1]] {
					t.Errorf("Resource %v is not a known ${XFunctionArn} substitution", s.body["Resource"])
				}
				retry, ok := s.body["Retry"]
				if !ok {
					t.Fatal("no Retry")
				}
				want := wantRetry
				if got := errorsOf(retry); !paced && len(got) == 2 {
					want = [][]string{lambdaErrors, {statemachine.ErrorThrottled}}
				}
				if diff := cmp.Diff(errorsOf(retry), want); diff != "" {
					t.Errorf("Retry errors (-got +want):\n%s", diff)
				}
				for _, r := range retry.([]any) {
					r := r.(map[string]any)
					if errs := errorsOf([]any{r}); paced && slices.Equal(errs[0], []string{statemachine.ErrorThrottled}) && r["MaxAttempts"] != float64(statemachine.ThrottledRetries) {
						t.Errorf("Throttled retrier MaxAttempts = %v, want statemachine.ThrottledRetries (%d): read-resources gives up after the last", r["MaxAttempts"], statemachine.ThrottledRetries)
					}
					if r["BackoffRate"].(float64) < 2 || r["JitterStrategy"] != "FULL" || r["MaxDelaySeconds"] == nil {
						t.Errorf("retrier %v: want exponential backoff >= 2 with FULL jitter and a max delay", r)
					}
				}
			})
		})
	}
}

// TestCheckStackCatchesEverything: every step that can fail records the
// stack as failed; the sweep never fails because of one stack or account.
func TestCheckStackCatchesEverything(t *testing.T) {
	def := readDefinition(t, statemachine.CheckStack)
	for name, body := range def["States"].(map[string]any) {
		body := body.(map[string]any)
		if body["Type"] != "Task" && body["Type"] != "Map" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			catch, ok := body["Catch"].([]any)
			if !ok || len(catch) != 1 {
				t.Fatalf("Catch = %v, want one catch-all", body["Catch"])
			}
			c := catch[0].(map[string]any)
			want := "RecordFailure"
			if name == "RecordFailure" {
				want = "StackFailed"
			}
			if diff := cmp.Diff(errorsOf(catch), [][]string{{"States.ALL"}}); diff != "" {
				t.Errorf("Catch errors (-got +want):\n%s", diff)
			}
			if c["Next"] != want {
				t.Errorf("Catch goes to %v, want %s", c["Next"], want)
			}
		})
	}
}

// TestSweepInlinesCheckStack keeps sweep's two per-stack processors in
// step with check-stack: the Express Stacks Map's is check-stack's states
// with FitsExpress (a stack of more than ExpressStackResources resources
// ends as StackDeferred) after LoadDesired; the Standard LargeStacks Map's
// is check-stack's states, each name prefixed Large (a state's name is
// unique in the whole definition); in both StackFailed is a Pass.
func TestSweepInlinesCheckStack(t *testing.T) {
	check := readDefinition(t, statemachine.CheckStack)
	sweep := readDefinition(t, statemachine.Sweep)
	accounts := sweep["States"].(map[string]any)["Accounts"].(map[string]any)
	regions := accounts["ItemProcessor"].(map[string]any)["States"].(map[string]any)["Regions"].(map[string]any)
	perRegion := regions["ItemProcessor"].(map[string]any)
	stacks := perRegion["States"].(map[string]any)["Stacks"].(map[string]any)
	large := perRegion["States"].(map[string]any)["LargeStacks"].(map[string]any)
	list := perRegion["States"].(map[string]any)["ListLargeStacks"].(map[string]any)

	for _, m := range []map[string]any{accounts, stacks, large} {
		got := m["ItemProcessor"].(map[string]any)["ProcessorConfig"].(map[string]any)
		if got["Mode"] != "DISTRIBUTED" {
			t.Errorf("%s ProcessorConfig = %v, want DISTRIBUTED", m["Label"], got)
		}
	}
	// Regions of one account run side by side, each with its own rate.
	if pc := perRegion["ProcessorConfig"].(map[string]any); pc["Mode"] != "INLINE" || regions["MaxConcurrency"] != 0.0 {
		t.Errorf("Regions: ProcessorConfig %v, MaxConcurrency %v; want INLINE and 0 (all at once)", pc, regions["MaxConcurrency"])
	}
	// Stacks, then the list of what it left, then LargeStacks.
	if perRegion["StartAt"] != "Stacks" || stacks["Next"] != "ListLargeStacks" || list["Next"] != "LargeStacks" || large["End"] != true {
		t.Errorf("Regions runs %v → %v → %v (End %v), want Stacks → ListLargeStacks → LargeStacks", perRegion["StartAt"], stacks["Next"], list["Next"], large["End"])
	}
	if want := "${" + statemachine.SubstitutionName(statemachine.FunctionDiscover) + "}"; list["Resource"] != want || stacks["ResultPath"] != "$.stacksRun" ||
		list["Parameters"].(map[string]any)["results.$"] != "$.stacksRun.ResultWriterDetails" {
		t.Errorf("ListLargeStacks %v after Stacks ResultPath %v: want discover given the Stacks Map Run's manifest", list, stacks["ResultPath"])
	}
	// In production a stack list pages through S3 and the children's
	// results go back to S3: neither passes through the state.
	for _, m := range []map[string]any{stacks, large} {
		reader, _ := m["ItemReader"].(map[string]any)
		writer, _ := m["ResultWriter"].(map[string]any)
		if reader["Resource"] != "arn:aws:states:::s3:getObject" || writer["Resource"] != "arn:aws:states:::s3:putObject" || m["ItemsPath"] != nil {
			t.Errorf("%s: ItemReader %v, ResultWriter %v, ItemsPath %v; want S3 getObject and putObject, no ItemsPath", m["Label"], reader, writer, m["ItemsPath"])
		}
	}
	// Express children for the stacks that fit in 5 minutes, Standard
	// ones for the rest (doc.go).
	for m, want := range map[string]string{"Stacks": "EXPRESS", "LargeStacks": "STANDARD"} {
		pc := perRegion["States"].(map[string]any)[m].(map[string]any)["ItemProcessor"].(map[string]any)["ProcessorConfig"].(map[string]any)
		if pc["ExecutionType"] != want {
			t.Errorf("%s ProcessorConfig = %v, want %s children", m, pc, want)
		}
	}

	want := check["States"].(map[string]any)
	if want["StackFailed"].(map[string]any)["Type"] != "Fail" {
		t.Errorf("check-stack StackFailed %v, want a Fail", want["StackFailed"])
	}
	// What the sweep's processors hold instead of check-stack's.
	sweepStates := func(prefix string) map[string]any {
		c := map[string]any{}
		for k, v := range want {
			c[prefix+k] = renameStates(v, prefix)
		}
		c[prefix+"StackFailed"] = map[string]any{
			"Type": "Pass", "Comment": "The failure is recorded; the sweep goes on.",
			"Parameters": map[string]any{"runId.$": "$.runId", "stack.$": "$.stack", "status": "failed", "error.$": "$.failure.Error"},
			"End":        true,
		}
		return c
	}
	express := sweepStates("")
	load := maps.Clone(express["LoadDesired"].(map[string]any))
	load["Next"] = "FitsExpress"
	express["LoadDesired"] = load
	express["FitsExpress"] = stacks["ItemProcessor"].(map[string]any)["States"].(map[string]any)["FitsExpress"]
	express["StackDeferred"] = map[string]any{
		"Type":       "Pass",
		"Comment":    "Nothing recorded: ListLargeStacks finds this output in the Map's results and the LargeStacks Map checks the stack.",
		"Parameters": map[string]any{"runId.$": "$.runId", "stack.$": "$.stack", "status": statemachine.StatusDeferred, "resources.$": "$.desired.resources"},
		"End":        true,
	}
	fits, _ := express["FitsExpress"].(map[string]any)
	if d := cmp.Diff(fits["Choices"], []any{map[string]any{"Variable": "$.desired.resources", "NumericGreaterThan": float64(statemachine.ExpressStackResources), "Next": "StackDeferred"}}); d != "" || fits["Default"] != "ReadResources" {
		t.Errorf("FitsExpress %v: want more than ExpressStackResources (%d) resources deferred, else ReadResources (-got +want):\n%s", fits, statemachine.ExpressStackResources, d)
	}
	for name, c := range map[string]struct {
		m     map[string]any
		start string
		want  map[string]any
	}{"Stacks": {stacks, "LoadDesired", express}, "LargeStacks": {large, "LargeLoadDesired", sweepStates("Large")}} {
		inner := c.m["ItemProcessor"].(map[string]any)
		if inner["StartAt"] != c.start || check["StartAt"] != "LoadDesired" {
			t.Errorf("%s StartAt = %v, check-stack StartAt = %v; want %s", name, inner["StartAt"], check["StartAt"], c.start)
		}
		if diff := cmp.Diff(inner["States"], c.want); diff != "" {
			t.Errorf("%s per-stack states differ from check-stack's (-sweep +want):\n%s", name, diff)
		}
	}
}

// renameStates prefixes every state name a state refers to (Next, Default,
// StartAt, the States of an inner processor).
func renameStates(v any, prefix string) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			switch s, isString := x.(string); {
			case isString && (k == "Next" || k == "Default" || k == "StartAt"):
				out[k] = prefix + s
			case k == "States":
				states := map[string]any{}
				for n, st := range x.(map[string]any) {
					states[prefix+n] = renameStates(st, prefix)
				}
				out[k] = states
			default:
				out[k] = renameStates(x, prefix)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = renameStates(x, prefix)
		}
		return out
	}
	return v
}

func TestSubstitutionName(t *testing.T) {
	var got []string
	for _, fn := range statemachine.FunctionNames() {
		got = append(got, statemachine.SubstitutionName(fn))
	}
	want := []string{"DiscoverFunctionArn", "LoadDesiredFunctionArn", "ReadResourcesFunctionArn", "ResolveFunctionArn",
		"EnumerateChildrenFunctionArn", "ClassifyFunctionArn", "PersistFunctionArn", "NotifyFunctionArn", "TriggerFunctionArn",
		"RevertPlanFunctionArn", "RequestApprovalFunctionArn", "RevertWriteFunctionArn", "RevertConvergeFunctionArn", "RevertAuditFunctionArn",
		"ApproveLinkFunctionArn", "AcceptFunctionArn"}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("(-got +want):\n%s", diff)
	}
	// Every function but trigger and approve-link is used by some definition.
	var used []string
	for _, name := range statemachine.DefinitionNames() {
		b, err := os.ReadFile(name + ".asl.json")
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`\$\{(\w+)\}`).FindAllStringSubmatch(string(b), -1) {
			if !slices.Contains(used, m[1]) {
				used = append(used, m[1])
			}
		}
	}
	sort.Strings(used)
	wantUsed := slices.DeleteFunc(slices.Clone(want), func(s string) bool { return s == "TriggerFunctionArn" || s == "ApproveLinkFunctionArn" })
	sort.Strings(wantUsed)
	if diff := cmp.Diff(used, wantUsed); diff != "" {
		t.Errorf("substitutions used by the definitions (-got +want):\n%s", diff)
	}
}

// TestRevertDefinition holds the revert's shape: every Task and Map ends in
// a catch-all that records the outcome; the approval waits on a task token
// and its rejection (or timeout) is recorded without reaching the writes;
// the writes run per resource with bounded concurrency; a dry run and an
// empty plan stop before the approval.
func TestRevertDefinition(t *testing.T) {
	def := readDefinition(t, statemachine.Revert)
	states := def["States"].(map[string]any)
	for name, body := range states {
		body := body.(map[string]any)
		if body["Type"] != "Task" && body["Type"] != "Map" {
			continue
		}
		catch, _ := body["Catch"].([]any)
		if len(catch) == 0 {
			t.Errorf("%s catches nothing", name)
			continue
		}
		last := catch[len(catch)-1].(map[string]any)
		if diff := cmp.Diff(errorsOf([]any{last}), [][]string{{"States.ALL"}}); diff != "" {
			t.Errorf("%s: last catch (-got +want):\n%s", name, diff)
		}
	}
	wait := states["WaitForApproval"].(map[string]any)
	if wait["Resource"] != callbackResource {
		t.Errorf("WaitForApproval resource %v, want %s", wait["Resource"], callbackResource)
	}
	first := wait["Catch"].([]any)[0].(map[string]any)
	if diff := cmp.Diff(errorsOf([]any{first}), [][]string{{statemachine.ErrorRejected, "States.Timeout"}}); diff != "" || first["Next"] != "RecordRejected" {
		t.Errorf("the approval's first catch %v: want RevertRejected and States.Timeout to RecordRejected", first)
	}
	if next := states["RecordRejected"].(map[string]any)["Next"]; next != "Notify" {
		t.Errorf("RecordRejected goes to %v, want Notify (never the writes)", next)
	}
	if wait["Next"] != "Write" {
		t.Errorf("WaitForApproval goes to %v, want Write", wait["Next"])
	}
	write := states["Write"].(map[string]any)
	if mc, _ := write["MaxConcurrency"].(float64); mc < 1 || mc > 10 {
		t.Errorf("Write MaxConcurrency %v, want a bound in 1..10", write["MaxConcurrency"])
	}
	if write["ItemsPath"] != "$.plan.resources" {
		t.Errorf("Write maps over %v, want the plan's resources", write["ItemsPath"])
	}
	choices := states["DryRun"].(map[string]any)["Choices"].([]any)
	for _, c := range choices {
		if c.(map[string]any)["Next"] != "Planned" {
			t.Errorf("DryRun choice %v does not stop at Planned", c)
		}
	}
	if states["Plan"].(map[string]any)["Next"] != "DryRun" {
		t.Error("Plan does not go to the DryRun choice")
	}
}

// TestAcceptDefinition holds the accept's shape: the input kept whole under
// $.request, one record Task whose every failure is audited
// (record-failure, with the error and cause) and ends the execution
// AcceptFailed; success outputs the audit's reference.
func TestAcceptDefinition(t *testing.T) {
	def := readDefinition(t, statemachine.Accept)
	states := def["States"].(map[string]any)
	get := func(name string) map[string]any {
		s, ok := states[name].(map[string]any)
		if !ok {
			t.Fatalf("no state %s", name)
		}
		return s
	}
	if def["StartAt"] != "Start" || get("Start")["Parameters"].(map[string]any)["request.$"] != "$" {
		t.Errorf("Start: want the input under $.request, got %v", get("Start"))
	}
	for name, action := range map[string]string{"Accept": statemachine.AcceptRecord, "RecordFailure": statemachine.AcceptRecordFailure} {
		s := get(name)
		p := s["Parameters"].(map[string]any)
		if s["Resource"] != "${AcceptFunctionArn}" || p["action"] != action || p["request.$"] != "$.request" || p["runId.$"] != "$$.Execution.Name" || p["execution.$"] != "$$.Execution.Id" {
			t.Errorf("%s: want accept %s with the request, run id and execution; got %v", name, action, s)
		}
		catch, _ := s["Catch"].([]any)
		want := map[string]string{"Accept": "RecordFailure", "RecordFailure": "Failed"}[name]
		if len(catch) != 1 || catch[0].(map[string]any)["Next"] != want || errorsOf(catch)[0][0] != "States.ALL" {
			t.Errorf("%s: catch %v, want States.ALL → %s", name, catch, want)
		}
	}
	if p := get("RecordFailure")["Parameters"].(map[string]any); p["error.$"] != "$.failure.Error" || p["cause.$"] != "$.failure.Cause" {
		t.Errorf("RecordFailure parameters %v: want the failure's error and cause", p)
	}
	if get("Accept")["Next"] != "Accepted" || get("Accepted")["InputPath"] != "$.accepted" || get("RecordFailure")["Next"] != "Failed" {
		t.Error("want Accept → Accepted (the audit's reference) and RecordFailure → Failed")
	}
	if f := get("Failed"); f["Type"] != "Fail" || f["Error"] != statemachine.ErrorAcceptFailed {
		t.Errorf("Failed: %v, want Fail %s", f, statemachine.ErrorAcceptFailed)
	}
}
