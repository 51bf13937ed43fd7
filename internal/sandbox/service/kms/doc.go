// Package kms is the sandbox's KMS (JSON 1.1): ListAliases over the region's
// kmsAliases map and the AWS::KMS::Alias models, and Key, which finds a
// key (by id, ARN or alias) and its key policy for the services whose
// resources a key encrypts.
// The rules are internal/sandbox/doc.go's.
package kms
