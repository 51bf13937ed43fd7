// Package ec2 is the sandbox's EC2 (EC2 query; SigV4 signing name ec2).
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package ec2
