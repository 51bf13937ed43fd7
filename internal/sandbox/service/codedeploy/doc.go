// Package codedeploy is the sandbox's codedeploy service (SigV4 signing name codedeploy):
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package codedeploy
