//go:build unix

package cli

import (
	"errors"
	"os"
	"syscall"
)

// holdTemp locks tmp, a temporary file createOutput just made, for as
// long as it is open (the lock ends with the process, however it ends),
// and reports whether tmp is still the file at its name: false when a
// run clearing dead writers' files removed it before the lock was taken.
// A file system without flock leaves tmp unlocked (true): claimTemp
// cannot lock files there either, so none is taken for dead.
func holdTemp(tmp *os.File) bool {
	if err := syscall.Flock(int(tmp.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return !errors.Is(err, syscall.EWOULDBLOCK)
	}
	held, err := tmp.Stat()
	if err != nil {
		return false
	}
	now, err := os.Stat(tmp.Name())
	return err == nil && os.SameFile(held, now)
}

// claimTemp locks the temporary file at p if no living writer holds it
// (its writer was killed); release unlocks it.
func claimTemp(p string) (release func(), ok bool) {
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, false
	}
	return func() { f.Close() }, true
}
