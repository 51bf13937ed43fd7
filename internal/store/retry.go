package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// maxConflictRetries bounds how often RetryConflicts runs an attempt again.
const maxConflictRetries = 10

// RetryConflicts runs attempt, and runs it again after a short randomised
// wait each time it fails with an error wrapping ErrConflict (another
// writer got in between its read and its conditional write). attempt must
// read what it merges into afresh each time. After maxConflictRetries
// conflicts the last error is returned, still wrapping ErrConflict: a
// writer may give up, but never silently.
func RetryConflicts(ctx context.Context, attempt func() error) error {
	wait := 2 * time.Millisecond
	for n := 0; ; n++ {
		err := attempt()
		if err == nil || !errors.Is(err, ErrConflict) || n == maxConflictRetries {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (waiting to retry after: %w)", ctx.Err(), err)
		case <-time.After(wait/2 + rand.N(wait)):
		}
		if wait < 250*time.Millisecond {
			wait *= 2
		}
	}
}
