package service_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/schema"
	"github.com/realdrift/realdrift/internal/service"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/statemachine"
	"github.com/realdrift/realdrift/statemachine/statemachinetest"
)

// The 5,000-stack account-region (issue #11): what one member account of
// that size costs the sweep's state, and that the production path
// discover → S3 object → Stacks Map items → check-stack holds at that size.
const (
	scaleStacks = 5000
	scaleBucket = "realdrift-sweep-targets"
	scaleRun    = "run-5k"
	// scaleSwept is how many of the object's items the Stacks Map sweeps.
	scaleSwept = 50
	// stateLimit is Step Functions' limit on a state's input or output.
	stateLimit = 256 * 1024
	// refLimit bounds discover's result with a targets bucket.
	refLimit = 64 * 1024
)

// TestDiscoverFiveThousandStacks: one member account-region holding 5,000
// stacks. With a targets bucket, discover pages through the listing (50
// DescribeStacks pages of 100), writes one S3 object holding all 5,000
// refs and returns a reference under 64 KiB; without one, the inline result
// would exceed Step Functions' 256 KiB state limit. The object is what the
// Stacks Map's ItemReader (s3:getObject, InputType JSON) reads: a top-level
// JSON array whose items are byte for byte the inline list's items (what
// the local definition's ItemsPath feeds the Map), and each item, through
// the production definition's ItemSelector and LoadDesired's Parameters,
// decodes strictly as load-desired's input. Then the Stacks Map itself,
// the production state under the local interpreter, sweeps the first 50
// items as read from the object with the real handlers.
func TestDiscoverFiveThousandStacks(t *testing.T) {
	begin := time.Now()
	w, regions := benchWorld(benchScale{Accounts: 1, Regions: 1, Stacks: scaleStacks, Resources: 1})
	w.Accounts[0].Regions[0].Resources = append(w.Accounts[0].Regions[0].Resources,
		&sandbox.Resource{Type: "AWS::S3::Bucket", PhysicalID: scaleBucket, Properties: json.RawMessage(`{"BucketName":"` + scaleBucket + `"}`)})
	member, region := w.Accounts[1].ID, regions[0]
	var names []string
	for _, st := range w.Accounts[1].Regions[0].Stacks {
		names = append(names, st.Name)
	}
	opts := sandbox.Options{}
	if snap, err := schema.Embedded(); err == nil {
		opts.Facts = snap.Lookup
	}
	sb, err := sandbox.New(w, opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb)
	t.Cleanup(func() { srv.Close(); sb.Close() })
	built := time.Since(begin)

	ddbURL := dynamoLocal.Endpoint(t, "discovery of 5,000 stacks")
	ctx := t.Context()
	set := service.Settings{
		Table: fmt.Sprintf("realdrift-5k-%d", time.Now().UnixNano()), Regions: regions, ReadRoleName: readRole,
		ReadRate:    1000, // the pacing is not what this test measures
		Endpoints:   service.Endpoints{Default: srv.URL, DynamoDB: ddbURL},
		AccessKeyID: benchKey(benchCentral), SecretAccessKey: "5k-secret",
	}
	cfg, db := tableConfig(t, set, "us-east-1", ddbURL, set.Table)
	newService := func(bucket string) *service.Service {
		t.Helper()
		s := set
		s.TargetsBucket = bucket
		svc, err := service.New(cfg, s, service.WithLogger(slog.New(slog.DiscardHandler)))
		if err != nil {
			t.Fatal(err)
		}
		return svc
	}
	discover := func(svc *service.Service, runID string) (statemachine.DiscoveredTargets, []byte) {
		t.Helper()
		out, err := svc.Discover(ctx, statemachine.DiscoverTask{RunID: runID, Account: member})
		if err != nil {
			t.Fatal(err)
		}
		// What the state carries: the Lambda's JSON result, which
		// DiscoverStacks puts at $.discovered.
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		return out.(statemachine.DiscoveredTargets), b
	}

	// Without a bucket (local runs) the list is inline.
	start := time.Now()
	inline, inlineJSON := discover(newService(""), scaleRun+"-inline")
	inlineTook := time.Since(start)
	if got := len(inline.All()); got != scaleStacks {
		t.Fatalf("inline discover listed %d stacks, want %d", got, scaleStacks)
	}
	t.Logf("inline: %d stacks, DiscoveredTargets %d bytes (Step Functions' state limit %d), discover %v", scaleStacks, len(inlineJSON), stateLimit, inlineTook.Round(time.Millisecond))
	if len(inlineJSON) <= stateLimit {
		t.Errorf("inline DiscoveredTargets of %d stacks is %d bytes, want it over the %d-byte state limit (the reason for the bucket)", scaleStacks, len(inlineJSON), stateLimit)
	}

	// With one, the list goes to S3 and the result is a reference.
	sb.ResetCalls()
	start = time.Now()
	paged, pagedJSON := discover(newService(scaleBucket), scaleRun)
	pagedTook := time.Since(start)
	calls := sb.Calls()
	pages := (scaleStacks + 99) / 100
	t.Logf("bucket: DiscoveredTargets %d bytes (limit %d), discover %v, calls %v", len(pagedJSON), refLimit, pagedTook.Round(time.Millisecond), calls.Counts)
	if len(pagedJSON) >= refLimit {
		t.Errorf("DiscoveredTargets with a bucket is %d bytes, want under %d", len(pagedJSON), refLimit)
	}
	// Requests, not attempts: a page the SDK retried on a busy machine is
	// still one page asked for.
	if n := calls.Requests["cloudformation:DescribeStacks"]; n != pages {
		t.Errorf("%d DescribeStacks requests for %d stacks (%d retries), want %d pages of 100", n, scaleStacks, calls.Retries["cloudformation:DescribeStacks"], pages)
	}
	if n := calls.Requests["s3:PutObject"]; n != 1 {
		t.Errorf("%d PutObject requests, want one object for the account-region", n)
	}
	if len(paged.Regions) != 1 {
		t.Fatalf("regions: %+v, want one", paged.Regions)
	}
	rt := paged.Regions[0]
	prefix := "runs/" + scaleRun + "/" + member + "/" + region + "/"
	if rt.Region != region || rt.Stacks != scaleStacks || rt.Bucket != scaleBucket || rt.Key != prefix+"targets.json" || rt.ResultsPrefix != prefix+"results" || len(rt.Targets) != 0 {
		t.Fatalf("region targets %+v, want a reference to s3://%s/%stargets.json of %d stacks", rt, scaleBucket, prefix, scaleStacks)
	}

	// The production definition, from the Accounts child's state after
	// DiscoverStacks to the Stacks Map's input and its ItemReader's object.
	sweep := readASL(t, "../../statemachine/sweep.asl.json")
	accounts := aslState(t, sweep, "Accounts")
	discoverStacks := aslState(t, aslGet(t, accounts, "ItemProcessor"), "DiscoverStacks")
	regionsMap := aslState(t, aslGet(t, accounts, "ItemProcessor"), "Regions")
	stacksMap := aslState(t, aslGet(t, regionsMap, "ItemProcessor"), "Stacks")
	proc := aslGet(t, stacksMap, "ItemProcessor")
	firstName, _ := proc["StartAt"].(string)
	first := aslState(t, proc, firstName)
	if want := "${" + statemachine.SubstitutionName(statemachine.FunctionLoadDesired) + "}"; first["Resource"] != want {
		t.Fatalf("the Stacks Map's first state %s invokes %v, want %s (whose input this test decodes)", firstName, first["Resource"], want)
	}
	reader := aslGet(t, stacksMap, "ItemReader")
	if d := cmp.Diff(reader["Resource"], any("arn:aws:states:::s3:getObject")); d != "" {
		t.Errorf("ItemReader resource (-got +want):\n%s", d)
	}
	// InputType JSON and nothing that drops items (MaxItems, ...).
	if d := cmp.Diff(aslGet(t, reader, "ReaderConfig"), map[string]any{"InputType": "JSON"}); d != "" {
		t.Errorf("ItemReader ReaderConfig (-got +want):\n%s", d)
	}

	runID := scaleRun
	acctState := aslSelect(t, aslGet(t, accounts, "ItemSelector"),
		map[string]any{"runId": runID, "discovered": map[string]any{"accounts": []any{member}}}, mapItem(member, 0))
	if discoverStacks["ResultPath"] != "$.discovered" {
		t.Fatalf("DiscoverStacks ResultPath %v, want $.discovered", discoverStacks["ResultPath"])
	}
	acctState["discovered"] = generic(t, pagedJSON)
	items, ok := aslPath(acctState, regionsMap["ItemsPath"].(string))
	if !ok || len(items.([]any)) != 1 {
		t.Fatalf("Regions ItemsPath %v over %v: %v", regionsMap["ItemsPath"], acctState, items)
	}
	stacksIn := aslSelect(t, aslGet(t, regionsMap, "ItemSelector"), acctState, mapItem(items.([]any)[0], 0))
	get := aslSelect(t, aslGet(t, reader, "Parameters"), stacksIn, nil)
	bucket, _ := get["Bucket"].(string)
	objKey, _ := get["Key"].(string)

	// Read the object as the ItemReader does: GetObject, then the body as
	// one top-level JSON array, each element an item.
	s3cl := s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true })
	obj, err := s3cl.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(objKey)})
	if err != nil {
		t.Fatalf("GetObject %s/%s (ItemReader Parameters %v): %v", bucket, objKey, get, err)
	}
	body, err := io.ReadAll(obj.Body)
	obj.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("object s3://%s/%s: %d bytes, %d stacks", bucket, objKey, len(body), scaleStacks)
	if trimmed := bytes.TrimSpace(body); len(trimmed) == 0 || trimmed[0] != '[' {
		t.Fatalf("%s is not a top-level JSON array: %.80s", objKey, body)
	}
	var objItems []json.RawMessage
	if err := json.Unmarshal(body, &objItems); err != nil {
		t.Fatalf("%s: %v", objKey, err)
	}
	// The inline list (discover without a bucket), as the state would
	// hold it at $.region.targets.
	var inlineRegion struct {
		Targets []json.RawMessage `json:"targets"`
	}
	var inlineOut struct {
		Regions []json.RawMessage `json:"regions"`
	}
	if err := json.Unmarshal(inlineJSON, &inlineOut); err != nil || len(inlineOut.Regions) != 1 {
		t.Fatalf("inline result: %v", err)
	}
	if err := json.Unmarshal(inlineOut.Regions[0], &inlineRegion); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(rawStrings(objItems), rawStrings(inlineRegion.Targets)); d != "" {
		t.Errorf("object items differ from the inline items (-object +inline):\n%.2000s", d)
	}
	if len(objItems) != scaleStacks {
		t.Fatalf("%s holds %d items, want %d", objKey, len(objItems), scaleStacks)
	}
	seen := map[string]bool{}
	for i, raw := range objItems {
		var ref drift.StackRef
		if err := strictDecode(raw, &ref); err != nil {
			t.Fatalf("item %d %s is not a StackRef: %v", i, raw, err)
		}
		if ref.Account != member || ref.Region != region || ref.Name == "" || seen[ref.Name] {
			t.Fatalf("item %d: %+v, want a new stack of %s/%s", i, ref, member, region)
		}
		seen[ref.Name] = true
		// Through the production ItemSelector (the child's input) and
		// LoadDesired's Parameters: load-desired's input, exactly.
		child := aslSelect(t, aslGet(t, stacksMap, "ItemSelector"), stacksIn, mapItem(generic(t, raw), i))
		task := aslSelect(t, aslGet(t, first, "Parameters"), child, nil)
		var got statemachine.StackTask
		if err := strictDecode(mustJSON(task), &got); err != nil {
			t.Fatalf("item %d: load-desired input %v: %v", i, task, err)
		}
		if want := (statemachine.StackTask{RunID: runID, Stack: ref}); got != want {
			t.Fatalf("item %d: load-desired input %+v, want %+v", i, got, want)
		}
		var in statemachine.CheckInput
		if err := strictDecode(mustJSON(child), &in); err != nil || in.Trigger != statemachine.TriggerSweep {
			t.Fatalf("item %d: child input %v: %v, want a CheckInput with trigger sweep", i, child, err)
		}
	}
	for _, n := range names {
		if !seen[n] {
			t.Errorf("stack %s is not in the object", n)
		}
	}

	t.Run("StacksMapSweepsObjectItems", func(t *testing.T) {
		l := statemachinetest.Local(t)
		// The production Stacks state on its own, its ItemReader reading
		// an object of the first items as discover wrote them (the whole
		// object is 5,000 stacks) from the sandbox's S3 and its
		// ResultWriter writing beside it.
		alone := maps.Clone(stacksMap)
		delete(alone, "Next")
		alone["End"] = true
		machine := map[string]any{
			"Comment": "The sweep's Stacks Map (statemachine/sweep.asl.json), alone.",
			"StartAt": "Stacks", "States": map[string]any{"Stacks": alone},
		}
		file := filepath.Join(t.TempDir(), "stacks.asl.json")
		if err := os.WriteFile(file, mustJSON(machine), 0o600); err != nil {
			t.Fatal(err)
		}
		firstKey := prefix + "first.json"
		if _, err := s3cl.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(scaleBucket), Key: aws.String(firstKey), Body: bytes.NewReader(mustJSON(objItems[:scaleSwept]))}); err != nil {
			t.Fatal(err)
		}
		in := generic(t, mustJSON(stacksIn)).(map[string]any)
		in["region"].(map[string]any)["key"] = firstKey

		svc := newService(scaleBucket)
		lambdaURL := statemachinetest.Serve(t, svc.Register)
		start := time.Now()
		ex, err := l.Run(ctx, statemachine.Run{
			Definition: file, Input: in, LambdaEndpoint: lambdaURL,
			ExecutionName: runID, Account: benchCentral, RetryMillis: 1,
			S3Endpoint: srv.URL, AccessKeyID: benchKey(benchCentral), SecretAccessKey: "bench-secret",
		})
		if err != nil {
			t.Fatal(err)
		}
		if ex.Status != "SUCCEEDED" {
			t.Fatalf("Stacks Map: status %s, error %+v", ex.Status, ex.Error)
		}
		statemachinetest.CheckStateOutputs(t, ex)
		states := map[string]int{}
		for _, s := range ex.States {
			states[s.Name]++
		}
		t.Logf("Stacks Map over %d items: %v, %d states, largest output %d bytes", scaleSwept, time.Since(start).Round(time.Millisecond), len(ex.States), ex.MaxStateOutputBytes)
		if states["LoadDesired"] != scaleSwept || states["StackChecked"] != scaleSwept || states["StackFailed"] != 0 {
			t.Errorf("states %v: want %d stacks loaded and checked, none failed", states, scaleSwept)
		}
		if len(ex.MapRuns) != 1 || ex.MapRuns[0].ItemCounts.Succeeded != scaleSwept || ex.MapRuns[0].ResultWriter == nil ||
			!strings.HasPrefix(ex.MapRuns[0].ResultWriter.Key, prefix+"results/") {
			t.Errorf("map runs %+v: want one of %d succeeded items, its results under %sresults/", ex.MapRuns, scaleSwept, prefix)
		}
		st := store.NewDynamo(db, set.Table)
		for i, raw := range objItems[:scaleSwept+1] {
			var ref drift.StackRef
			if err := json.Unmarshal(raw, &ref); err != nil {
				t.Fatal(err)
			}
			runs, err := st.ListRuns(ctx, ref, 1)
			if err != nil {
				t.Fatal(err)
			}
			if want := i < scaleSwept; (len(runs) == 1 && runs[0].RunID == runID) != want {
				t.Errorf("item %d %s: runs %+v, want checked in %s: %v", i, ref, runs, runID, want)
			}
		}
	})
	t.Logf("5,000 stacks: world and sandbox %v, whole test %v", built.Round(time.Millisecond), time.Since(begin).Round(time.Millisecond))
}

