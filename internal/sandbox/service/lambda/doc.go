// Package lambda is the sandbox's Lambda (REST-JSON; SigV4 signing name lambda).
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package lambda
