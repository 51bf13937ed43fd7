package inputfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"unicode/utf8"
)

// The refusals of Read, wrapped with the path.
var (
	// ErrNotRegular: the path is a directory, device, FIFO or socket.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: the file is larger than the limit.
	ErrTooLarge = errors.New("larger than the size limit")
	// ErrNotUTF8: a text input holds a byte sequence that is not UTF-8.
	ErrNotUTF8 = errors.New("not valid UTF-8")
)

// Read reads the regular file at path (symbolic links followed) when it
// holds at most limit bytes. Anything else is refused before it is read.
// A missing file is an error wrapping fs.ErrNotExist.
func Read(path string, limit int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := fileOK(path, fi, limit); err != nil {
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
	if err := fileOK(path, fi, limit); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: %w (more than %d bytes)", path, ErrTooLarge, limit)
	}
	return b, nil
}

// UTF8 returns an error naming path and the offset of data's first byte
// that is not UTF-8, or nil.
func UTF8(path string, data []byte) error {
	for i := 0; i < len(data); {
		if data[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return fmt.Errorf("%s: %w (byte %d)", path, ErrNotUTF8, i)
		}
		i += n
	}
	return nil
}

func fileOK(path string, fi fs.FileInfo, limit int64) error {
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
