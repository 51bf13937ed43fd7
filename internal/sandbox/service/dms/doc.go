// Package dms is the sandbox's AWS DMS (JSON 1.1): endpoints, replication
// instances, subnet groups and tasks, and their tags, read from the world's
// AWS::DMS models (Service says which).
// The rules are internal/sandbox/doc.go's.
package dms
