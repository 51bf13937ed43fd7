//go:build !unix

package store

import (
	"context"
	"errors"
)

// lockFile fails closed where flock is unavailable: writes would otherwise
// lose updates.
func lockFile(ctx context.Context, path string) (func(), error) {
	return nil, errors.New("file store: locking is not supported on this platform")
}

// tryLockFile never locks where flock is unavailable, so nothing is
// removed without the lock.
func tryLockFile(path string) (unlock func(), ok bool) { return nil, false }
