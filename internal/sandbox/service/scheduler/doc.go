// Package scheduler is the sandbox's scheduler service (SigV4 signing name scheduler):
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package scheduler
