// Package sandboxtest holds the test helpers every package that tests
// against the sandbox shares: reading a world file (LoadWorld), starting
// a sandbox over loopback HTTP (Serve, ServeFile), a bounded
// test context, and the SDK configuration a client signs with (Config)
// with a key of the world (Key).
//
// Rules: helpers take a testing.TB, fail the test (never panic) on bad
// input, and release what they start through its Cleanup, so a caller
// never closes anything itself. Only _test.go files import this package.
// A client of the sandbox signs with a key its world maps: the sandbox
// refuses any other as AWS refuses a key it does not know, so the only
// other keys in tests are those of tests that assert that refusal.
package sandboxtest
