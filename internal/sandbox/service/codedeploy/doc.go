// Package codedeploy is the sandbox's codedeploy service (SigV4 signing name codedeploy):
// Service lists its operations and says which world models they read.
// It follows internal/sandbox/doc.go ("How to add a service"): state in
// package world, wire facts and operations in the Service it registers.
package codedeploy
