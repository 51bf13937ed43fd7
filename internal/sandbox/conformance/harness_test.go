package conformance_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/smithy-go"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/corpus/corpustest"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
)

// world is one world the table is driven against: its file bytes (a
// write gets a server of its own from them), its shared server and the
// resources it holds, listed before the server owned it.
type world struct {
	name string
	file []byte
	url  string
	key  func(account string) string
	// changes are out-of-band changes (the admin API) applied to each of
	// its servers before the calls; a change the sandbox refuses, as AWS
	// would refuse the value, is left out.
	changes []sandbox.Change
	targets []target
	// regions are the account regions that hold anything.
	regions []target
}

// target is one resource (or, for Type "", one account region) an entry
// is driven with.
type target struct {
	world, account, region string
	cfg                    aws.Config
	// typ is the resource type; "@stack", "@export" and "@type" are a
	// stack, an export and a resource type of the account region.
	typ, id, phys string
	model         map[string]any
}

// s returns the model's string (or number, as text) at a dotted path, "" when absent.
func (t target) s(path string) string {
	var v any = t.model
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = m[k]
	}
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return fmt.Sprint(x)
	case json.Number:
		return x.String()
	}
	return ""
}

// or returns the model's string at path, else def.
func (t target) or(path, def string) string {
	if v := t.s(path); v != "" {
		return v
	}
	return def
}

// arn returns the target's ARN: the identifier or physical id when one is
// an ARN, else the model's property named prop.
func (t target) arn(prop string) string {
	for _, v := range []string{t.id, t.phys} {
		if strings.HasPrefix(v, "arn:") {
			return v
		}
	}
	return t.s(prop)
}

func sdkConfig(url, key, region string) aws.Config {
	c := sandboxtest.Config(url, key, region)
	c.Retryer = func() aws.Retryer { return retry.AddWithMaxAttempts(retry.NewStandard(), 1) }
	return c
}

