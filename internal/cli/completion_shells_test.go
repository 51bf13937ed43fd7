package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/deadlinetest"
)

// shell returns the path of a shell the completion tests run, failing
// under CI=true when it is missing (scripts/test-deps.sh installs it).
func shell(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing (scripts/test-deps.sh installs it)", name)
		}
		t.Skipf("%s is not installed (scripts/test-deps.sh installs it)", name)
	}
	return p
}

// completeIn asks shell sh for the completions of line (the words typed,
// the last one being completed) with the script `realdrift completion sh`
// loaded; env is the shell's environment. bash and zsh run the completion
// function as their completion system would call it (zsh's compadd,
// _describe and _files print what they are given); fish answers with its
// own `complete -C`.
func completeIn(t *testing.T, sh string, env []string, words ...string) []string {
	t.Helper()
	script, errs, code := runPlain(t, "completion", sh)
	if code != ExitOK {
		t.Fatalf("completion %s: exit %d %s", sh, code, errs)
	}
	f := filepath.Join(t.TempDir(), "realdrift."+sh)
	if err := os.WriteFile(f, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = shellQuote(w)
	}
	var cmd *exec.Cmd
	switch sh {
	case "bash":
		cmd = exec.Command(shell(t, "bash"), "--norc", "--noprofile", "-c",
			"source "+shellQuote(f)+"\nCOMP_WORDS=("+strings.Join(quoted, " ")+")\nCOMP_CWORD="+itoa(len(words)-1)+"\n_realdrift\nprintf '%s\\n' \"${COMPREPLY[@]}\"")
	case "zsh":
		stubs := "compdef() { :; }\ncompadd() { while [[ $1 == -* && $1 != -- ]]; do shift; done; [[ $1 == -- ]] && shift; for w in \"$@\"; do [[ $w == ${PREFIX}* ]] && print -r -- \"$w\"; done; }\n" +
			"_describe() { local -a list; list=(\"${(@P)2}\"); for w in \"${list[@]}\"; do w=${w%%:*}; [[ $w == ${PREFIX}* ]] && print -r -- \"$w\"; done; }\n_files() { :; }\n"
		cmd = exec.Command(shell(t, "zsh"), "-f", "-c",
			stubs+"source "+shellQuote(f)+"\nwords=("+strings.Join(quoted, " ")+")\nCURRENT="+itoa(len(words))+"\nPREFIX="+quoted[len(quoted)-1]+"\n_realdrift")
	case "fish":
		cmd = exec.Command(shell(t, "fish"), "--no-config", "-c", "source "+shellQuote(f)+"; complete -C "+shellQuote(strings.Join(words, " ")))
	}
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s completing %q: %v\n%s", sh, words, err, out)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l, _, _ = strings.Cut(l, "\t"); l != "" { // fish: value<TAB>description
			got = append(got, l)
		}
	}
	slices.Sort(got)
	return slices.Compact(got)
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestCompletionValues: in bash, zsh and fish, check's --format completes
// to its formats, the sub-verbs of sandbox, schema and baseline complete,
// and stack names come from the account when credentials are present (the
// sandbox) and not at all, quickly, when they are not.
func TestCompletionValues(t *testing.T) {
	e := twoStackEnv(t)
	bin := t.TempDir()
	realdriftBinary(t, bin)
	path := bin + string(os.PathListSeparator) + os.Getenv("PATH")
	home := t.TempDir()
	bare := []string{"PATH=" + path, "HOME=" + home}
	creds := append(slices.Clone(bare), "AWS_ACCESS_KEY_ID="+e.key, "AWS_SECRET_ACCESS_KEY=sandbox-secret",
		"AWS_REGION="+e.region, "AWS_ENDPOINT_URL="+e.url, "AWS_CONFIG_FILE="+filepath.Join(home, "no-such-config"))
	for _, sh := range []string{"bash", "zsh", "fish"} {
		t.Run(sh, func(t *testing.T) {
			for _, tc := range []struct {
				env   []string
				words []string
				want  []string
			}{
				{bare, []string{"realdrift", "check", "--format", ""}, checkFormats()},
				{bare, []string{"realdrift", "check", "--format", "ma"}, []string{"markdown"}},
				{bare, []string{"realdrift", "sandbox", ""}, []string{"add", "calls", "change", "delete", "serve", "world"}},
				{bare, []string{"realdrift", "schema", "s"}, []string{"show", "stats"}},
				{bare, []string{"realdrift", "baseline", "p"}, []string{"pull", "push"}},
				{creds, []string{"realdrift", "check", "O"}, []string{"Other"}},
				{creds, []string{"realdrift", "record", "A"}, []string{"App"}},
				{bare, []string{"realdrift", "check", "O"}, nil},
			} {
				start := time.Now()
				got := completeIn(t, sh, tc.env, tc.words...)
				want := slices.Clone(tc.want)
				slices.Sort(want)
				if diff := cmp.Diff(got, want); diff != "" {
					t.Errorf("%s %q (-got +want):\n%s", sh, tc.words, diff)
				}
				if tc.want == nil && time.Since(start) > deadlinetest.Scale(t, 20*time.Second) {
					t.Errorf("%s %q without credentials took %s", sh, tc.words, time.Since(start))
				}
			}
		})
	}
}

// TestCompletionSubVerbs: every sub-verb completion offers is one its verb
// names in its help, and a sub-verb it does not know is an error, so the
// table cannot name a missing one.
func TestCompletionSubVerbs(t *testing.T) {
	for verb, subs := range subVerbs() {
		help, _, _ := runPlain(t, verb, "--help")
		for _, sub := range subs {
			if !regexp.MustCompile(`\b` + sub + `\b`).MatchString(help) {
				t.Errorf("%s --help does not name %s:\n%s", verb, sub, help)
			}
		}
		if _, _, code := runPlain(t, verb, "no-such-sub-verb"); code != ExitError {
			t.Errorf("%s no-such-sub-verb: exit %d, want %d", verb, code, ExitError)
		}
	}
	for verb, flags := range flagValues() {
		for flag := range flags {
			out, _, _ := runPlain(t, verb, "--help")
			if !strings.Contains(out, "  --"+flag+" ") {
				t.Errorf("%s has no --%s for its completion values", verb, flag)
			}
		}
	}
}
