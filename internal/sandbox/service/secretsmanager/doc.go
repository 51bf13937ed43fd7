// Package secretsmanager is the sandbox's secretsmanager service (SigV4 signing name secretsmanager):
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package secretsmanager
