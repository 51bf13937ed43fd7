package cli

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigPrecedence: each setting takes the flag, else its REALDRIFT_*
// variable, else .realdrift.yaml (the working directory's, the git root's,
// or --config), else the default; realdrift config says which; store and
// state-dir from different sources do not collide; an unknown key, a
// malformed file or a value the flag refuses is exit 2 naming the file.
func TestConfigPrecedence(t *testing.T) {
	repo := t.TempDir()
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(repo, "svc")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(path, body string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(repo, ".realdrift.yaml"), "region: eu-west-1\nconcurrency: 8\nformat: sarif\nstore: dynamodb://team-table\n")
	t.Chdir(sub)
	run := func(env map[string]string, args ...string) (string, string, int) {
		t.Helper()
		var out, errb strings.Builder
		code := runVerb(t, t.Context(), IO{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }}, args)
		return out.String(), errb.String(), code
	}
	line := func(out, key string) string {
		for _, l := range strings.Split(out, "\n") {
			if f := strings.Fields(l); len(f) > 0 && f[0] == key {
				return strings.Join(f[1:], " ")
			}
		}
		return ""
	}
	gitFile := "file " + filepath.Join(repo, ".realdrift.yaml")

	out, errs, code := run(map[string]string{"REALDRIFT_CONCURRENCY": "4", "REALDRIFT_STATE_DIR": "/tmp/x"}, "config", "--region", "us-west-2")
	if code != ExitOK {
		t.Fatalf("config: exit %d %s", code, errs)
	}
	for key, want := range map[string]string{
		"region":      "us-west-2 flag",
		"concurrency": "4 env REALDRIFT_CONCURRENCY",
		"format":      "sarif " + gitFile,
		"fail":        "false default",
		"state-dir":   "/tmp/x env REALDRIFT_STATE_DIR",
	} {
		if got := line(out, key); got != want {
			t.Errorf("config %s = %q, want %q\n%s", key, got, want, out)
		}
	}
	// The environment's state-dir comes before the file's store: the store
	// is not applied (no "both" error).
	if got := line(out, "store"); !strings.HasPrefix(got, `"" default`) {
		t.Errorf("store = %q, want the default (the environment's state-dir comes first)", got)
	}

	// The working directory's file comes before the git root's; --config
	// before both.
	write(filepath.Join(sub, ".realdrift.yaml"), "fail: true\n")
	out, _, _ = run(nil, "config")
	if got := line(out, "fail"); got != "true file "+filepath.Join(sub, ".realdrift.yaml") || line(out, "region") != `"" default` {
		t.Errorf("cwd file: fail %q region %q\n%s", line(out, "fail"), line(out, "region"), out)
	}
	named := filepath.Join(repo, "ci.yaml")
	write(named, "region: ap-south-1\n")
	if out, _, _ = run(nil, "config", "--config", named); line(out, "region") != "ap-south-1 file "+named {
		t.Errorf("--config: %s", out)
	}
	if out, _, _ = run(map[string]string{"REALDRIFT_CONFIG": named}, "config"); line(out, "region") != "ap-south-1 file "+named {
		t.Errorf("REALDRIFT_CONFIG: %s", out)
	}

	// The values reach the verbs: check takes REALDRIFT_FORMAT's bad
	// value through its own check of --format (exit 2 before any call).
	if _, errs, code := run(map[string]string{"REALDRIFT_FORMAT": "yaml"}, "check", "--all", "--region", "us-east-1"); code != ExitError || !strings.Contains(errs, "yaml") {
		t.Errorf("REALDRIFT_FORMAT=yaml: exit %d %q", code, errs)
	}

	for name, tc := range map[string]struct{ body, want string }{
		"unknown key":  {"regoin: eu-west-1\n", `unknown key "regoin"`},
		"malformed":    {"region: [eu\n", "ci.yaml"},
		"not a map":    {"- region\n", "want a mapping"},
		"list value":   {"region: [a, b]\n", "single value"},
		"bad value":    {"concurrency: many\n", "concurrency"},
		"bool refused": {"fail: maybe\n", "fail"},
	} {
		write(named, tc.body)
		if _, errs, code := run(nil, "check", "--all", "--config", named); code != ExitError || !strings.Contains(errs, tc.want) || !strings.Contains(errs, "ci.yaml") {
			t.Errorf("%s: exit %d %q, want 2 naming the file and %q", name, code, errs, tc.want)
		}
	}
	if _, errs, code := run(nil, "config", "--config", filepath.Join(repo, "none.yaml")); code != ExitError || !strings.Contains(errs, "none.yaml") {
		t.Errorf("missing --config: exit %d %q", code, errs)
	}
	// diff's --fail means something else: REALDRIFT_FAIL leaves it alone.
	fs := flag.NewFlagSet("realdrift diff", flag.ContinueOnError)
	fs.Bool("fail", false, "")
	fs.String("config", "", "")
	if srcs, err := resolveSettings(IO{Getenv: func(k string) string { return map[string]string{"REALDRIFT_FAIL": "true"}[k] }}, fs); err != nil || fs.Lookup("fail").Value.String() != "false" || len(srcs) != 0 {
		t.Errorf("diff --fail took REALDRIFT_FAIL: %v %v", srcs, err)
	}
}

// TestSettingsMatchFlags: the defaults config prints are the checking
// verbs' flag defaults.
func TestSettingsMatchFlags(t *testing.T) {
	out, _, _ := runArgs(t, "check", "--help")
	for _, st := range settings() {
		if !strings.Contains(out, "  --"+st.key) {
			t.Errorf("check has no --%s", st.key)
		}
		if st.def != "" && st.def != "false" && !strings.Contains(out, "--"+st.key) {
			t.Errorf("--%s", st.key)
		}
	}
	var f checkFlags
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	f.register(fs)
	if got := fs.Lookup("concurrency").DefValue; got != "32" {
		t.Errorf("--concurrency default %s, the settings table says 32", got)
	}
}
