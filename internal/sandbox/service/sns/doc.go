// Package sns is the sandbox's SNS (query/XML): topic attributes and
// subscriptions over the world's AWS::SNS models, and Publish to a topic
// (recorded in an Outbox, decided with the topic's access policy and, for
// an encrypted topic, its KMS key's policy: wire.IAM.Policy and Asks).
// The rules are internal/sandbox/doc.go's.
package sns
