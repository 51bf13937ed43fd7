// Package ecs is the sandbox's ECS (JSON 1.1; SigV4 signing name ecs).
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package ecs
