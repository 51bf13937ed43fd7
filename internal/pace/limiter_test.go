package pace_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/realdrift/realdrift/internal/pace"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/internal/store/storetest"
)

var local storetest.DynamoLocal

func TestMain(m *testing.M) {
	code := m.Run()
	local.Stop()
	os.Exit(code)
}

var tableSeq atomic.Int64

func newTable(t *testing.T) *dynamodb.Client {
	t.Helper()
	db := dynamodb.New(dynamodb.Options{
		BaseEndpoint:                    aws.String(local.Endpoint(t, "the pace tests")),
		Region:                          "us-east-1",
		Credentials:                     credentials.NewStaticCredentialsProvider("local", "local", ""),
		DisableValidateResponseChecksum: true,
	})
	return db
}

func createTable(t *testing.T, db *dynamodb.Client) string {
	t.Helper()
	name := fmt.Sprintf("realdrift-pace-%d-%d", time.Now().UnixNano(), tableSeq.Add(1))
	if err := store.CreateTable(t.Context(), db, name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = db.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)})
	})
	return name
}

// slotRecorder is a Sleep that records each caller's slot (now + d)
// instead of sleeping, so the schedule itself is what the test checks.
type slotRecorder struct {
	now   func() time.Time
	mu    sync.Mutex
	slots map[string][]time.Time
}

func (r *slotRecorder) sleeper(key string) func(context.Context, time.Duration) error {
	return func(_ context.Context, d time.Duration) error {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.slots[key] = append(r.slots[key], r.now().Add(d))
		return nil
	}
}

// TestSharedSchedule: several limiters (the Lambdas of a sweep), each with
// many callers, share one schedule per account-region through the table:
// every slot of an account-region is at least 1/rate after the previous
// one (never more than the rate, from any number of processes), the slots
// have no gaps while callers wait (the rate is sustained), and two
// account-regions do not slow each other.
func TestSharedSchedule(t *testing.T) {
	db := newTable(t)
	table := createTable(t, db)
	const rate, perKey = 20.0, 60
	// One clock frozen for the test: the schedule alone spaces the slots.
	t0 := time.Unix(1_900_000_000, 0)
	now := func() time.Time { return t0 }
	rec := &slotRecorder{now: now, slots: map[string][]time.Time{}}
	keys := []string{"111111111111#us-east-1", "111111111111#eu-west-1"}
	var limiters []*pace.Limiter
	var wg sync.WaitGroup
	for p := 0; p < 3; p++ {
		for _, k := range keys {
			l := pace.New(db, table, pace.Options{Rate: rate, MaxBlock: 4, Now: now, Sleep: rec.sleeper(k)})
			limiters = append(limiters, l)
			for c := 0; c < perKey/3; c++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					acct, region := k[:12], k[13:]
					if err := l.Wait(t.Context(), acct, region); err != nil {
						t.Error(err)
					}
				}()
			}
		}
	}
	wg.Wait()
	writes := 0
	for _, l := range limiters {
		writes += l.Stats().Reservations
	}
	if writes > 2*perKey {
		t.Errorf("%d table writes for %d calls", writes, 2*perKey)
	}
	t.Logf("%d calls, %d table writes", 2*perKey, writes)
	step := time.Duration(float64(time.Second) / rate)
	for _, k := range keys {
		got := rec.slots[k]
		if len(got) != perKey {
			t.Fatalf("%s: %d slots, want %d", k, len(got), perKey)
		}
		slices.SortFunc(got, func(a, b time.Time) int { return a.Compare(b) })
		for i := 1; i < len(got); i++ {
			if d := got[i].Sub(got[i-1]); d < step-time.Microsecond {
				t.Errorf("%s: slots %d and %d are %s apart, want >= %s", k, i-1, i, d, step)
			}
		}
		if got[0].Before(t0) {
			t.Errorf("%s: first slot %s before now", k, got[0])
		}
		// No gaps: 60 calls at 20/s end 59 steps after the first.
		if span, want := got[len(got)-1].Sub(got[0]), time.Duration(perKey-1)*step; span > want+time.Millisecond {
			t.Errorf("%s: %d slots span %s, want %s (a gap in the schedule)", k, perKey, span, want)
		}
	}
}

// TestReservationBlocks: callers waiting together share one table write.
func TestReservationBlocks(t *testing.T) {
	db := newTable(t)
	table := createTable(t, db)
	t0 := time.Unix(1_900_000_000, 0)
	now := func() time.Time { return t0 }
	rec := &slotRecorder{now: now, slots: map[string][]time.Time{}}
	l := pace.New(db, table, pace.Options{Rate: 10, MaxBlock: 8, Now: now, Sleep: rec.sleeper("k")})
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := l.Wait(t.Context(), "222222222222", "us-east-1"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	st := l.Stats()
	if st.Calls != 32 {
		t.Errorf("calls = %d, want 32", st.Calls)
	}
	if st.Reservations >= 32 || st.Reservations < 4 {
		t.Errorf("reservations = %d for 32 calls in blocks of at most 8: want 4..31", st.Reservations)
	}
	if len(rec.slots["k"]) != 32 {
		t.Errorf("%d slots, want 32", len(rec.slots["k"]))
	}
}

// TestIdleScheduleStartsNow: after the schedule has run out, a call starts
// at once (the idle branch), not behind the old schedule's end.
func TestIdleScheduleStartsNow(t *testing.T) {
	db := newTable(t)
	table := createTable(t, db)
	t0 := time.Unix(1_900_000_000, 0)
	clock := t0
	now := func() time.Time { return clock }
	rec := &slotRecorder{now: now, slots: map[string][]time.Time{}}
	l := pace.New(db, table, pace.Options{Rate: 5, Now: now, Sleep: rec.sleeper("k")})
	for range 3 {
		if err := l.Wait(t.Context(), "333333333333", "us-east-1"); err != nil {
			t.Fatal(err)
		}
	}
	clock = t0.Add(time.Minute)
	if err := l.Wait(t.Context(), "333333333333", "us-east-1"); err != nil {
		t.Fatal(err)
	}
	got := rec.slots["k"]
	want := []time.Time{t0, t0.Add(200 * time.Millisecond), t0.Add(400 * time.Millisecond), t0.Add(time.Minute)}
	if !slices.EqualFunc(got, want, time.Time.Equal) {
		t.Errorf("slots = %v, want %v", got, want)
	}
}

// TestScheduleFullBeforeDeadline: a caller whose slot would come after its
// deadline is refused at once with ErrScheduleFull (a throttle), not left
// to time out.
func TestScheduleFullBeforeDeadline(t *testing.T) {
	db := newTable(t)
	table := createTable(t, db)
	t0 := time.Unix(1_900_000_000, 0)
	now := func() time.Time { return t0 }
	rec := &slotRecorder{now: now, slots: map[string][]time.Time{}}
	l := pace.New(db, table, pace.Options{Rate: 1, MaxBlock: 1, Now: now, Sleep: rec.sleeper("k")})
	for range 3 { // slots at t0, t0+1s, t0+2s
		if err := l.Wait(t.Context(), "444444444444", "us-east-1"); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithDeadline(t.Context(), t0.Add(2500*time.Millisecond))
	defer cancel()
	err := l.Wait(ctx, "444444444444", "us-east-1") // its slot: t0+3s
	if !errors.Is(err, pace.ErrScheduleFull) || !pace.IsThrottle(err) {
		t.Errorf("err = %v, want ErrScheduleFull, a throttle", err)
	}
	if st := l.Stats(); st.Full != 1 || st.Calls != 3 {
		t.Errorf("stats %+v: want 3 calls and 1 refused", st)
	}
}
