package statemachine_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/lambdarouter"
	"github.com/realdrift/realdrift/statemachine"
	"github.com/realdrift/realdrift/statemachine/statemachinetest"
)

// The runner's model of Step Functions (scripts/sfn, doc.go): one test per
// behaviour, each on a small definition of Pass, Choice, Fail and Wait
// states so only the runner is under test.

// runDefinition runs def (ASL JSON) as a state machine of type typ.
func runDefinition(t *testing.T, def, typ string, input any, s3 *statemachinetest.S3, scale float64) statemachine.Execution {
	t.Helper()
	l := statemachinetest.Local(t)
	file := filepath.Join(t.TempDir(), "test.asl.json")
	if err := os.WriteFile(file, []byte(def), 0o600); err != nil {
		t.Fatal(err)
	}
	r := statemachine.Run{Definition: file, Type: typ, Input: input, ExecutionName: "exec-1", TimeScale: scale}
	if s3 != nil {
		r = s3.Run(r)
	}
	ex, err := l.Run(t.Context(), r)
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

// distributed is a definition whose one state is a Distributed Map with
// the given fields (JSON object members) and a child of the given states.
func distributed(fields, execType, childStates, childStart string) string {
	return `{"StartAt":"Items","States":{"Items":{"Type":"Map",` + fields + `,
	  "ItemProcessor":{"ProcessorConfig":{"Mode":"DISTRIBUTED","ExecutionType":"` + execType + `"},"StartAt":"` + childStart + `","States":` + childStates + `},
	  "End":true}}}`
}

const echoChild = `{"Echo":{"Type":"Pass","End":true}}`

// resultRecord is an entry of a ResultWriter's SUCCEEDED_n / FAILED_n file.
type resultRecord struct {
	ExecutionArn, Name, Status, Input, Output, Error, Cause, StateMachineArn string
}

// manifest is a ResultWriter's manifest.json.
type manifest struct {
	DestinationBucket string
	MapRunArn         string
	ResultFiles       map[string][]struct {
		Key  string
		Size int
	}
}

func readJSON(t *testing.T, s3 *statemachinetest.S3, key string, v any) {
	t.Helper()
	b, err := s3.Get(t.Context(), key)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v\n%s", key, err, b)
	}
}

