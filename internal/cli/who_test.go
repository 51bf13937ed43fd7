package cli

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/schema"
	"github.com/realdrift/realdrift/internal/who"
)

// offsetClock is the wall clock moved by an offset the test sets: the
// sandbox's events are stamped with it while check --who reads the wall
// clock, so moving it ages the trail.
type offsetClock struct {
	mu     sync.Mutex
	offset time.Duration
}

func (c *offsetClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.offset)
}

func (c *offsetClock) set(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset = d
}

// TestCheckWho is issue #29's acceptance for check --who: changes made as
// named principals through the sandbox (which records them as CloudTrail
// events) are attributed to them, a resource changed twice names its last
// writer, lookups are paced to LookupEvents' 2 calls/s (none throttled,
// none skipped) at one call per drifted resource, a denied lookup is said
// and leaves the verdict alone, and a change older than the 90 days
// CloudTrail keeps says so.
func TestCheckWho(t *testing.T) {
	rs := appResources()
	const extra = 4
	for i := range extra {
		rs = append(rs, queue(fmt.Sprintf("Extra%d", i), fmt.Sprintf("App-Extra-%d", i), map[string]any{"VisibilityTimeout": 30}, nil))
	}
	clock := &offsetClock{}
	opts := sandbox.Options{Now: clock.now}
	if snap, err := schema.Embedded(); err == nil {
		opts.Facts = snap.Lookup
	}
	srv, err := sandbox.New(appWorld(t, map[string][]appResource{"App": rs}), opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { hs.Close(); srv.Close() })
	env := &sandboxEnv{t: t, srv: srv, url: hs.URL, key: testKey, region: testRegion, stateDir: t.TempDir()}

	set := func(name, path string, v int, principal, agent string) {
		env.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: queueURL(name), Path: path,
			Value: json.RawMessage(fmt.Sprint(v)), Principal: principal, UserAgent: agent, SourceIP: "198.51.100.7"})
	}
	set("App-Orders-1", "VisibilityTimeout", 45, "arn:aws:sts::"+testAccount+":assumed-role/Admin/alice", "console.amazonaws.com")
	set("App-Jobs-1", "VisibilityTimeout", 61, "bob", "aws-cli/2.15.0 Python/3.11")
	set("App-Jobs-1", "VisibilityTimeout", 62, "carol", "aws-sdk-go-v2/1.30.0")
	for i := range extra {
		set(fmt.Sprintf("App-Extra-%d", i), "VisibilityTimeout", 31+i, "dave", "console.amazonaws.com")
	}
	srv.ResetCalls()

	rep, errs, code := env.checkJSON("App", "--who", "--no-baseline", "--fail")
	if code != ExitDrift {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, errs)
	}
	type writer struct{ Name, Agent, Event, Unknown string }
	got := map[string]writer{}
	drifted := map[string]bool{}
	for _, s := range rep.Stacks {
		for _, f := range s.Findings {
			if who.Drifted(f) {
				drifted[f.LogicalID] = true
				if f.ChangedBy == nil {
					t.Errorf("%s %s: no changedBy", f.LogicalID, f.Path)
					continue
				}
				got[f.LogicalID] = writer{f.ChangedBy.Name, f.ChangedBy.Agent.String(), f.ChangedBy.EventName, f.ChangedBy.Unknown}
			} else if f.ChangedBy != nil {
				t.Errorf("%s %s (%s): changedBy on a finding that is not drift", f.LogicalID, f.Path, f.Tier)
			}
		}
	}
	want := map[string]writer{
		"OrdersQueue1234": {"alice", "console", "UpdateResource", ""},
		"Jobs":            {"carol", "SDK", "UpdateResource", ""},
	}
	for i := range extra {
		want[fmt.Sprintf("Extra%d", i)] = writer{"dave", "console", "UpdateResource", ""}
	}
	for lid, w := range want {
		if got[lid] != w {
			t.Errorf("%s: changed by %+v, want %+v", lid, got[lid], w)
		}
	}
	st := srv.Calls()
	if n := st.Requests["cloudtrail:LookupEvents"]; n == 0 || n > len(drifted) {
		t.Errorf("%d LookupEvents requests for %d drifted resources; want 1..%d", n, len(drifted), len(drifted))
	}
	for k, n := range st.Errors {
		if strings.HasPrefix(k, "cloudtrail:") {
			t.Errorf("%d %s: lookups not paced to the quota", n, k)
		}
	}

	// The text report names the writer under the finding.
	out, _, _ := env.run("check", "App", "--who", "--no-baseline")
	if !strings.Contains(out, "changed by alice (console) ") || !strings.Contains(out, "changed by carol (SDK) ") {
		t.Errorf("text report lacks the writers:\n%s", out)
	}

	// revert's plan names them too (revert --who), in JSON and text.
	out, errs, _ = env.run("revert", "App", "--dry-run", "--who", "--json")
	var rv struct {
		Stacks []struct {
			Plan *struct {
				Items []struct {
					LogicalID string           `json:"logicalId"`
					ChangedBy *drift.ChangedBy `json:"changedBy"`
				} `json:"items"`
			} `json:"plan"`
		} `json:"stacks"`
	}
	if err := json.Unmarshal([]byte(out), &rv); err != nil {
		t.Fatalf("revert --who --json: %v\n%s%s", err, out, errs)
	}
	planned := map[string]string{}
	for _, s := range rv.Stacks {
		if s.Plan == nil {
			continue
		}
		for _, it := range s.Plan.Items {
			if it.ChangedBy != nil {
				planned[it.LogicalID] = it.ChangedBy.Name
			}
		}
	}
	if planned["OrdersQueue1234"] != "alice" || planned["Jobs"] != "carol" {
		t.Errorf("revert --who plan writers %v, want OrdersQueue1234 alice and Jobs carol\n%s", planned, errs)
	}
	if out, _, _ := env.run("revert", "App", "--dry-run", "--who"); !strings.Contains(out, "changed by alice (console) ") {
		t.Errorf("revert --who's text plan lacks the writer:\n%s", out)
	}

	// A lookup that is denied is said on every drifted finding; the
	// verdict is the same.
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "cloudtrail", Code: "AccessDeniedException", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	rep, errs, code = env.checkJSON("App", "--who", "--no-baseline", "--fail")
	if code != ExitDrift {
		t.Fatalf("denied lookups: exit %d, want 1; stderr:\n%s", code, errs)
	}
	if f, ok := rep.find("OrdersQueue1234", "VisibilityTimeout"); !ok || f.ChangedBy == nil || !strings.Contains(f.ChangedBy.Unknown, "AccessDenied") {
		t.Errorf("denied lookup: %+v, want changedBy.unknown naming AccessDenied", f.ChangedBy)
	}
	if err := srv.SetFaults(nil); err != nil {
		t.Fatal(err)
	}

	// 91 days on, CloudTrail's event history no longer has the changes.
	clock.set(91 * 24 * time.Hour)
	rep, errs, code = env.checkJSON("App", "--who", "--no-baseline", "--fail")
	if code != ExitDrift {
		t.Fatalf("after 91 days: exit %d, want 1; stderr:\n%s", code, errs)
	}
	if f, ok := rep.find("Jobs", "VisibilityTimeout"); !ok || f.ChangedBy == nil || f.ChangedBy.Known() || !strings.Contains(f.ChangedBy.Unknown, "90 days") {
		t.Errorf("after 91 days: %+v, want unknown, older than the 90 days", f.ChangedBy)
	}
}
