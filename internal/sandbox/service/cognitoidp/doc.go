// Package cognitoidp is the sandbox's cognito-idp service (SigV4 signing name cognito-idp):
// Service lists its operations and says which world models they read.
// It follows internal/sandbox/doc.go ("How to add a service"): state in
// package world, wire facts and operations in the Service it registers.
package cognitoidp
