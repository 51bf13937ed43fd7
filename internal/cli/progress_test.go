package cli

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/scan"
)

// TestProgressLine: the line shows stacks done of total, calls, throttles
// and elapsed time from the clock it is given, is cleared before a report
// is printed and when it ends.
func TestProgressLine(t *testing.T) {
	var w lockedBuffer
	clock := time.Unix(1000, 0)
	var mu sync.Mutex
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(500 * time.Millisecond)
		return clock
	}
	stats := func() scan.Stats { return scan.Stats{Calls: 42, Throttled: 3} }
	p := startProgress(&w, 2, stats, now, time.Millisecond)
	if !deadlinetest.Until(t, 5*time.Second, func() bool { return strings.Contains(w.String(), "checking: 0/2 stacks · 42 calls · 3 throttled") }) {
		t.Fatalf("no progress line: %q", w.String())
	}
	var printed string
	p.emitted(func() { printed = w.String() })
	if !strings.HasSuffix(printed, "\r\x1b[K") {
		t.Errorf("the line is not cleared before a report: %q", printed)
	}
	p.end()
	out := w.String()
	if !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("the line is not cleared at the end: %q", out)
	}
	if !strings.Contains(out, "1/2 stacks") && !strings.Contains(printed, "0/2") {
		t.Errorf("count: %q", out)
	}
	var nilProgress *progress
	ran := false
	nilProgress.emitted(func() { ran = true })
	nilProgress.end()
	if !ran {
		t.Error("a nil progress does not print")
	}
}
