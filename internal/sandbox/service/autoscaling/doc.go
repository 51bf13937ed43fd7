// Package autoscaling is the sandbox's autoscaling service (SigV4 signing name autoscaling):
// Service lists its operations and says which world models they read.
// It follows internal/sandbox/doc.go ("How to add a service"): state in
// package world, wire facts and operations in the Service it registers.
package autoscaling
