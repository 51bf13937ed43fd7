package deadlinetest

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestParseFactor(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want float64
		bad  bool
	}{
		{in: "", want: 1},
		{in: "1", want: 1},
		{in: "2.5", want: 2.5},
		{in: "0.5", bad: true},
		{in: "0", bad: true},
		{in: "-3", bad: true},
		{in: "fast", bad: true},
		{in: "NaN", bad: true},
		{in: "1e9", bad: true},
	} {
		got, err := parseFactor(tt.in)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("parseFactor(%q) = %v, %v; want %v, bad %v", tt.in, got, err, tt.want, tt.bad)
		}
		if err != nil && !strings.Contains(err.Error(), Env) {
			t.Errorf("parseFactor(%q): %v does not name %s", tt.in, err, Env)
		}
	}
}

func TestScale(t *testing.T) {
	t.Setenv(Env, "3")
	if got := Scale(t, 2*time.Second); got != 6*time.Second {
		t.Errorf("Scale(2s) at 3 = %v, want 6s", got)
	}
	dl, ok := Context(t, time.Minute).Deadline()
	if left := time.Until(dl); !ok || left < 2*time.Minute || left > 3*time.Minute {
		t.Errorf("Context(1m) at 3: deadline in %v, want about 3m", left)
	}
}

// fatal records a Fatalf and ends the goroutine as testing.T does.
type fatal struct {
	testing.TB
	msg atomic.Value
}

func (f *fatal) Fatalf(format string, args ...any) {
	f.msg.Store(fmt.Sprintf(format, args...))
	runtime.Goexit()
}

func (f *fatal) Helper() {}

// run calls Wait as another test would and returns its failure, if any.
func run(t *testing.T, d time.Duration, cond func() bool) string {
	f := &fatal{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Wait(f, d, "the thing", cond)
	}()
	<-done
	s, _ := f.msg.Load().(string)
	return s
}

func TestWait(t *testing.T) {
	t.Setenv(Env, "") // the deadlines below are the unstretched ones
	var n atomic.Int32
	if msg := run(t, time.Minute, func() bool { return n.Add(1) >= 5 }); msg != "" {
		t.Errorf("a condition that comes true: %s", msg)
	}
	if n.Load() != 5 {
		t.Errorf("polled %d times, want until the condition held (5)", n.Load())
	}
	if msg := run(t, 20*time.Millisecond, func() bool { return false }); !strings.Contains(msg, "the thing: not after 20ms") {
		t.Errorf("a condition that never holds: %q, want it named with the deadline", msg)
	}
	t.Setenv(Env, "x")
	if msg := run(t, time.Second, func() bool { return true }); !strings.Contains(msg, Env) {
		t.Errorf("a bad %s: %q, want it named", Env, msg)
	}
}
