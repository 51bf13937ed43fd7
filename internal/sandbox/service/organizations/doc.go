// Package organizations is the sandbox's organizations service (SigV4 signing name organizations):
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package organizations
