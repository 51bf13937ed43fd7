// Package ses is the sandbox's Amazon SES v1 (query/XML; SigV4 signing name ses).
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package ses
