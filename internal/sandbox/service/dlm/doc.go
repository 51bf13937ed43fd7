// Package dlm is the sandbox's dlm service (SigV4 signing name dlm):
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package dlm
