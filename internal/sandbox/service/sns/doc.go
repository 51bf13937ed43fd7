// Package sns is the sandbox's SNS (query/XML): topic attributes and
// subscriptions over the world's AWS::SNS models.
// The rules are internal/sandbox/doc.go's.
package sns
