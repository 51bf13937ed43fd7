// Package route53 is the sandbox's Route 53 (REST-XML): record sets and
// zones by name, and record changes, over the world's AWS::Route53 models
// (Service says how).
// The rules are internal/sandbox/doc.go's.
package route53