// TestDistributedMapReadsS3AndWritesResults: ItemReader (JSON array, JSON
// Lines, ReaderConfig.MaxItems), ItemSelector, ResultWriter's layout and
// the Map Run summary.
func TestDistributedMapReadsS3AndWritesResults(t *testing.T) {
	s3 := statemachinetest.ServeS3(t, "items")
	if err := s3.Put(t.Context(), "in/items.json", []byte(`[{"n":1},{"n":2},{"n":3}]`)); err != nil {
		t.Fatal(err)
	}
	if err := s3.Put(t.Context(), "in/items.jsonl", []byte("{\"n\":1}\n{\"n\":2}\n\n{\"n\":3}\n")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, key, readerConfig string
		want                    []int
	}{
		{"JSON array", "in/items.json", `{"InputType":"JSON"}`, []int{1, 2, 3}},
		{"JSON Lines", "in/items.jsonl", `{"InputType":"JSONL"}`, []int{1, 2, 3}},
		{"MaxItems", "in/items.json", `{"InputType":"JSON","MaxItems":2}`, []int{1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			def := distributed(`"ItemReader":{"Resource":"arn:aws:states:::s3:getObject","ReaderConfig":`+tt.readerConfig+`,"Parameters":{"Bucket.$":"$.bucket","Key.$":"$.key"}},
			  "ItemSelector":{"n.$":"$$.Map.Item.Value.n","index.$":"$$.Map.Item.Index","run.$":"$.run"},
			  "ResultWriter":{"Resource":"arn:aws:states:::s3:putObject","Parameters":{"Bucket.$":"$.bucket","Prefix":"out/results"}},
			  "MaxConcurrency":2,"Label":"Items"`, statemachine.TypeExpress, echoChild, "Echo")
			ex := runDefinition(t, def, statemachine.TypeStandard, map[string]any{"bucket": "items", "key": tt.key, "run": "r-7"}, s3, 0)
			if ex.Status != "SUCCEEDED" {
				t.Fatalf("status %s %+v", ex.Status, ex.Error)
			}
			var out struct {
				MapRunArn           string
				ResultWriterDetails statemachine.ResultWriterDetails
			}
			if err := json.Unmarshal(ex.Output, &out); err != nil {
				t.Fatal(err)
			}
			if len(ex.MapRuns) != 1 {
				t.Fatalf("map runs %+v, want one", ex.MapRuns)
			}
			run := ex.MapRuns[0]
			runID := run.MapRunArn[strings.LastIndex(run.MapRunArn, ":")+1:]
			wantKey := "out/results/" + runID + "/manifest.json"
			if out.MapRunArn != run.MapRunArn || out.ResultWriterDetails != (statemachine.ResultWriterDetails{Bucket: "items", Key: wantKey}) {
				t.Errorf("output %s, want the map run and s3://items/%s", ex.Output, wantKey)
			}
			if !strings.Contains(run.MapRunArn, ":mapRun:test/Items:") || run.ExecutionType != statemachine.TypeExpress || run.Status != "SUCCEEDED" || run.MaxConcurrency != 2 {
				t.Errorf("map run %+v", run)
			}
			n := len(tt.want)
			if diff := cmp.Diff(run.ItemCounts, statemachine.MapRunCounts{Total: n, Succeeded: n, ResultsWritten: n}); diff != "" {
				t.Errorf("item counts (-got +want):\n%s", diff)
			}
			var m manifest
			readJSON(t, s3, wantKey, &m)
			succeeded := "out/results/" + runID + "/SUCCEEDED_0.json"
			if m.DestinationBucket != "items" || m.MapRunArn != run.MapRunArn || len(m.ResultFiles["SUCCEEDED"]) != 1 || m.ResultFiles["SUCCEEDED"][0].Key != succeeded || len(m.ResultFiles["FAILED"]) != 0 {
				t.Errorf("manifest %+v", m)
			}
			var recs []resultRecord
			readJSON(t, s3, succeeded, &recs)
			var got []int
			for i, r := range recs {
				var in, o struct{ N, Index int }
				if json.Unmarshal([]byte(r.Input), &in) != nil || json.Unmarshal([]byte(r.Output), &o) != nil || r.Status != "SUCCEEDED" || in != o || in.Index != i {
					t.Errorf("record %d: %+v", i, r)
				}
				if !strings.Contains(r.Input, `"run":"r-7"`) || !strings.Contains(r.ExecutionArn, ":express:test/Items:") {
					t.Errorf("record %d: input %s, arn %s: want the state input's run and an Express child", i, r.Input, r.ExecutionArn)
				}
				got = append(got, in.N)
			}
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("items (-got +want):\n%s", diff)
			}
		})
	}
}

// TestDistributedMapItemReaderFailures: an object that is missing, not an
// array or not JSON fails the state with States.ItemReaderFailed.
func TestDistributedMapItemReaderFailures(t *testing.T) {
	s3 := statemachinetest.ServeS3(t, "items")
	if err := s3.Put(t.Context(), "object.json", []byte(`{"n":1}`)); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"missing.json", "object.json"} {
		def := distributed(`"ItemReader":{"Resource":"arn:aws:states:::s3:getObject","ReaderConfig":{"InputType":"JSON"},"Parameters":{"Bucket":"items","Key":"`+key+`"}}`,
			statemachine.TypeExpress, echoChild, "Echo")
		ex := runDefinition(t, def, statemachine.TypeStandard, map[string]any{}, s3, 0)
		if ex.Status != "FAILED" || ex.Error == nil || ex.Error.Error != "States.ItemReaderFailed" {
			t.Errorf("%s: %s %+v, want FAILED States.ItemReaderFailed", key, ex.Status, ex.Error)
		}
	}
}

