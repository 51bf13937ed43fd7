package storetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/store"
)

// LargeSize is the size of the values the large-item tests round-trip:
// several times the 400 KB DynamoDB item limit.
const LargeSize = 1_300_000

// Run runs the conformance suite. newStore must return an empty store each
// time it is called.
func Run(t *testing.T, newStore func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"BaselineVersions", testBaselineVersions},
		{"BaselineLarge", testBaselineLarge},
		{"BaselineConcurrentWriters", testConcurrentWriters},
		{"IgnoreRules", testIgnoreRules},
		{"Runs", testRuns},
		{"RunsExpire", testRunsExpire},
		{"RunsByID", testRunsByID},
		{"FindingsLarge", testFindingsLarge},
		{"FindingsSecretsRedacted", testSecretsRedacted},
		{"Index", testIndex},
		{"State", testState},
		{"StateLarge", testStateLarge},
		{"AuditWriteOnce", testAuditWriteOnce},
		{"InvalidNames", testInvalidNames},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.fn(t, newStore(t))
		})
	}
}

// Stack is the stack most tests use.
var stackA = drift.StackRef{Account: "111111111111", Region: "eu-west-1", Name: "Shop-Api"}

var (
	stackB = drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: "Shop-Api"}
	stackC = drift.StackRef{Account: "222222222222", Region: "eu-west-1", Name: "Billing"}
)

func testBaselineVersions(t *testing.T, s store.Store) {
	ctx := t.Context()
	if _, _, err := s.GetBaseline(ctx, stackA); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("get absent baseline: got %v, want ErrNotFound", err)
	}
	doc1 := []byte(`{"schemaVersion":2,"stackName":"Shop-Api","entries":[]}`)
	v1, err := s.PutBaseline(ctx, stackA, doc1, 0)
	if err != nil {
		t.Fatalf("create baseline: %v", err)
	}
	if v1 == 0 {
		t.Fatal("create baseline returned version 0")
	}
	mustBaseline(t, s, stackA, doc1, v1)

	if _, err := s.PutBaseline(ctx, stackA, []byte(`{"other":1}`), 0); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("create over existing baseline: got %v, want ErrConflict", err)
	}
	doc2 := []byte(`{"schemaVersion":2,"stackName":"Shop-Api","entries":[{"path":"A"}]}`)
	v2, err := s.PutBaseline(ctx, stackA, doc2, v1)
	if err != nil {
		t.Fatalf("update baseline: %v", err)
	}
	if v2 == v1 || v2 == 0 {
		t.Fatalf("update baseline: version %d after %d", v2, v1)
	}
	if _, err := s.PutBaseline(ctx, stackA, []byte(`{"stale":true}`), v1); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale write: got %v, want ErrConflict", err)
	}
	mustBaseline(t, s, stackA, doc2, v2)

	// Another region of the same stack name is another baseline.
	if _, err := s.PutBaseline(ctx, stackB, doc1, v2); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("update of absent baseline: got %v, want ErrConflict", err)
	}
	if _, _, err := s.GetBaseline(ctx, stackB); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("get other region: got %v, want ErrNotFound", err)
	}
	vb, err := s.PutBaseline(ctx, stackB, doc1, 0)
	if err != nil {
		t.Fatalf("create second baseline: %v", err)
	}
	mustBaseline(t, s, stackB, doc1, vb)
	mustBaseline(t, s, stackA, doc2, v2)
}

func mustBaseline(t *testing.T, s store.Store, stack drift.StackRef, wantDoc []byte, wantV int64) {
	t.Helper()
	doc, v, err := s.GetBaseline(t.Context(), stack)
	if err != nil {
		t.Fatalf("get baseline %s: %v", stack, err)
	}
	if !bytes.Equal(doc, wantDoc) {
		t.Errorf("baseline %s: got %d bytes %.80q, want %d bytes %.80q", stack, len(doc), doc, len(wantDoc), wantDoc)
	}
	if v != wantV {
		t.Errorf("baseline %s: version %d, want %d", stack, v, wantV)
	}
}

