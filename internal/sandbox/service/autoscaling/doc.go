// Package autoscaling is the sandbox's autoscaling service (SigV4 signing name autoscaling):
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package autoscaling
