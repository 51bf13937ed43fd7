package deadlinetest

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

// Env is the variable that stretches every deadline by its factor.
const Env = "REALDRIFT_TEST_TIMESCALE"

// Factor is the stretch REALDRIFT_TEST_TIMESCALE asks for: 1 when unset. A
// value that is not a number of at least 1 fails t.
func Factor(t testing.TB) float64 {
	t.Helper()
	f, err := parseFactor(os.Getenv(Env))
	if err != nil {
		t.Fatalf("%v", err)
	}
	return f
}

func parseFactor(v string) (float64, error) {
	if v == "" {
		return 1, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f >= 1 && f <= 1000) {
		return 0, fmt.Errorf("%s=%q: want a factor from 1 to 1000 that stretches test deadlines", Env, v)
	}
	return f, nil
}

// Scale is d stretched by Factor.
func Scale(t testing.TB, d time.Duration) time.Duration {
	t.Helper()
	return time.Duration(float64(d) * Factor(t))
}

// Context is t's context with a deadline Scale(t, d) from now, cancelled
// when the test ends.
func Context(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), Scale(t, d))
	t.Cleanup(cancel)
	return ctx
}

// After fires Scale(t, d) from now: the give-up branch of a select.
func After(t testing.TB, d time.Duration) <-chan time.Time {
	t.Helper()
	return time.After(Scale(t, d))
}

// Wait polls cond until it holds and fails t (naming what) when it still
// does not after Scale(t, d).
func Wait(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	if !Until(t, d, cond) {
		t.Fatalf("%s: not after %v", what, Scale(t, d))
	}
}

// Until polls cond until it holds (true) or Scale(t, d) has passed
// (false), for a caller that fails with its own message. It polls often at
// first, then every 50ms.
func Until(t testing.TB, d time.Duration, cond func() bool) bool {
	t.Helper()
	deadline := time.Now().Add(Scale(t, d))
	for pause := time.Millisecond; !cond(); pause = min(2*pause, 50*time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(pause)
	}
	return true
}