// largeJSON returns a JSON document of about n bytes with varied content.
func largeJSON(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 7))
	var b bytes.Buffer
	b.WriteString(`{"entries":[`)
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"logicalId":"Res%d","path":"Props.%d","value":"%016x%016x"}`, i, r.IntN(1000), r.Uint64(), r.Uint64())
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

func testBaselineLarge(t *testing.T, s store.Store) {
	ctx := t.Context()
	big := largeJSON(LargeSize, 1)
	v1, err := s.PutBaseline(ctx, stackA, big, 0)
	if err != nil {
		t.Fatalf("put large baseline: %v", err)
	}
	mustBaseline(t, s, stackA, big, v1)

	small := []byte(`{"entries":[]}`)
	v2, err := s.PutBaseline(ctx, stackA, small, v1)
	if err != nil {
		t.Fatalf("replace large with small: %v", err)
	}
	mustBaseline(t, s, stackA, small, v2)

	// A stale large write loses and leaves the stored document whole.
	big2 := largeJSON(LargeSize+12345, 2)
	if _, err := s.PutBaseline(ctx, stackA, big2, v1); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale large write: got %v, want ErrConflict", err)
	}
	mustBaseline(t, s, stackA, small, v2)

	v3, err := s.PutBaseline(ctx, stackA, big2, v2)
	if err != nil {
		t.Fatalf("replace small with large: %v", err)
	}
	mustBaseline(t, s, stackA, big2, v3)
}

// testConcurrentWriters runs writers that each append their own entries to
// one baseline by read-modify-write, retrying on conflict. Every successful
// write must survive; only ErrConflict may fail a write.
func testConcurrentWriters(t *testing.T, s store.Store) {
	const writers, perWriter = 6, 4
	ctx := t.Context()
	if _, err := s.PutBaseline(ctx, stackA, []byte(`[]`), 0); err != nil {
		t.Fatalf("seed baseline: %v", err)
	}
	var (
		mu        sync.Mutex
		conflicts int
		versions  = map[int64]string{}
		wg        sync.WaitGroup
		errs      = make(chan error, writers)
	)
	for w := range writers {
		wg.Go(func() {
			for i := 0; i < perWriter; {
				doc, v, err := s.GetBaseline(ctx, stackA)
				if err != nil {
					errs <- fmt.Errorf("writer %d: get: %w", w, err)
					return
				}
				var entries []string
				if err := json.Unmarshal(doc, &entries); err != nil {
					errs <- fmt.Errorf("writer %d: read back %q: %w", w, doc, err)
					return
				}
				entry := fmt.Sprintf("w%d-%d", w, i)
				next, err := json.Marshal(append(entries, entry))
				if err != nil {
					errs <- err
					return
				}
				nv, err := s.PutBaseline(ctx, stackA, next, v)
				if errors.Is(err, store.ErrConflict) {
					mu.Lock()
					conflicts++
					mu.Unlock()
					continue
				}
				if err != nil {
					errs <- fmt.Errorf("writer %d: put: %w", w, err)
					return
				}
				mu.Lock()
				if prev, dup := versions[nv]; dup {
					mu.Unlock()
					errs <- fmt.Errorf("writer %d: version %d returned twice (%s, %s)", w, nv, prev, entry)
					return
				}
				versions[nv] = entry
				mu.Unlock()
				i++
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	doc, _, err := s.GetBaseline(ctx, stackA)
	if err != nil {
		t.Fatalf("final get: %v", err)
	}
	var got []string
	if err := json.Unmarshal(doc, &got); err != nil {
		t.Fatalf("final document %q: %v", doc, err)
	}
	seen := map[string]int{}
	for _, e := range got {
		seen[e]++
	}
	for w := range writers {
		for i := range perWriter {
			if e := fmt.Sprintf("w%d-%d", w, i); seen[e] != 1 {
				t.Errorf("entry %s appears %d times in the final baseline", e, seen[e])
			}
		}
	}
	if len(got) != writers*perWriter {
		t.Errorf("final baseline has %d entries, want %d", len(got), writers*perWriter)
	}
	t.Logf("%d writers x %d writes: %d conflicts reported and retried", writers, perWriter, conflicts)
}

func testIgnoreRules(t *testing.T, s store.Store) {
	ctx := t.Context()
	for _, scope := range []string{"", "o-abc123"} {
		if _, _, err := s.GetIgnoreRules(ctx, scope); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("get absent rules %q: got %v, want ErrNotFound", scope, err)
		}
	}
	doc := []byte("# why: managed by the platform team\nrules:\n  - path: Tags\n    stack: Shop-*\n")
	v1, err := s.PutIgnoreRules(ctx, "", doc, 0)
	if err != nil {
		t.Fatalf("put rules: %v", err)
	}
	if _, _, err := s.GetIgnoreRules(ctx, "o-abc123"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("scopes not independent: got %v, want ErrNotFound", err)
	}
	got, v, err := s.GetIgnoreRules(ctx, "")
	if err != nil || !bytes.Equal(got, doc) || v != v1 {
		t.Fatalf("get rules: got %q v%d err %v, want %q v%d", got, v, err, doc, v1)
	}
	doc2 := append(append([]byte{}, doc...), "  - path: Description\n"...)
	v2, err := s.PutIgnoreRules(ctx, "", doc2, v1)
	if err != nil {
		t.Fatalf("update rules: %v", err)
	}
	if _, err := s.PutIgnoreRules(ctx, "", doc, v1); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale rules write: got %v, want ErrConflict", err)
	}
	got, v, err = s.GetIgnoreRules(ctx, "")
	if err != nil || !bytes.Equal(got, doc2) || v != v2 {
		t.Fatalf("after conflict: got %q v%d err %v, want %q v%d", got, v, err, doc2, v2)
	}
	if _, err := s.PutIgnoreRules(ctx, "o-abc123", doc, 0); err != nil {
		t.Fatalf("put scoped rules: %v", err)
	}
}

func sampleFindings() []drift.Finding {
	return []drift.Finding{
		{Tier: drift.Declared, LogicalID: "Queue", ResourceType: "AWS::SQS::Queue", PhysicalID: "https://sqs/q", Path: "VisibilityTimeout", Actual: 60.0, Desired: 30.0},
		{Tier: drift.Undeclared, LogicalID: "Bucket", ResourceType: "AWS::S3::Bucket", PhysicalID: "b-1", Path: "Tags[env].Value", Actual: "prod", Unrecorded: true},
		{Tier: drift.Added, LogicalID: "Topic", ResourceType: "AWS::SNS::Subscription", PhysicalID: "arn:aws:sns:eu-west-1:1:t:abc", Actual: map[string]any{"Protocol": "email", "Big": json.Number("12345678901234567890")}},
		{Tier: drift.Skipped, LogicalID: "Custom", ResourceType: "Custom::Thing", PhysicalID: "c", Reason: "custom resource"},
	}
}

func record(runID string, stack drift.StackRef, started time.Time, fs []drift.Finding) store.RunRecord {
	var counts map[drift.Tier]int
	for _, f := range fs {
		if counts == nil {
			counts = map[drift.Tier]int{}
		}
		counts[f.Tier]++
	}
	return store.RunRecord{
		RunID: runID, Stack: stack, StartedAt: started, FinishedAt: started.Add(90 * time.Second),
		Status: store.RunOK, Counts: counts, Fingerprint: "fp-" + runID,
		Verdict: drift.Judge(fs, len(fs), false).Outcome(), Resources: len(fs), NotRead: drift.Judge(fs, len(fs), false).Unread(),
	}
}

// withExpiry is what a store returns for rec: the default retention applied.
func withExpiry(rec store.RunRecord) store.RunRecord {
	if rec.ExpiresAt.IsZero() {
		rec.ExpiresAt = rec.FinishedAt.Add(store.DefaultRunRetention)
	}
	return rec
}

// findingsJSON compares findings through their JSON form, the form stores
// keep (numbers come back as json.Number).
func findingsJSON(t *testing.T, fs []drift.Finding) string {
	t.Helper()
	if fs == nil {
		fs = []drift.Finding{}
	}
	b, err := json.MarshalIndent(fs, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func checkRun(t *testing.T, what string, gotRec store.RunRecord, gotFs []drift.Finding, wantRec store.RunRecord, wantFs []drift.Finding) {
	t.Helper()
	if d := cmp.Diff(gotRec, withExpiry(wantRec)); d != "" {
		t.Errorf("%s record (-got +want):\n%s", what, d)
	}
	if d := cmp.Diff(findingsJSON(t, gotFs), findingsJSON(t, wantFs)); d != "" {
		t.Errorf("%s findings (-got +want):\n%s", what, d)
	}
}

func testRuns(t *testing.T, s store.Store) {
	ctx := t.Context()
	if _, _, err := s.LatestFindings(ctx, stackA); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("latest of unknown stack: got %v, want ErrNotFound", err)
	}
	t0 := time.Now().UTC().Truncate(time.Millisecond).Add(-time.Hour)
	fs1 := sampleFindings()
	r1 := record("run-1", stackA, t0, fs1)
	if err := s.PutRun(ctx, r1, fs1); err != nil {
		t.Fatalf("put run 1: %v", err)
	}
	rec, fs, err := s.LatestFindings(ctx, stackA)
	if err != nil {
		t.Fatalf("latest: %v", err)
	}
	checkRun(t, "latest after run 1", rec, fs, r1, fs1)

	r2 := record("run-2", stackA, t0.Add(10*time.Minute), nil)
	r2.Status, r2.Reason = store.RunFailed, "AccessDenied: sts:AssumeRole"
	if err := s.PutRun(ctx, r2, nil); err != nil {
		t.Fatalf("put run 2: %v", err)
	}
	// A failed run has no findings: the latest findings stay run 1's.
	rec, fs, err = s.LatestFindings(ctx, stackA)
	if err != nil {
		t.Fatalf("latest: %v", err)
	}
	checkRun(t, "latest after failed run 2", rec, fs, r1, fs1)
	// A run that started earlier but finishes later must not become latest.
	fs0 := fs1[:1]
	r0 := record("run-0", stackA, t0.Add(-10*time.Minute), fs0)
	r0.ExpiresAt = t0.Add(48 * time.Hour)
	if err := s.PutRun(ctx, r0, fs0); err != nil {
		t.Fatalf("put run 0: %v", err)
	}
	rec, fs, err = s.LatestFindings(ctx, stackA)
	if err != nil {
		t.Fatalf("latest: %v", err)
	}
	checkRun(t, "latest after late run 0", rec, fs, r1, fs1)
	// A later successful run becomes the latest.
	fs3 := fs1[1:2]
	r3 := record("run-3", stackA, t0.Add(20*time.Minute), fs3)
	if err := s.PutRun(ctx, r3, fs3); err != nil {
		t.Fatalf("put run 3: %v", err)
	}
	rec, fs, err = s.LatestFindings(ctx, stackA)
	if err != nil {
		t.Fatalf("latest: %v", err)
	}
	checkRun(t, "latest after run 3", rec, fs, r3, fs3)

	runs, err := s.ListRuns(ctx, stackA, 0)
	if err != nil {
		t.Fatalf("list runs: %v", err)
	}
	want := []store.RunRecord{withExpiry(r3), withExpiry(r2), withExpiry(r1), withExpiry(r0)}
	if d := cmp.Diff(runs, want); d != "" {
		t.Errorf("list runs (-got +want):\n%s", d)
	}
	runs, err = s.ListRuns(ctx, stackA, 2)
	if err != nil {
		t.Fatalf("list runs limit 2: %v", err)
	}
	if d := cmp.Diff(runs, want[:2]); d != "" {
		t.Errorf("list runs limit 2 (-got +want):\n%s", d)
	}
	rec, fs, err = s.RunFindings(ctx, stackA, "run-1")
	if err != nil {
		t.Fatalf("run findings: %v", err)
	}
	checkRun(t, "run-1", rec, fs, r1, fs1)
	if _, _, err := s.RunFindings(ctx, stackB, "run-1"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("run of another stack: got %v, want ErrNotFound", err)
	}
	if runs, err := s.ListRuns(ctx, stackB, 0); err != nil || len(runs) != 0 {
		t.Errorf("runs of another stack: got %v, %v; want none", runs, err)
	}
}

func testRunsExpire(t *testing.T, s store.Store) {
	ctx := t.Context()
	t0 := time.Now().UTC().Truncate(time.Millisecond).Add(-48 * time.Hour)
	old := record("run-old", stackA, t0, nil)
	old.ExpiresAt = time.Now().Add(-time.Hour)
	if err := s.PutRun(ctx, old, nil); err != nil {
		t.Fatalf("put expired run: %v", err)
	}
	fresh := record("run-fresh", stackA, t0.Add(time.Hour), sampleFindings())
	if err := s.PutRun(ctx, fresh, sampleFindings()); err != nil {
		t.Fatalf("put run: %v", err)
	}
	runs, err := s.ListRuns(ctx, stackA, 0)
	if err != nil {
		t.Fatalf("list runs: %v", err)
	}
	if d := cmp.Diff(runs, []store.RunRecord{withExpiry(fresh)}); d != "" {
		t.Errorf("expired run listed (-got +want):\n%s", d)
	}
	if _, _, err := s.RunFindings(ctx, stackA, "run-old"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("expired run findings: got %v, want ErrNotFound", err)
	}
	if got, err := s.RunsByID(ctx, "run-old"); err != nil || len(got) != 0 {
		t.Errorf("expired run by id: got %v, %v; want none", got, err)
	}
}

func testRunsByID(t *testing.T, s store.Store) {
	ctx := t.Context()
	t0 := time.Now().UTC().Truncate(time.Millisecond)
	var want []store.RunRecord
	// Put in an order unlike the wanted (account, region, name) order.
	for i, st := range []drift.StackRef{stackC, stackB, stackA} {
		r := record("sweep-2026-11-30T04-00", st, t0.Add(time.Duration(i)*time.Second), sampleFindings())
		if err := s.PutRun(ctx, r, sampleFindings()); err != nil {
			t.Fatalf("put run %s: %v", st, err)
		}
		want = append([]store.RunRecord{withExpiry(r)}, want...)
	}
	other := record("sweep-other", stackA, t0.Add(time.Minute), nil)
	if err := s.PutRun(ctx, other, nil); err != nil {
		t.Fatalf("put other run: %v", err)
	}
	got, err := s.RunsByID(ctx, "sweep-2026-11-30T04-00")
	if err != nil {
		t.Fatalf("runs by id: %v", err)
	}
	if d := cmp.Diff(got, want); d != "" {
		t.Errorf("runs by id (-got +want):\n%s", d)
	}
	if got, err := s.RunsByID(ctx, "no-such-run"); err != nil || len(got) != 0 {
		t.Errorf("unknown run id: got %v, %v; want none", got, err)
	}
}

func testFindingsLarge(t *testing.T, s store.Store) {
	ctx := t.Context()
	var fs []drift.Finding
	for i := 0; len(fs) < 6000; i++ {
		fs = append(fs, drift.Finding{
			Tier: drift.Undeclared, LogicalID: fmt.Sprintf("Function%04d", i), ResourceType: "AWS::Lambda::Function",
			PhysicalID: fmt.Sprintf("fn-%04d", i), Path: "Environment.Variables.SETTING",
			Actual: fmt.Sprintf("value-%d-%0120d", i, i), Unrecorded: i%2 == 0,
		})
	}
	r := record("run-large", stackA, time.Now().UTC().Truncate(time.Millisecond), fs)
	if err := s.PutRun(ctx, r, fs); err != nil {
		t.Fatalf("put large run: %v", err)
	}
	rec, got, err := s.LatestFindings(ctx, stackA)
	if err != nil {
		t.Fatalf("latest: %v", err)
	}
	checkRun(t, "large latest", rec, got, r, fs)
	rec, got, err = s.RunFindings(ctx, stackA, "run-large")
	if err != nil {
		t.Fatalf("run findings: %v", err)
	}
	checkRun(t, "large run", rec, got, r, fs)
}

func testSecretsRedacted(t *testing.T, s store.Store) {
	ctx := t.Context()
	fs := []drift.Finding{
		{Tier: drift.Declared, LogicalID: "Db", ResourceType: "AWS::RDS::DBInstance", PhysicalID: "db", Path: "MasterUserPassword",
			Actual: "live", Desired: drift.Secret{Value: "hunter2-plaintext"}},
		{Tier: drift.Unresolved, LogicalID: "Db", ResourceType: "AWS::RDS::DBInstance", PhysicalID: "db", Path: "Password",
			Desired: drift.Unknown{Secret: true, Reason: "{{resolve:secretsmanager:prod/db}}"}},
	}
	r := record("run-secret", stackA, time.Now().UTC().Truncate(time.Millisecond), fs)
	if err := s.PutRun(ctx, r, fs); err != nil {
		t.Fatalf("put run: %v", err)
	}
	_, got, err := s.LatestFindings(ctx, stackA)
	if err != nil {
		t.Fatalf("latest: %v", err)
	}
	if len(got) != 2 || got[0].Desired != drift.Redacted || got[1].Desired != drift.Redacted {
		t.Errorf("secret values came back as %#v", got)
	}
}

func testIndex(t *testing.T, s store.Store) {
	ctx := t.Context()
	now := time.Now().UTC().Truncate(time.Second)
	role := "AppRole-1ABCDEF"
	odd := "arn:aws:s3:::bucket/with#hash and space"
	entries := []store.IndexEntry{
		{PhysicalID: role, Type: "AWS::IAM::Role", Stack: stackC, LogicalID: "AppRole", IndexedAt: now},
		{PhysicalID: role, Type: "AWS::IAM::Role", Stack: stackA, LogicalID: "AppRole", IndexedAt: now},
		{PhysicalID: odd, Type: "AWS::S3::Bucket", Stack: stackB, LogicalID: "Bucket", IndexedAt: now, ExpiresAt: now.Add(24 * time.Hour)},
		{PhysicalID: "gone", Type: "AWS::SQS::Queue", Stack: stackB, LogicalID: "Queue", IndexedAt: now, ExpiresAt: now.Add(-time.Hour)},
	}
	if err := s.PutIndex(ctx, entries); err != nil {
		t.Fatalf("put index: %v", err)
	}
	got, err := s.LookupIndex(ctx, role)
	if err != nil {
		t.Fatalf("lookup: %v", err)
	}
	if d := cmp.Diff(got, []store.IndexEntry{entries[1], entries[0]}); d != "" {
		t.Errorf("lookup role (-got +want):\n%s", d)
	}
	got, err = s.LookupIndex(ctx, odd)
	if err != nil {
		t.Fatalf("lookup: %v", err)
	}
	if d := cmp.Diff(got, []store.IndexEntry{entries[2]}); d != "" {
		t.Errorf("lookup odd id (-got +want):\n%s", d)
	}
	for _, id := range []string{"gone", "never-indexed"} {
		got, err := s.LookupIndex(ctx, id)
		if err != nil || len(got) != 0 {
			t.Errorf("lookup %s: got %v, %v; want none", id, got, err)
		}
	}
	// A later sweep replaces the entry of the same stack and logical id.
	moved := entries[1]
	moved.Type, moved.IndexedAt = "AWS::IAM::Role", now.Add(time.Hour)
	if err := s.PutIndex(ctx, []store.IndexEntry{moved}); err != nil {
		t.Fatalf("put index again: %v", err)
	}
	got, err = s.LookupIndex(ctx, role)
	if err != nil {
		t.Fatalf("lookup: %v", err)
	}
	if d := cmp.Diff(got, []store.IndexEntry{moved, entries[0]}); d != "" {
		t.Errorf("lookup after replace (-got +want):\n%s", d)
	}
	if err := s.PutIndex(ctx, nil); err != nil {
		t.Errorf("put empty index batch: %v", err)
	}
	// More entries than one batch call takes.
	var many []store.IndexEntry
	for i := range 60 {
		many = append(many, store.IndexEntry{PhysicalID: fmt.Sprintf("q-%02d", i), Type: "AWS::SQS::Queue", Stack: stackC, LogicalID: fmt.Sprintf("Q%d", i), IndexedAt: now})
	}
	if err := s.PutIndex(ctx, many); err != nil {
		t.Fatalf("put many: %v", err)
	}
	for _, i := range []int{0, 29, 59} {
		got, err := s.LookupIndex(ctx, many[i].PhysicalID)
		if err != nil {
			t.Fatalf("lookup: %v", err)
		}
		if d := cmp.Diff(got, many[i:i+1]); d != "" {
			t.Errorf("lookup %s (-got +want):\n%s", many[i].PhysicalID, d)
		}
	}
}

func testState(t *testing.T, s store.Store) {
	ctx := t.Context()
	exp := time.Now().Add(time.Hour)
	if _, err := s.GetState(ctx, "run-1", "live.Bucket"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("get absent state: got %v, want ErrNotFound", err)
	}
	cases := []struct{ key, data string }{
		{"live.Bucket", `{"BucketName":"b"}`},
		{"desired", "\x00\x01binary\xff"},
		{"empty", ""},
	}
	for _, c := range cases {
		if err := s.PutState(ctx, "run-1", c.key, []byte(c.data), exp); err != nil {
			t.Fatalf("put state %s: %v", c.key, err)
		}
	}
	for _, c := range cases {
		got, err := s.GetState(ctx, "run-1", c.key)
		if err != nil {
			t.Fatalf("get state %s: %v", c.key, err)
		}
		if string(got) != c.data {
			t.Errorf("state %s: got %q, want %q", c.key, got, c.data)
		}
	}
	if _, err := s.GetState(ctx, "run-2", "live.Bucket"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("state of another run: got %v, want ErrNotFound", err)
	}
	if err := s.PutState(ctx, "run-1", "old", []byte("x"), time.Now().Add(-time.Minute)); err != nil {
		t.Fatalf("put expired state: %v", err)
	}
	if _, err := s.GetState(ctx, "run-1", "old"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("expired state: got %v, want ErrNotFound", err)
	}
	if err := s.PutState(ctx, "run-1", "forever", []byte("x"), time.Time{}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("state without expiry: got %v, want ErrInvalid", err)
	}
}

func testStateLarge(t *testing.T, s store.Store) {
	ctx := t.Context()
	exp := time.Now().Add(time.Hour)
	r := rand.New(rand.NewPCG(3, 4))
	big := make([]byte, LargeSize)
	for i := range big {
		big[i] = byte(r.Uint32())
	}
	steps := []struct {
		name string
		data []byte
	}{
		{"large", big},
		{"small over large", []byte("small")},
		{"larger over small", append(append([]byte{}, big...), big[:500_000]...)},
		{"large over larger", big[:LargeSize-1]},
	}
	for _, st := range steps {
		if err := s.PutState(ctx, "run-big", "live.models", st.data, exp); err != nil {
			t.Fatalf("%s: put: %v", st.name, err)
		}
		got, err := s.GetState(ctx, "run-big", "live.models")
		if err != nil {
			t.Fatalf("%s: get: %v", st.name, err)
		}
		if !bytes.Equal(got, st.data) {
			t.Fatalf("%s: got %d bytes, want %d (content differs)", st.name, len(got), len(st.data))
		}
	}
}

func testInvalidNames(t *testing.T, s store.Store) {
	ctx := t.Context()
	bad := []drift.StackRef{
		{Account: "111111111111", Region: "eu-west-1", Name: "../../etc"},
		{Account: "1#2", Region: "eu-west-1", Name: "S"},
		{Account: "111111111111", Region: "", Name: "S"},
		{Account: "111111111111", Region: "eu-west-1", Name: "a.b"},
	}
	for _, st := range bad {
		if _, _, err := s.GetBaseline(ctx, st); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("get baseline %+v: got %v, want ErrInvalid", st, err)
		}
		if _, err := s.PutBaseline(ctx, st, []byte("{}"), 0); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("put baseline %+v: got %v, want ErrInvalid", st, err)
		}
	}
	if _, err := s.PutIgnoreRules(ctx, "../x", nil, 0); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("bad scope: got %v, want ErrInvalid", err)
	}
	if err := s.PutState(ctx, "run/1", "k", nil, time.Now().Add(time.Hour)); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("bad run id: got %v, want ErrInvalid", err)
	}
	if _, err := s.GetState(ctx, "run-1", "../../k"); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("bad state key: got %v, want ErrInvalid", err)
	}
	r := record("run#1", stackA, time.Now(), nil)
	if err := s.PutRun(ctx, r, nil); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("bad run record id: got %v, want ErrInvalid", err)
	}
	if err := s.PutIndex(ctx, []store.IndexEntry{{PhysicalID: "", Stack: stackA, LogicalID: "X"}}); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("empty physical id: got %v, want ErrInvalid", err)
	}
	if _, err := s.LookupIndex(ctx, ""); !errors.Is(err, store.ErrInvalid) {
		t.Errorf("lookup empty physical id: got %v, want ErrInvalid", err)
	}
}

// testAuditWriteOnce: an audit item is written once; a second write under
// the same id and key (a retry, or anyone else) fails with ErrExists and
// leaves the first, small or chunked; audit items are not run state.
func testAuditWriteOnce(t *testing.T, s store.Store) {
	ctx := t.Context()
	exp := time.Now().Add(time.Hour)
	if _, err := s.GetAudit(ctx, "exec-1", "revert-audit.a"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("get absent audit: got %v, want ErrNotFound", err)
	}
	big := largeJSON(store.InlineLimit+100_000, 7)
	for _, c := range []struct{ key, first, second string }{
		{"revert-audit.a", `{"approver":"arn:aws:iam::1:user/alice"}`, `{"approver":"someone else"}`},
		{"revert-audit.big", string(big), `{}`},
	} {
		if err := s.PutAudit(ctx, "exec-1", c.key, []byte(c.first), exp); err != nil {
			t.Fatalf("put audit %s: %v", c.key, err)
		}
		if err := s.PutAudit(ctx, "exec-1", c.key, []byte(c.second), exp); !errors.Is(err, store.ErrExists) {
			t.Errorf("second put of audit %s: got %v, want ErrExists", c.key, err)
		}
		got, err := s.GetAudit(ctx, "exec-1", c.key)
		if err != nil || string(got) != c.first {
			t.Errorf("audit %s after a second put: %d bytes, %v; want the first write", c.key, len(got), err)
		}
		if _, err := s.GetState(ctx, "exec-1", c.key); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("audit %s read as run state: %v, want ErrNotFound", c.key, err)
		}
	}
}