// TestDistributedMapBatches: ItemBatcher gives each child {Items,
// BatchInput} of at most MaxItemsPerBatch items; the Map Run counts items
// and child executions apart; MaxConcurrencyPath sets the concurrency.
func TestDistributedMapBatches(t *testing.T) {
	def := distributed(`"ItemsPath":"$.items","MaxConcurrencyPath":"$.atOnce",
	  "ItemBatcher":{"MaxItemsPerBatch":2,"BatchInput":{"run.$":"$.run"}}`, statemachine.TypeStandard, echoChild, "Echo")
	ex := runDefinition(t, def, statemachine.TypeStandard, map[string]any{"items": []int{1, 2, 3, 4, 5}, "run": "r-1", "atOnce": 3}, nil, 0)
	if ex.Status != "SUCCEEDED" {
		t.Fatalf("status %s %+v", ex.Status, ex.Error)
	}
	var got []any
	if err := json.Unmarshal(ex.Output, &got); err != nil {
		t.Fatal(err)
	}
	want := []any{
		map[string]any{"Items": []any{1.0, 2.0}, "BatchInput": map[string]any{"run": "r-1"}},
		map[string]any{"Items": []any{3.0, 4.0}, "BatchInput": map[string]any{"run": "r-1"}},
		map[string]any{"Items": []any{5.0}, "BatchInput": map[string]any{"run": "r-1"}},
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("children's outputs (-got +want):\n%s", diff)
	}
	run := ex.MapRuns[0]
	if run.ItemCounts.Total != 5 || run.ItemCounts.Succeeded != 5 || run.ExecutionCounts.Total != 3 || run.ExecutionCounts.Succeeded != 3 || run.MaxConcurrency != 3 {
		t.Errorf("map run %+v: want 5 items in 3 executions, concurrency 3", run)
	}
}

// failChild fails an item whose fail field is true.
const failChild = `{"Check":{"Type":"Choice","Choices":[{"Variable":"$.fail","BooleanEquals":true,"Next":"Boom"}],"Default":"Fine"},
  "Boom":{"Type":"Fail","Error":"Boom","Cause":"item failed"},"Fine":{"Type":"Pass","End":true}}`

// TestDistributedMapToleratedFailures: failed children within
// ToleratedFailurePercentage / Count leave the state succeeded (and are
// written to FAILED_0.json); beyond it the state fails with
// States.ExceedToleratedFailureThreshold; no tolerance fails on one.
func TestDistributedMapToleratedFailures(t *testing.T) {
	s3 := statemachinetest.ServeS3(t, "items")
	items := []map[string]bool{{"fail": false}, {"fail": true}, {"fail": false}, {"fail": true}}
	tests := []struct {
		name, tolerance, wantStatus, wantError string
	}{
		{"percentage met", `"ToleratedFailurePercentage":50,`, "SUCCEEDED", ""},
		{"percentage exceeded", `"ToleratedFailurePercentage":25,`, "FAILED", "States.ExceedToleratedFailureThreshold"},
		{"count exceeded", `"ToleratedFailureCount":1,`, "FAILED", "States.ExceedToleratedFailureThreshold"},
		{"no tolerance", ``, "FAILED", "States.ExceedToleratedFailureThreshold"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			def := distributed(tt.tolerance+`"ItemsPath":"$.items","MaxConcurrency":1,
			  "ResultWriter":{"Resource":"arn:aws:states:::s3:putObject","Parameters":{"Bucket":"items","Prefix":"tolerance"}}`,
				statemachine.TypeExpress, failChild, "Check")
			ex := runDefinition(t, def, statemachine.TypeStandard, map[string]any{"items": items}, s3, 0)
			if ex.Status != tt.wantStatus || tt.wantError != "" && (ex.Error == nil || ex.Error.Error != tt.wantError) {
				t.Fatalf("status %s %+v, want %s %s", ex.Status, ex.Error, tt.wantStatus, tt.wantError)
			}
			if tt.wantStatus != "SUCCEEDED" {
				return
			}
			var out struct {
				ResultWriterDetails statemachine.ResultWriterDetails
			}
			if err := json.Unmarshal(ex.Output, &out); err != nil {
				t.Fatal(err)
			}
			var m manifest
			readJSON(t, s3, out.ResultWriterDetails.Key, &m)
			if len(m.ResultFiles["FAILED"]) != 1 {
				t.Fatalf("manifest %+v: want one FAILED file", m)
			}
			var recs []resultRecord
			readJSON(t, s3, m.ResultFiles["FAILED"][0].Key, &recs)
			if len(recs) != 2 || recs[0].Status != "FAILED" || recs[0].Error != "Boom" || recs[0].Cause != "item failed" {
				t.Errorf("failed records %+v: want the two failed children with their error", recs)
			}
			if c := ex.MapRuns[0].ItemCounts; c.Failed != 2 || c.Succeeded != 2 {
				t.Errorf("item counts %+v, want 2 failed, 2 succeeded", c)
			}
		})
	}
}

