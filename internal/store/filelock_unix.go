//go:build unix

package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockFile takes an exclusive flock on path (the state directory itself,
// so no lock file appears among files users commit), polling so ctx can
// cancel the wait. The returned func releases it. flock locks belong to the
// open file, so goroutines of one process exclude each other as processes
// do, and a crashed writer's lock dies with it.
func lockFile(ctx context.Context, path string) (func(), error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open lock: %w", err)
	}
	wait := time.Millisecond
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("wait for lock %s: %w", path, ctx.Err())
		case <-time.After(wait):
		}
		if wait < 50*time.Millisecond {
			wait *= 2
		}
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// tryLockFile takes the exclusive flock on path only if no one holds it:
// ok is false when it is held or path cannot be opened (a state directory
// that does not exist yet).
func tryLockFile(path string) (unlock func(), ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, false
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, true
}
