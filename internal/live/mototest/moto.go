// Package mototest finds or starts moto (python3 -m moto.server), a second,
// independent AWS emulator, for tests that check the readers' wire formats
// against something other than realdrift's own sandbox.
//
// Endpoint returns EndpointEnv when set (.ci/run may start one moto for the
// whole run); else the first call starts a moto server on a free loopback
// port, and Stop (from TestMain) kills exactly that process by its PID. In
// CI (CI=true) a moto that cannot be started fails the test; elsewhere the
// test is skipped, saying so loudly ("SKIPPING ...").
package mototest

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"
)

// EndpointEnv names a running moto server's endpoint.
const EndpointEnv = "REALDRIFT_MOTO_ENDPOINT"

// Moto is moto as found or started by one test binary. The zero value is
// ready to use.
type Moto struct {
	once     sync.Once
	endpoint string
	err      error
	proc     *os.Process
	exited   chan error
}

// Endpoint returns the endpoint of a moto server (see the package doc).
func (m *Moto) Endpoint(t testing.TB, what string) string {
	t.Helper()
	if ep := os.Getenv(EndpointEnv); ep != "" {
		return ep
	}
	m.once.Do(m.start)
	if m.err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s: %s is not set and moto could not be started: %v", what, EndpointEnv, m.err)
		}
		t.Skipf("SKIPPING %s: %s unset and moto could not be started: %v", what, EndpointEnv, m.err)
	}
	return m.endpoint
}

// Stop kills the moto server Endpoint started, if any, by its PID.
func (m *Moto) Stop() {
	if m.proc != nil {
		_ = m.proc.Kill()
		<-m.exited
		m.proc = nil
	}
}

func (m *Moto) start() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		m.err = err
		return
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	cmd := exec.Command("python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", port)
	if err := cmd.Start(); err != nil {
		m.err = fmt.Errorf("start moto: %w", err)
		return
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	endpoint := "http://127.0.0.1:" + port
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			m.err = fmt.Errorf("moto exited before it was ready: %v", err)
			return
		default:
		}
		if resp, err := client.Get(endpoint + "/moto-api/"); err == nil {
			resp.Body.Close()
			m.endpoint, m.proc, m.exited = endpoint, cmd.Process, exited
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	<-exited
	m.err = fmt.Errorf("moto did not answer on %s within 30s", endpoint)
}
