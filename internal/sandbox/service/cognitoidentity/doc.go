// Package cognitoidentity is the sandbox's cognito-identity service (SigV4 signing name cognito-identity):
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package cognitoidentity
