// Package config is the sandbox's AWS Config (JSON 1.1; SigV4 signing name config).
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package config
