// Package dax is the sandbox's dax service (SigV4 signing name dax):
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package dax