// readASL reads a definition file as generic JSON.
func readASL(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return generic(t, b).(map[string]any)
}

// aslState is the named state of a machine or ItemProcessor.
func aslState(t *testing.T, machine map[string]any, name string) map[string]any {
	t.Helper()
	return aslGet(t, aslGet(t, machine, "States"), name)
}

// aslGet is the object field k of m.
func aslGet(t *testing.T, m map[string]any, k string) map[string]any {
	t.Helper()
	v, ok := m[k].(map[string]any)
	if !ok {
		t.Fatalf("no object %q in %v", k, m)
	}
	return v
}

// mapItem is the context object of a Map's item.
func mapItem(value any, index int) map[string]any {
	return map[string]any{"Map": map[string]any{"Item": map[string]any{"Value": value, "Index": index}}}
}

// aslSelect applies a Parameters or ItemSelector template as Step
// Functions does, for the forms the sweep's definition uses: a "name.$"
// field takes a reference path into the input ("$.a.b") or the context
// object ("$$.a.b"); any other field is a literal (objects recursively).
// Anything else (an intrinsic function, a path with brackets) fails the
// test, so a definition that starts using one is noticed here.
func aslSelect(t *testing.T, tmpl map[string]any, input, ctxObj any) map[string]any {
	t.Helper()
	out := map[string]any{}
	for k, v := range tmpl {
		name, isPath := strings.CutSuffix(k, ".$")
		if !isPath {
			if sub, ok := v.(map[string]any); ok {
				v = aslSelect(t, sub, input, ctxObj)
			}
			out[k] = v
			continue
		}
		path, _ := v.(string)
		doc := input
		if rest, ok := strings.CutPrefix(path, "$$"); ok {
			doc, path = ctxObj, "$"+rest
		}
		got, ok := aslPath(doc, path)
		if !ok {
			t.Fatalf("%s: path %q selects nothing", k, v)
		}
		out[name] = got
	}
	return out
}

