// Package cognitoidentity is the sandbox's cognito-identity service (SigV4 signing name cognito-identity):
// Service lists its operations and says which world models they read.
// It follows internal/sandbox/doc.go ("How to add a service"): state in
// package world, wire facts and operations in the Service it registers.
package cognitoidentity
