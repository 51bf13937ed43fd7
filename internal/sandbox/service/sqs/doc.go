// Package sqs is the sandbox's SQS (JSON 1.0, and the query protocol it
// replaced): queue attributes over the world's AWS::SQS::Queue and
// QueuePolicy models.
//
// It follows the rules of internal/sandbox/doc.go ("How to add a
// service"): its state is the world's live models (package world), its
// wire facts and operations are the Service it registers (package wire).
package sqs