// TestExpressFiveMinutes: an Express execution ends TIMED_OUT after 5
// minutes (the runner's clock, scaled), as a child of a Distributed Map
// (counted timedOut) and alone; a Standard child runs on.
func TestExpressFiveMinutes(t *testing.T) {
	const scale = 600 // 5 minutes are 0.5 s
	wait := `{"Long":{"Type":"Wait","Seconds":360,"Next":"Done"},"Done":{"Type":"Pass","End":true}}`
	for _, typ := range []string{statemachine.TypeExpress, statemachine.TypeStandard} {
		t.Run("child "+typ, func(t *testing.T) {
			def := distributed(`"ItemsPath":"$.items","ToleratedFailurePercentage":100`, typ, wait, "Long")
			ex := runDefinition(t, def, statemachine.TypeStandard, map[string]any{"items": []int{1}}, nil, scale)
			if ex.Status != "SUCCEEDED" || len(ex.MapRuns) != 1 {
				t.Fatalf("status %s %+v, map runs %+v", ex.Status, ex.Error, ex.MapRuns)
			}
			want := statemachine.MapRunCounts{Total: 1, Succeeded: 1}
			if typ == statemachine.TypeExpress {
				want = statemachine.MapRunCounts{Total: 1, TimedOut: 1}
			}
			if diff := cmp.Diff(ex.MapRuns[0].ItemCounts, want); diff != "" {
				t.Errorf("item counts (-got +want):\n%s", diff)
			}
			// Each execution's duration, in real seconds: the Express
			// child is stopped at its 5 minutes (0.5 s here), the Standard
			// one runs its 6 (0.6 s).
			children := 0
			for _, e := range ex.Executions {
				if e.Name == "exec-1" {
					continue
				}
				children++
				if e.Type != typ || e.Seconds < 0.45 || e.Seconds > 5 {
					t.Errorf("child %s (%s) ran %.3f s, want a %s child of about %.1f s", e.Name, e.Type, e.Seconds, typ, map[string]float64{statemachine.TypeExpress: 0.5, statemachine.TypeStandard: 0.6}[typ])
				}
			}
			if children != 1 {
				t.Errorf("executions %+v, want the root and one child", ex.Executions)
			}
		})
	}
	t.Run("root", func(t *testing.T) {
		ex := runDefinition(t, `{"StartAt":"Long","States":`+wait+`}`, statemachine.TypeExpress, map[string]any{}, nil, scale)
		if ex.Status != "TIMED_OUT" || ex.Error == nil || ex.Error.Error != "States.Timeout" {
			t.Errorf("status %s %+v, want TIMED_OUT States.Timeout", ex.Status, ex.Error)
		}
	})
}

// TestPayloadLimit: a state output or an execution input over 256 KiB
// fails the execution with States.DataLimitExceeded.
func TestPayloadLimit(t *testing.T) {
	double := `{"StartAt":"Double","States":{"Double":{"Type":"Pass","Parameters":{"a.$":"$.s","b.$":"$.s"},"End":true}}}`
	tests := []struct {
		name       string
		size       int
		wantStatus string
	}{
		{"under", 100 * 1024, "SUCCEEDED"},
		{"state output over", 150 * 1024, "FAILED"},
		{"execution input over", 300 * 1024, "FAILED"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex := runDefinition(t, double, statemachine.TypeStandard, map[string]any{"s": strings.Repeat("x", tt.size)}, nil, 0)
			if ex.Status != tt.wantStatus || tt.wantStatus == "FAILED" && (ex.Error == nil || ex.Error.Error != "States.DataLimitExceeded") {
				t.Errorf("status %s %+v, want %s", ex.Status, ex.Error, tt.wantStatus)
			}
		})
	}
}

