// Package sagemaker is the sandbox's sagemaker service (SigV4 signing name sagemaker):
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package sagemaker
