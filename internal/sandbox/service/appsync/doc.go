// Package appsync is the sandbox's appsync service (SigV4 signing name appsync):
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package appsync
