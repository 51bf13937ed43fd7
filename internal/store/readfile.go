package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxStateFile is the size limit of one state file (a baseline, the ignore
// rules, a run record): far above any real one, far below what a wrong
// path (a device, a log) could feed a reader.
const MaxStateFile = 64 << 20

// The refusals of ReadStateFile, wrapped with the path.
var (
	// ErrNotRegular: the path is a directory, device, FIFO or socket.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: the file is larger than the limit.
	ErrTooLarge = errors.New("larger than the state-file limit")
)

// ReadStateFile reads the regular file at path (symbolic links followed)
// when it holds at most limit bytes. Anything else is refused before it is
// read: a FIFO is never opened (which would block until a writer came), a
// device such as /dev/zero never read (which would never end). A missing
// file is an error wrapping fs.ErrNotExist.
func ReadStateFile(path string, limit int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := stateFileOK(path, fi, limit); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file may have been swapped since the Stat: check what was opened.
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := stateFileOK(path, fi, limit); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: %w (%d bytes)", path, ErrTooLarge, limit)
	}
	return b, nil
}

func stateFileOK(path string, fi fs.FileInfo, limit int64) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, kind(fi.Mode()))
	}
	if fi.Size() > limit {
		return fmt.Errorf("%s: %w (%d bytes, the limit is %d)", path, ErrTooLarge, fi.Size(), limit)
	}
	return nil
}

// kind names a non-regular file mode.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}
