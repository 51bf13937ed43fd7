package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/realdrift/realdrift/internal/corpus/corpustest"
	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/sandbox"
)

func TestSandboxVerbErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no subcommand", []string{"sandbox"}, ""},
		{"unknown subcommand", []string{"sandbox", "bogus"}, "unknown subcommand"},
		{"world without source", []string{"sandbox", "world", "-o", filepath.Join(dir, "w.json")}, "exactly one"},
		{"world with two sources", []string{"sandbox", "world", "--demo", "--from-corpus", "x", "-o", "-"}, "exactly one"},
		{"world without output", []string{"sandbox", "world", "--demo"}, "-o FILE"},
		{"drift without demo", []string{"sandbox", "world", "--from-corpus", "x", "--drift", "-o", "-"}, "go with --demo"},
		{"missing corpus", []string{"sandbox", "world", "--from-corpus", filepath.Join(dir, "nope"), "-o", "-"}, "no such file"},
		{"serve missing world", []string{"sandbox", "serve", "--world", filepath.Join(dir, "nope.json")}, "no such file"},
		{"serve non-loopback", []string{"sandbox", "serve", "--world", "x.json", "--addr", "0.0.0.0:0"}, "not a loopback"},
		{"serve zero operation delay", []string{"sandbox", "serve", "--world", "x.json", "--operation-delay", "0s"}, "--operation-delay must be positive"},
		{"serve bad operation delay", []string{"sandbox", "serve", "--world", "x.json", "--operation-delay", "soon"}, "operation-delay"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs, code := runArgs(t, tt.args...)
			if code != ExitError || !strings.Contains(errs, tt.want) {
				t.Errorf("code %d stderr %q, want exit 2 and %q", code, errs, tt.want)
			}
		})
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"accounts":[{"id":"12","regions":[]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runArgs(t, "sandbox", "serve", "--world", bad); code != ExitError || !strings.Contains(errs, "accounts[0]") {
		t.Errorf("invalid world: code %d stderr %q", code, errs)
	}
}

func TestSandboxWorldAndServe(t *testing.T) {
	recordings := corpustest.Subset(t)
	out := filepath.Join(t.TempDir(), "world.json")
	if stdout, errs, code := runArgs(t, "sandbox", "world", "--from-corpus", recordings, "-o", out); code != ExitOK {
		t.Fatalf("world: %d %s", code, errs)
	} else if !strings.Contains(stdout, "111111111111 (corpus): AKIACORPUS111111111111 (user corpus)") {
		t.Errorf("sandbox world --from-corpus does not print the corpus world's keys:\n%s", stdout)
	}
	if _, err := sandbox.LoadWorld(out); err != nil {
		t.Fatal(err)
	}
	demo := filepath.Join(t.TempDir(), "demo.json")
	if _, errs, code := runArgs(t, "sandbox", "world", "--demo", "--drift", "--corpus", recordings, "-o", demo); code != ExitOK {
		t.Fatalf("demo world: %d %s", code, errs)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- runVerb(t, ctx, IO{Stdout: pw, Stderr: io.Discard}, []string{"sandbox", "serve", "--world", demo, "--addr", "127.0.0.1:0"})
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "sandbox listening on ")
	if !ok {
		t.Fatalf("first line %q", line)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	cl := sts.New(sts.Options{Region: "us-east-1", BaseEndpoint: aws.String(url), Credentials: credentials.NewStaticCredentialsProvider("AKIADEMO300000000003", "s", "")})
	id, err := cl.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil || aws.ToString(id.Account) != "300000000003" {
		t.Errorf("identity %v %v", id, err)
	}
	cancel()
	select {
	case code := <-done:
		if code != ExitOK {
			t.Errorf("serve exited %d after cancel", code)
		}
	case <-deadlinetest.After(t, 10*time.Second):
		t.Fatal("serve did not stop after cancel")
	}
}

// TestSandboxOutsideCheckout: in a directory that is no checkout,
// sandbox world --demo builds the demo world and sandbox serve without
// --world serves it (both from the recordings built in), printing the
// access keys each account answers to and the admin routes, which
// GET /_sandbox/ lists too.
func TestSandboxOutsideCheckout(t *testing.T) {
	t.Chdir(t.TempDir())
	if _, errs, code := runArgs(t, "sandbox", "world", "--demo", "-o", "demo.json"); code != ExitOK {
		t.Fatalf("sandbox world --demo outside the checkout: exit %d\n%s", code, errs)
	}
	if _, err := sandbox.LoadWorld("demo.json"); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	var errb strings.Builder
	go func() {
		done <- runVerb(t, ctx, IO{Stdout: pw, Stderr: &errb}, []string{"sandbox", "serve", "--addr", "127.0.0.1:0"})
		pw.Close()
	}()
	rd := bufio.NewReader(pr)
	var lines []string
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatalf("serve output ended (%v) after %q; stderr %s", err, lines, errb.String())
		}
		lines = append(lines, strings.TrimRight(line, "\n"))
		if strings.Contains(line, "truststore-bundle") {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	url, ok := strings.CutPrefix(lines[0], "sandbox listening on ")
	if !ok {
		t.Fatalf("first line %q", lines[0])
	}
	out := strings.Join(lines, "\n")
	for _, want := range []string{
		"world: the demo organisation",
		"200000000002 (acme-dev): AKIADEMO200000000002 (user demo)",
		"300000000003 (acme-prod): AKIADEMO300000000003 (user demo)",
		"POST   " + url + "/_sandbox/change",
		"GET    " + url + "/_sandbox/calls",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("serve output lacks %q:\n%s", want, out)
		}
	}
	cl := sts.New(sts.Options{Region: "us-east-1", BaseEndpoint: aws.String(url), Credentials: credentials.NewStaticCredentialsProvider("AKIADEMO200000000002", "s", "")})
	if id, err := cl.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{}); err != nil || aws.ToString(id.Account) != "200000000002" {
		t.Errorf("identity %v %v", id, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/_sandbox/", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var routes []sandbox.AdminRoute
	err = json.NewDecoder(resp.Body).Decode(&routes)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || len(routes) != len(sandbox.AdminRoutes()) || routes[1].Path != "/_sandbox/change" {
		t.Errorf("GET /_sandbox/: %d %v %+v", resp.StatusCode, err, routes)
	}
	cancel()
	select {
	case code := <-done:
		if code != ExitOK {
			t.Errorf("serve exited %d after cancel", code)
		}
	case <-deadlinetest.After(t, 10*time.Second):
		t.Fatal("serve did not stop after cancel")
	}
}
