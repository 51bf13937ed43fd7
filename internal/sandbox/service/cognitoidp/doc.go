// Package cognitoidp is the sandbox's cognito-idp service (SigV4 signing name cognito-idp):
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package cognitoidp