// TestDistributedMapNotInExpress: a Distributed Map in an Express
// execution is refused (the validator refuses the definition too).
func TestDistributedMapNotInExpress(t *testing.T) {
	def := distributed(`"ItemsPath":"$.items"`, statemachine.TypeStandard, echoChild, "Echo")
	ex := runDefinition(t, def, statemachine.TypeExpress, map[string]any{"items": []int{1}}, nil, 0)
	if ex.Status != "FAILED" || ex.Error == nil || !strings.Contains(ex.Error.Cause, "Express") {
		t.Errorf("status %s %+v, want FAILED naming Express", ex.Status, ex.Error)
	}
}

// TestRunsSynthesizedDefinitions: every definition the runner executes by
// name is infra's synthesized one, byte for byte, as its type.
func TestRunsSynthesizedDefinitions(t *testing.T) {
	l := statemachinetest.Local(t)
	synth, err := l.Synthesized()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range statemachine.DefinitionNames() {
		b, err := os.ReadFile(name + ".asl.json")
		if err != nil {
			t.Fatal(err)
		}
		if got := statemachine.DefinitionSHA256(b); got != synth[name].SHA256 {
			t.Errorf("%s.asl.json sha256 %s, infra synthesizes %s (cd infra && go test -run TestStateMachines -update)", name, got, synth[name].SHA256)
		}
	}
	// A run reports what it executed: an Express check-stack that fails
	// at once (no Lambda endpoint answers) still names its definition.
	ex, err := l.Run(t.Context(), statemachine.Run{Definition: statemachine.CheckStack, Input: map[string]any{}, LambdaEndpoint: "http://127.0.0.1:1", RetryMillis: 1})
	if err != nil {
		t.Fatal(err)
	}
	statemachinetest.CheckSynthesized(t, l, statemachine.CheckStack, ex)
	if ex.Type != statemachine.TypeExpress {
		t.Errorf("check-stack ran as %s, want EXPRESS", ex.Type)
	}
}

// heartbeatDefinition is one callback Task (lambda:invoke.waitForTaskToken)
// that must hear a heartbeat every 60 s and an answer within an hour; with
// catch, a States.HeartbeatTimeout goes to the Lapsed state.
func heartbeatDefinition(catch bool) string {
	c, lapsed := "", ""
	if catch {
		c = `,"Catch":[{"ErrorEquals":["States.HeartbeatTimeout"],"ResultPath":"$.error","Next":"Lapsed"}]`
		lapsed = `,"Lapsed":{"Type":"Pass","End":true}`
	}
	return `{"StartAt":"Ask","States":{
	  "Ask":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken",
	    "Parameters":{"FunctionName":"${AskFunctionArn}","Payload":{"taskToken.$":"$$.Task.Token"}},
	    "TimeoutSeconds":3600,"HeartbeatSeconds":60` + c + `,"End":true}` + lapsed + `}}`
}

