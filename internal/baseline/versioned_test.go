package baseline

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/store"
)

// Concurrent writers each add their own entry; the conditional write and
// the retry make each merge into the others' results, so none is lost and,
// with this few writers, none gives up.
func TestUpdateStoredConcurrentWriters(t *testing.T) {
	st := store.NewFile(t.TempDir())
	const writers = 12
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := UpdateStored(context.Background(), st, stackS, func(cur *Baseline) (*Baseline, error) {
				if cur == nil {
					cur = base()
				}
				cur.Entries = append(cur.Entries, Entry{fmt.Sprintf("R%02d", i), qType, "P", float64(i)})
				return cur, nil
			})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	b, _, err := LoadStored(context.Background(), st, stackS)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Entries) != writers {
		t.Errorf("%d entries for %d writers: an update was lost", len(b.Entries), writers)
	}
}

// conflictOnce is a store whose first write loses to a concurrent writer.
type conflictOnce struct {
	*store.File
	once sync.Once
}

func (c *conflictOnce) PutBaseline(ctx context.Context, s drift.StackRef, doc []byte, ver int64) (int64, error) {
	var err error
	c.once.Do(func() {
		b := base(Entry{"Other", qType, "P", 2.0})
		data, _ := Encode(b)
		_, err = c.File.PutBaseline(ctx, s, data, ver)
		if err == nil {
			err = fmt.Errorf("put: %w", store.ErrConflict)
		}
	})
	if err != nil {
		return 0, err
	}
	return c.File.PutBaseline(ctx, s, doc, ver)
}

func TestUpdateStoredRetriesOnConflict(t *testing.T) {
	st := &conflictOnce{File: store.NewFile(t.TempDir())}
	calls := 0
	_, err := UpdateStored(context.Background(), st, stackS, func(cur *Baseline) (*Baseline, error) {
		calls++
		if cur == nil {
			cur = base()
		}
		cur.Entries = append(cur.Entries, Entry{"Mine", qType, "P", 1.0})
		return cur, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := LoadStored(context.Background(), st, stackS)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 2 || len(b.Entries) != 2 {
		t.Errorf("calls=%d entries=%v; want the retry to merge into the other writer's baseline", calls, b.Entries)
	}
}
