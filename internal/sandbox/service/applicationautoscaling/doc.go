// Package applicationautoscaling is the sandbox's application-autoscaling service (SigV4 signing name application-autoscaling):
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package applicationautoscaling
