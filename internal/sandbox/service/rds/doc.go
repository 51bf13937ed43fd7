// Package rds is the sandbox's DocumentDB (the RDS API) (query/XML; SigV4 signing name rds).
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package rds
