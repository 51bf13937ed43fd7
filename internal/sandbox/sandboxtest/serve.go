package sandboxtest

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// LoadWorld reads the world file at path (sandbox.LoadWorld) for a test
// to change or serve; it fails the test when the file does not load.
func LoadWorld(t testing.TB, path string) *sandbox.World {
	t.Helper()
	w, err := sandbox.LoadWorld(path)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// ServeFile is Serve for the world file at path.
func ServeFile(t testing.TB, path string, opts sandbox.Options) (*sandbox.Server, string) {
	t.Helper()
	return Serve(t, LoadWorld(t, path), opts)
}

// Serve starts a sandbox answering for w over loopback HTTP and returns it
// with its base URL. The HTTP server and the sandbox close when the test
// ends.
func Serve(t testing.TB, w *sandbox.World, opts sandbox.Options) (*sandbox.Server, string) {
	t.Helper()
	srv, err := sandbox.New(w, opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { hs.Close(); srv.Close() })
	return srv, hs.URL
}

// Context is a context cancelled after timeout (stretched by
// REALDRIFT_TEST_TIMESCALE, internal/deadlinetest) or when the test ends,
// whichever comes first.
func Context(t testing.TB, timeout time.Duration) context.Context {
	t.Helper()
	c, cancel := context.WithTimeout(context.Background(), deadlinetest.Scale(t, timeout))
	t.Cleanup(cancel)
	return c
}
