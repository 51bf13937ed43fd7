// Package memorydb is the sandbox's MemoryDB (JSON 1.1; SigV4 signing name memorydb).
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package memorydb
