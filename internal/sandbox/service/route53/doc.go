// Package route53 is the sandbox's Route 53 (REST-XML): record sets and
// zones by name, and record changes, over the world's AWS::Route53 models
// (Service says how).
//
// It follows the rules of internal/sandbox/doc.go ("How to add a
// service"): its state is the world's live models (package world), its
// wire facts and operations are the Service it registers (package wire).
package route53
