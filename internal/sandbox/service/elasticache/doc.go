// Package elasticache is the sandbox's ElastiCache (query/XML; SigV4 signing name elasticache).
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package elasticache
