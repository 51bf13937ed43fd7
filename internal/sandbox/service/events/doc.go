// Package events is the sandbox's events service (SigV4 signing name events):
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package events
