// Package kms is the sandbox's KMS (JSON 1.1): ListAliases over the region's
// kmsAliases map and the AWS::KMS::Alias models.
// The rules are internal/sandbox/doc.go's.
package kms
