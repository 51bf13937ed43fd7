// Package kms is the sandbox's KMS (JSON 1.1): ListAliases over the region's
// kmsAliases map and the AWS::KMS::Alias models.
//
// It follows the rules of internal/sandbox/doc.go ("How to add a
// service"): its state is the world's live models (package world), its
// wire facts and operations are the Service it registers (package wire).
package kms
