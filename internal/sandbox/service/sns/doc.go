// Package sns is the sandbox's SNS (query/XML): topic attributes and
// subscriptions over the world's AWS::SNS models.
//
// It follows the rules of internal/sandbox/doc.go ("How to add a
// service"): its state is the world's live models (package world), its
// wire facts and operations are the Service it registers (package wire).
package sns