// aslPath selects a dotted reference path ("$", "$.a.b") from doc.
func aslPath(doc any, path string) (any, bool) {
	if path == "$" {
		return doc, true
	}
	rest, ok := strings.CutPrefix(path, "$.")
	if !ok || strings.ContainsAny(rest, "[]*()") {
		return nil, false
	}
	for _, f := range strings.Split(rest, ".") {
		m, ok := doc.(map[string]any)
		if !ok {
			return nil, false
		}
		if doc, ok = m[f]; !ok {
			return nil, false
		}
	}
	return doc, true
}

// generic decodes JSON into maps, slices and plain values.
func generic(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%.200s: %v", b, err)
	}
	return v
}

// strictDecode decodes b into v, refusing fields v lacks, and checks that
// v encodes back to b's fields: b is exactly a v.
func strictDecode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	back, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var x, y any
	if err := json.Unmarshal(b, &x); err != nil {
		return err
	}
	if err := json.Unmarshal(back, &y); err != nil {
		return err
	}
	if d := cmp.Diff(x, y); d != "" {
		return fmt.Errorf("fields lost or added (-item +decoded):\n%s", d)
	}
	return nil
}

// rawStrings are JSON values as compact strings.
func rawStrings(raws []json.RawMessage) []string {
	out := make([]string, len(raws))
	for i, r := range raws {
		var b bytes.Buffer
		if err := json.Compact(&b, r); err != nil {
			out[i] = "invalid: " + string(r)
			continue
		}
		out[i] = b.String()
	}
	return out
}
