//go:build unix

package store_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/store"
)

// ReadStateFile reads regular files within the limit and refuses, without
// blocking or reading them, devices, FIFOs, directories and oversize files.
func TestReadStateFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.json")
	if err := os.WriteFile(small, []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, 101), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "zero-link")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		want error
	}{
		{"regular within the limit", small, nil},
		{"oversize", big, store.ErrTooLarge},
		{"/dev/zero", "/dev/zero", store.ErrNotRegular},
		{"a link to /dev/zero", link, store.ErrNotRegular},
		{"a FIFO", fifo, store.ErrNotRegular},
		{"a directory", dir, store.ErrNotRegular},
		{"missing", filepath.Join(dir, "nope"), fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan struct{})
			var got []byte
			var err error
			go func() {
				defer close(done)
				got, err = store.ReadStateFile(tt.path, 100)
			}()
			select {
			case <-done:
			case <-deadlinetest.After(t, 10*time.Second):
				t.Fatal("ReadStateFile blocked")
			}
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(string(got), `{"a":1}`); diff != "" {
					t.Errorf("content (-got +want):\n%s", diff)
				}
				return
			}
			if !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}
