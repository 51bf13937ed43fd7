package storetest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// EndpointEnv names DynamoDB Local's endpoint: `scripts/dynamodb-local.sh
// start` prints it and .ci/run exports it.
const EndpointEnv = "REALDRIFT_DYNAMODB_ENDPOINT"

// DynamoLocal is DynamoDB Local as found or started by one test binary.
// The zero value is ready to use; a test binary keeps one and calls Stop
// from TestMain after m.Run, so an instance it started does not outlive it.
type DynamoLocal struct {
	once     sync.Once
	endpoint string
	err      error
	// stop is set when this binary started the emulator.
	stop func()
}

// Endpoint returns DynamoDB Local's endpoint: EndpointEnv when set, else an
// instance this binary starts through scripts/dynamodb-local.sh on a free
// port. In CI (CI=true) the variable is required, so a missing emulator
// fails the test; elsewhere a start failure skips it, saying so loudly
// ("SKIPPING <what>").
func (l *DynamoLocal) Endpoint(t testing.TB, what string) string {
	t.Helper()
	if ep := os.Getenv(EndpointEnv); ep != "" {
		return ep
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not set and CI=true: start DynamoDB Local with scripts/dynamodb-local.sh start", EndpointEnv)
	}
	l.once.Do(l.start)
	if l.err != nil {
		t.Skipf("SKIPPING %s: %s unset and DynamoDB Local could not be started: %v", what, EndpointEnv, l.err)
	}
	return l.endpoint
}

// Stop stops the instance Endpoint started, if any.
func (l *DynamoLocal) Stop() {
	if l.stop != nil {
		l.stop()
	}
}

func (l *DynamoLocal) start() {
	script, err := findScript("scripts/dynamodb-local.sh")
	if err != nil {
		l.err = err
		return
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		l.err = err
		return
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	env := append(os.Environ(), "REALDRIFT_DYNAMODB_PORT="+port)
	cmd := exec.Command(script, "start")
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		l.err = fmt.Errorf("%s start: %w\n%s", script, err, stderr.String())
		return
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "export "+EndpointEnv+"="); ok {
			l.endpoint = v
		}
	}
	if l.endpoint == "" {
		l.err = fmt.Errorf("%s start printed no endpoint: %q", script, out)
		return
	}
	l.stop = func() {
		stop := exec.Command(script, "stop")
		stop.Env = env
		_ = stop.Run()
	}
}

// findScript returns rel under the module root: the nearest directory
// above the working directory (a test's package directory) with a go.mod.
func findScript(rel string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, rel), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory: cannot find " + rel)
		}
		dir = parent
	}
}
