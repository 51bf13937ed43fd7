package cli

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/schema"
)

// sandboxEnv is an in-process sandbox and the environment verbs use to
// reach it: static keys of one world account, its region, a state dir.
type sandboxEnv struct {
	t        *testing.T
	srv      *sandbox.Server
	url      string
	key      string
	region   string
	stateDir string
	// stdin is what the next run reads; tty makes it a terminal, and
	// stdoutTTY stdout.
	stdin     string
	tty       bool
	stdoutTTY bool
	ci        bool
}

// startSandbox serves w in-process for the test.
func startSandbox(t *testing.T, w *sandbox.World, key, region string) *sandboxEnv {
	t.Helper()
	return startSandboxWith(t, w, key, region, sandbox.Options{})
}

// startSandboxWith serves w in-process with opts (the schema facts added).
func startSandboxWith(t *testing.T, w *sandbox.World, key, region string, opts sandbox.Options) *sandboxEnv {
	t.Helper()
	if snap, err := schema.Embedded(); err == nil {
		opts.Facts = snap.Lookup
	}
	srv, err := sandbox.New(w, opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { hs.Close(); srv.Close() })
	return &sandboxEnv{t: t, srv: srv, url: hs.URL, key: key, region: region, stateDir: t.TempDir()}
}

func (e *sandboxEnv) getenv(k string) string {
	switch k {
	case "AWS_ACCESS_KEY_ID":
		return e.key
	case "AWS_SECRET_ACCESS_KEY":
		return "sandbox-secret"
	case "AWS_REGION":
		return e.region
	case "AWS_CONFIG_FILE":
		return filepath.Join(e.stateDir, "no-such-aws-config")
	case "NO_COLOR":
		return "1"
	case "CI":
		if e.ci {
			return "true"
		}
	}
	return ""
}

// run runs a verb against the sandbox with the env's endpoint and state
// directory; extra args follow the verb.
func (e *sandboxEnv) run(verb string, args ...string) (stdout, stderr string, code int) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadlinetest.Scale(e.t, 120*time.Second))
	defer cancel()
	return e.runCtx(ctx, verb, args...)
}

func (e *sandboxEnv) runCtx(ctx context.Context, verb string, args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	full := append([]string{verb, "--endpoint-url", e.url, "--state-dir", e.stateDir}, args...)
	code = runVerb(e.t, ctx, IO{Stdin: strings.NewReader(e.stdin), Stdout: &out, Stderr: &errb, Getenv: e.getenv, StdinTTY: e.tty, IsTTY: e.stdoutTTY}, full)
	return out.String(), errb.String(), code
}

// change applies an out-of-band change in the env's default region.
func (e *sandboxEnv) change(ch sandbox.Change) {
	e.t.Helper()
	if ch.Region == "" {
		ch.Region = e.region
	}
	if err := e.srv.Apply(ch); err != nil {
		e.t.Fatal(err)
	}
}

// writeState writes a file under the state directory.
func (e *sandboxEnv) writeState(rel, content string) string {
	e.t.Helper()
	p := filepath.Join(e.stateDir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return p
}
