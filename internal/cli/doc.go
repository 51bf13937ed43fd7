// Package cli is the realdrift command line: one file per verb, each parsing
// its flags and wiring the internal packages together. cmd/realdrift/main.go
// only calls Run and exits with its status.
//
// Rules:
//   - Exit codes: 0 clean or report-only, 1 drift under --fail (or coverage
//     gaps under --strict), 2 any error (bad flags, bad input, failed I/O),
//     130 interrupted.
//   - Unknown flags and a value flag missing its value exit 2 with a message;
//     they never become positional arguments.
//   - Every verb answers --help / -h with its usage and exits 0.
//   - Errors are printed once, to stderr, as "realdrift <verb>: <message>".
//     No panics or stack traces reach the user.
package cli
