// Package logs is the sandbox's CloudWatch Logs (JSON 1.1; SigV4 signing name logs).
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package logs
