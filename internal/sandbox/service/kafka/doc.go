// Package kafka is the sandbox's kafka service (SigV4 signing name kafka):
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package kafka
