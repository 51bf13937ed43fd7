// Package deadlinetest gives tests their deadlines, stretched on a slow
// machine: every timeout a test waits under, and every wait for something
// to happen, comes from here, so one setting moves them all.
//
// The stretch is REALDRIFT_TEST_TIMESCALE, a factor of at least 1 (default 1;
// .ci/run sets it, since CI shares a busy machine). A value that is not a
// number of at least 1 fails the test that asks, naming the variable.
//
// Rules:
//   - A test never sleeps waiting for something to happen: it polls the
//     condition with Wait (or Until, to fail with its own message), which
//     gives up at the scaled deadline.
//   - A test's context for a whole run (a command, a server's life) is
//     Context; a select that gives up waiting uses After.
//   - A deadline only ever fails a test that is stuck: it is generous, and
//     stretching it never makes a passing test fail. What a test asserts is
//     the outcome (findings, pages, bytes, states reached), never how long
//     it took; a lower bound that a limit guarantees (a rate, an injected
//     latency) is an outcome and is not scaled.
package deadlinetest
