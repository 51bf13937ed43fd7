// Package sandboxtest holds the test helpers every package that tests
// against the sandbox shares: starting one over loopback HTTP and a
// bounded test context.
//
// Rules: helpers take a testing.TB, fail the test (never panic) on bad
// input, and release what they start through its Cleanup, so a caller
// never closes anything itself. Only _test.go files import this package.
package sandboxtest
