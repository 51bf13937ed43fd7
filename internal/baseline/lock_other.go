//go:build !unix

package baseline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// lockDir takes an exclusive lock on dir by creating dir/.lock, waiting
// until ctx ends.
func lockDir(ctx context.Context, dir string) (func(), error) {
	p := filepath.Join(dir, ".lock")
	for {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.Close()
			return func() { os.Remove(p) }, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("lock %s: %w", dir, err)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("lock %s: another writer holds it (remove %s if none runs): %w", dir, p, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}
