package cli

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/deadlinetest"
)

// after returns what the terminal showed after the last marker ("" when
// it has not shown it).
func (p *pty) after(marker string) (string, bool) {
	out := p.output()
	i := strings.LastIndex(out, marker)
	if i < 0 {
		return "", false
	}
	return out[i+len(marker):], true
}

// waitAfter waits until the terminal shows want after marker.
func (p *pty) waitAfter(t *testing.T, marker, want string) string {
	t.Helper()
	var s string
	if !deadlinetest.Until(t, 20*time.Second, func() bool {
		var ok bool
		s, ok = p.after(marker)
		return ok && strings.Contains(s, want)
	}) {
		t.Fatalf("the terminal never showed %q after %q:\n%q", want, marker, p.output())
	}
	return s
}

// TestPTYCheckDecidePerFinding: check run in a real pseudo-terminal (stdin
// and stdout terminals, no --json) offers the inline prompt, Nothing first;
// deciding per finding, the first revertable finding answered v and the
// rest left (Enter), then confirmed, reverts exactly that one.
func TestPTYCheckDecidePerFinding(t *testing.T) {
	env := demoEnv(t)
	p := openPTY(t)
	codes := make(chan int, 1)
	go func() { codes <- env.runStd(context.Background(), p.slave, p.slave, p.slave, "check", "--all") }()
	menu := p.waitAfter(t, "Resolve now? ", "d decide per finding: ")
	if !strings.HasPrefix(menu, "[Enter] nothing · r record") || !strings.Contains(menu, "· v revert drift") || !strings.Contains(menu, "· i ignore findings") {
		t.Fatalf("menu: %q", menu)
	}
	if _, err := p.master.Write([]byte("d\n")); err != nil {
		t.Fatal(err)
	}
	head := p.waitAfter(t, "Decide per finding (", ";")
	n, err := strconv.Atoi(regexp.MustCompile(`^\d+`).FindString(head))
	if err != nil || n < 2 {
		t.Fatalf("per-finding header %q", head)
	}
	chose := false
	for i := 1; i <= n; i++ {
		opts := p.waitAfter(t, fmt.Sprintf("[%d/%d]", i, n), "ignore: ")
		answer := "\n"
		if !chose && strings.Contains(opts, "v revert") {
			answer, chose = "v\n", true
		}
		if _, err := p.master.Write([]byte(answer)); err != nil {
			t.Fatal(err)
		}
	}
	if !chose {
		t.Fatal("no finding offered revert")
	}
	p.waitFor(t, "Write 1 revert item(s) to AWS? [y/N]: ")
	if _, err := p.master.Write([]byte("y\n")); err != nil {
		t.Fatal(err)
	}
	if code := <-codes; code != ExitOK {
		t.Fatalf("exit %d\n%s", code, p.output())
	}
	p.waitFor(t, "  reverted: ")
	if out := p.output(); strings.Count(out, "  reverted: ") != 1 || strings.Contains(out, "FAILED") {
		t.Errorf("terminal:\n%s", out)
	}
}
