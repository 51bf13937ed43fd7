// Package sqs is the sandbox's SQS (JSON 1.0, and the query protocol it
// replaced): queue attributes over the world's AWS::SQS::Queue and
// QueuePolicy models.
// The rules are internal/sandbox/doc.go's.
package sqs
