// Package acm is the sandbox's acm service (SigV4 signing name acm):
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package acm
