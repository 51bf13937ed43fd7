// Package dms is the sandbox's AWS DMS (JSON 1.1): endpoints, replication
// instances, subnet groups and tasks, and their tags, read from the world's
// AWS::DMS models (Service says which).
//
// It follows the rules of internal/sandbox/doc.go ("How to add a
// service"): its state is the world's live models (package world), its
// wire facts and operations are the Service it registers (package wire).
package dms