// loadWorlds generates the demo and dev-corpus worlds and loads the
// fixture world, each served by its own sandbox.
func loadWorlds(t *testing.T) []*world {
	t.Helper()
	subset, err := corpus.LoadDirs(corpustest.Subset(t))
	if err != nil {
		t.Fatal(err)
	}
	demo, err := worldgen.Demo(subset)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := corpus.LoadDirs(corpustest.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	cw, err := worldgen.FromCorpus(dev)
	if err != nil {
		t.Fatal(err)
	}
	fixture := sandboxtest.LoadWorld(t, "testdata/fixture.json")
	cb, err := os.ReadFile("testdata/changes.json")
	if err != nil {
		t.Fatal(err)
	}
	var changes []sandbox.Change
	if err := json.Unmarshal(cb, &changes); err != nil {
		t.Fatalf("testdata/changes.json: %v", err)
	}
	var out []*world
	for _, g := range []struct {
		name    string
		w       *sandbox.World
		key     func(string) string
		changes []sandbox.Change
	}{
		{"demo", demo, worldgen.DemoAccessKey, nil},
		{"corpus", cw, worldgen.AccessKey, nil},
		{"fixture", fixture, func(a string) string { return "AKIAFIXTURE" + a }, changes},
	} {
		b, err := json.Marshal(g.w)
		if err != nil {
			t.Fatal(err)
		}
		wd := &world{name: g.name, file: b, key: g.key, changes: g.changes}
		wd.targets, wd.regions = targetsOf(t, g.name, g.w)
		if wd.url, err = serveOwn(t, wd, false); err != nil {
			t.Fatal(err)
		}
		out = append(out, wd)
	}
	return out
}

// targetsOf lists every live resource of w, every stack, export and
// resource type per account region, and the account regions.
func targetsOf(t *testing.T, name string, w *sandbox.World) (targets, regions []target) {
	t.Helper()
	for _, a := range w.Accounts {
		for _, r := range a.Regions {
			base := target{world: name, account: a.ID, region: r.Name}
			regions = append(regions, base)
			types := map[string]bool{}
			add := func(res *sandbox.Resource) {
				if res.Deleted {
					return
				}
				tg := base
				tg.typ, tg.phys, tg.id = res.Type, res.PhysicalID, res.Identifier
				if tg.id == "" {
					tg.id = res.PhysicalID
				}
				if len(res.Properties) > 0 {
					if err := json.Unmarshal(res.Properties, &tg.model); err != nil {
						t.Fatalf("%s: %s %s: %v", name, res.Type, tg.id, err)
					}
				}
				targets = append(targets, tg)
				if !types[res.Type] {
					types[res.Type] = true
					ty := base
					ty.typ, ty.id = "@type", res.Type
					targets = append(targets, ty)
				}
			}
			for _, st := range r.Stacks {
				s := base
				s.typ, s.id, s.phys = "@stack", st.Name, st.ID
				targets = append(targets, s)
				for _, o := range st.Outputs {
					if o.ExportName != "" {
						e := base
						e.typ, e.id = "@export", o.ExportName
						targets = append(targets, e)
					}
				}
				for _, res := range st.Resources {
					add(res)
				}
			}
			for _, res := range r.Resources {
				add(res)
			}
		}
	}
	return targets, regions
}

// outcome is what one entry met across the worlds.
type outcome struct {
	calls, ok int
	apiErrs   map[string]int
	failures  []string
}

// drive runs entry op against every target of w it names, on url.
func drive(c context.Context, w *world, url string, op string, e check) outcome {
	o := outcome{apiErrs: map[string]int{}}
	var ts []target
	if len(e.types) == 0 {
		ts = w.regions
	} else {
		for _, tg := range w.targets {
			for _, typ := range e.types {
				if tg.typ == typ || typ == "*" && !strings.HasPrefix(tg.typ, "@") {
					ts = append(ts, tg)
				}
			}
		}
	}
	for _, tg := range ts {
		key := w.key(tg.account)
		if e.key != nil {
			key = e.key(w, tg)
		}
		tg.cfg = sdkConfig(url, key, tg.region)
		o.calls++
		out, err := e.call(c, tg)
		var ae smithy.APIError
		switch {
		case err == nil:
			o.ok++
			for _, miss := range missingRequired(op, out) {
				o.failures = append(o.failures, fmt.Sprintf("%s %s %s %s: required member %s missing", tg.world, tg.region, tg.typ, tg.id, miss))
			}
		case errors.Is(err, errNothing):
		case errors.As(err, &ae) && !isClientSide(err):
			o.apiErrs[ae.ErrorCode()]++
		default:
			o.failures = append(o.failures, fmt.Sprintf("%s %s %s %s: %v", tg.world, tg.region, tg.typ, tg.id, err))
		}
	}
	return o
}

// isClientSide reports an error the SDK raised before or instead of
// reading a service answer (deserialisation, invalid parameters).
func isClientSide(err error) bool {
	var de *smithy.DeserializationError
	var ip *smithy.InvalidParamsError
	return errors.As(err, &de) || errors.As(err, &ip)
}

// TestConformance generates the worlds once and checks, in parallel,
// the served operations and the Cloud Control models against AWS's
// published models (see doc.go).
func TestConformance(t *testing.T) {
	worlds := loadWorlds(t)
	t.Run("operations", func(t *testing.T) {
		t.Parallel()
		servedOperations(t, worlds)
	})
	t.Run("cloudcontrol-schemas", func(t *testing.T) {
		t.Parallel()
		schemaConformance(t, worlds)
	})
}

// servedOperations drives every served operation through its typed SDK
// client against every world.
func servedOperations(t *testing.T, worlds []*world) {
	start := time.Now()
	srv, err := sandbox.New(&sandbox.World{Accounts: []*sandbox.Account{{ID: "111111111111", Regions: []*sandbox.Region{{Name: "us-east-1"}}}}}, sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	table := operationTable()
	served := srv.Operations()
	var missing []string
	servedSet := map[string]bool{}
	for _, op := range served {
		servedSet[op.String()] = true
		if _, ok := table[op.String()]; !ok {
			missing = append(missing, op.String())
		}
	}
	for op := range table {
		if !servedSet[op] {
			t.Errorf("the table has %s, which the sandbox does not serve", op)
		}
	}
	if len(missing) > 0 {
		t.Errorf("served operations with no entry in the operation table (ops_test.go): %s", strings.Join(missing, " "))
	}
	c, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	type result struct {
		op string
		o  outcome
	}
	results := make(chan result)
	ops := make([]string, 0, len(table))
	for op := range table {
		if servedSet[op] {
			ops = append(ops, op)
		}
	}
	sort.Strings(ops)
	sem := make(chan struct{}, 4)
	for _, op := range ops {
		go func(op string) {
			sem <- struct{}{}
			defer func() { <-sem }()
			e := table[op]
			total := outcome{apiErrs: map[string]int{}}
			for _, w := range worlds {
				url := w.url
				if e.write {
					var err error
					if url, err = serveOwn(t, w, e.pending); err != nil {
						total.failures = append(total.failures, err.Error())
						continue
					}
				}
				o := drive(c, w, url, op, e)
				total.calls += o.calls
				total.ok += o.ok
				total.failures = append(total.failures, o.failures...)
				for k, v := range o.apiErrs {
					total.apiErrs[k] += v
				}
			}
			results <- result{op, total}
		}(op)
	}
	checked, calls := 0, 0
	byOp := map[string]outcome{}
	for range ops {
		r := <-results
		byOp[r.op] = r.o
	}
	for _, op := range ops {
		o := byOp[op]
		calls += o.calls
		for _, f := range o.failures {
			t.Errorf("%s: %s", op, f)
		}
		if o.ok == 0 {
			t.Errorf("%s: no successful answer in %d calls (API errors %v): add a resource it can answer for to testdata/fixture.json", op, o.calls, o.apiErrs)
			continue
		}
		if len(o.failures) == 0 {
			checked++
		}
	}
	t.Logf("served operations: %d; checked (answered through aws-sdk-go-v2 without a conformance failure): %d; %d calls in %s", len(served), checked, calls, time.Since(start).Round(time.Millisecond))
}

// serveOwn starts a sandbox of its own over a copy of w's world file,
// with w's out-of-band changes applied; it may run on any goroutine of
// the test (t.Cleanup is safe from any).
func serveOwn(t *testing.T, w *world, pending bool) (string, error) {
	var ww sandbox.World
	if err := json.Unmarshal(w.file, &ww); err != nil {
		return "", err
	}
	delay := time.Millisecond
	if pending {
		delay = time.Hour
	}
	srv, err := sandbox.New(&ww, sandbox.Options{OperationDelay: delay})
	if err != nil {
		return "", err
	}
	for _, ch := range w.changes {
		if err := srv.Apply(ch); err != nil && w.url == "" {
			t.Logf("%s: the sandbox refuses the change %s %s %s: %v", w.name, ch.Op, ch.Identifier, ch.Path, err)
		}
	}
	hs := httptest.NewServer(http.Handler(srv))
	t.Cleanup(func() { hs.Close(); srv.Close() })
	return hs.URL, nil
}