// TestCallbackHeartbeat: a callback Task whose heartbeat lapses fails with
// States.HeartbeatTimeout (as the execution's error, or caught by a Catch
// naming it) long before its TimeoutSeconds, and its token expires, so a
// late heartbeat is refused with TaskTimedOut; a Task that hears
// SendTaskHeartbeat in time waits past HeartbeatSeconds for its answer.
func TestCallbackHeartbeat(t *testing.T) {
	l := statemachinetest.Local(t)
	tests := []struct {
		name  string
		catch bool
		// beat sends SendTaskHeartbeat every 200 ms (real time) for 2.5
		// heartbeat periods, then SendTaskSuccess.
		beat       bool
		wantStatus string
		wantError  string
		wantOutput string
	}{
		{name: "lapsed", wantStatus: "FAILED", wantError: "States.HeartbeatTimeout"},
		{name: "lapsed and caught", catch: true, wantStatus: "SUCCEEDED", wantOutput: `"Error":"States.HeartbeatTimeout"`},
		{name: "heartbeats keep it waiting", beat: true, wantStatus: "SUCCEEDED", wantOutput: `"answered":true`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var asked []string
			var mu sync.Mutex
			endpoint := statemachinetest.Serve(t, func(r *lambdarouter.Router) error {
				return r.Handle("ask", func(_ context.Context, in struct{ TaskToken string }) (struct{}, error) {
					mu.Lock()
					defer mu.Unlock()
					asked = append(asked, in.TaskToken)
					return struct{}{}, nil
				})
			})
			tokens := statemachinetest.ServeTaskTokens(t)
			client := sfn.New(sfn.Options{Region: "us-east-1", BaseEndpoint: aws.String(tokens.URL), Credentials: aws.AnonymousCredentials{}, RetryMaxAttempts: 1})
			file := filepath.Join(t.TempDir(), "heartbeat.asl.json")
			if err := os.WriteFile(file, []byte(heartbeatDefinition(tt.catch)), 0o600); err != nil {
				t.Fatal(err)
			}
			// HeartbeatSeconds 60 is 2 s of real time; TimeoutSeconds an
			// hour is 2 minutes, which no run here reaches.
			const scale = 30
			done := make(chan struct{})
			var ex statemachine.Execution
			var err error
			go func() {
				defer close(done)
				ex, err = l.Run(context.WithoutCancel(t.Context()), statemachine.Run{Definition: file, Type: statemachine.TypeStandard, Input: map[string]any{},
					LambdaEndpoint: endpoint, TaskTokens: tokens.URL, ExecutionName: "heartbeat-1", TimeScale: scale})
			}()
			waiting := make(chan string, 1)
			go func() { tok, _ := tokens.Awaiting(deadlinetest.Context(t, 2*time.Minute)); waiting <- tok }()
			var token string
			select {
			case token = <-waiting:
			case <-done:
				t.Fatalf("the execution ended before its Task waited: %s %+v (%v)", ex.Status, ex.Error, err)
			}
			if token == "" {
				t.Fatal("the Task never waited")
			}
			mu.Lock()
			if !cmp.Equal(asked, []string{token}) {
				t.Errorf("the Lambda was given tokens %v, the Task waits on %s", asked, token)
			}
			mu.Unlock()
			if tt.beat {
				period := time.Duration(60 * float64(time.Second) / scale)
				for end := time.Now().Add(period * 5 / 2); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
					if _, err := client.SendTaskHeartbeat(t.Context(), &sfn.SendTaskHeartbeatInput{TaskToken: aws.String(token)}); err != nil {
						t.Fatalf("heartbeat: %v", err)
					}
				}
				if _, err := client.SendTaskSuccess(t.Context(), &sfn.SendTaskSuccessInput{TaskToken: aws.String(token), Output: aws.String(`{"answered":true}`)}); err != nil {
					t.Fatalf("the answer after heartbeats: %v", err)
				}
			}
			select {
			case <-done:
			case <-deadlinetest.After(t, 2*time.Minute):
				t.Fatal("the execution did not end")
			}
			if err != nil {
				t.Fatal(err)
			}
			gotError := ""
			if ex.Error != nil {
				gotError = ex.Error.Error
			}
			if ex.Status != tt.wantStatus || gotError != tt.wantError {
				t.Fatalf("status %s error %+v, want %s %q", ex.Status, ex.Error, tt.wantStatus, tt.wantError)
			}
			if !strings.Contains(string(ex.Output), tt.wantOutput) {
				t.Errorf("output %s, want it to hold %s", ex.Output, tt.wantOutput)
			}
			if !tt.beat {
				_, herr := client.SendTaskHeartbeat(t.Context(), &sfn.SendTaskHeartbeatInput{TaskToken: aws.String(token)})
				if !tokens.Expired(token) || herr == nil || !strings.Contains(herr.Error(), "TaskTimedOut") {
					t.Errorf("after the lapse: expired %v, a late heartbeat answered %v; want TaskTimedOut", tokens.Expired(token), herr)
				}
			}
		})
	}
}
