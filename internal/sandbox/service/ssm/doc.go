// Package ssm is the sandbox's Systems Manager (JSON 1.1; SigV4 signing name ssm).
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package ssm
