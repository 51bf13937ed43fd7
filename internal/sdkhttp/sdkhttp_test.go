package sdkhttp_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/realdrift/realdrift/internal/sdkhttp"
)

// closingBody is a request body as smithy-go hands it to net/http: not
// known to be in memory, closed by the SDK once the response headers are
// in, after which WriteTo answers io.EOF. Its WriteTo — net/http's check
// that nothing follows the Content-Length bytes — waits for that close,
// as a writer goroutine preempted between the two does.
type closingBody struct {
	mu     sync.Mutex
	r      io.Reader
	closed bool
	done   chan struct{}
}

func newClosingBody(s string) *closingBody {
	return &closingBody{r: strings.NewReader(s), done: make(chan struct{})}
}

func (b *closingBody) WriteTo(w io.Writer) (int64, error) {
	<-b.done
	return 0, io.EOF
}

func (b *closingBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, io.EOF
	}
	return b.r.Read(p)
}

func (b *closingBody) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		b.closed = true
		close(b.done)
	}
	return nil
}

// TestBodyReadBeforeSending (fails on its first call with the SDK's own
// awshttp.NewBuildableClient): the server gets the whole body, the
// response is read to its end, and the caller closing its body once Do
// returns (as smithy-go does) cannot reach the connection: the request
// went out from memory.
func TestBodyReadBeforeSending(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		_, _ = w.Write(bytes.Repeat(b, 1<<20))
	}))
	defer srv.Close()
	c := sdkhttp.New()
	for i := range 20 {
		body := newClosingBody("{}")
		req, err := http.NewRequest("POST", srv.URL, body)
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = 2
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		_ = body.Close()
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || len(got) != 2<<20 {
			t.Fatalf("call %d: read %d bytes, %v; want %d", i, len(got), err, 2<<20)
		}
	}
}

// TestBodyLengthMismatchStillRefused: a body longer than its
// Content-Length is refused by net/http as before.
func TestBodyLengthMismatchStillRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	req, err := http.NewRequest("POST", srv.URL, io.NopCloser(strings.NewReader("{}x")))
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = 2
	if _, err := sdkhttp.New().Do(req); err == nil || !strings.Contains(err.Error(), "ContentLength") {
		t.Errorf("body of 3 bytes sent as 2: %v, want net/http's ContentLength error", err)
	}
}
