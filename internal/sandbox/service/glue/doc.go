// Package glue is the sandbox's Glue (JSON 1.1; SigV4 signing name glue).
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package glue
