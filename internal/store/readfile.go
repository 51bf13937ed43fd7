package store

import "github.com/realdrift/realdrift/internal/inputfile"

// MaxStateFile is the size limit of one state file (a baseline, the ignore
// rules, a run record): far above any real one, far below what a wrong
// path (a device, a log) could feed a reader.
const MaxStateFile = 64 << 20

// The refusals of ReadStateFile, wrapped with the path: inputfile's.
var (
	// ErrNotRegular: the path is a directory, device, FIFO or socket.
	ErrNotRegular = inputfile.ErrNotRegular
	// ErrTooLarge: the file is larger than the limit.
	ErrTooLarge = inputfile.ErrTooLarge
)

// ReadStateFile reads the regular file at path (symbolic links followed)
// when it holds at most limit bytes, through inputfile.Read: anything else
// is refused before it is read (a FIFO never opened, a device such as
// /dev/zero never read). A missing file is an error wrapping
// fs.ErrNotExist.
func ReadStateFile(path string, limit int64) ([]byte, error) {
	return inputfile.Read(path, limit)
}
