// Package sandbox is an emulated AWS organisation that speaks the real wire
// protocols, so production code runs against it unchanged through
// aws-sdk-go-v2 clients with a custom endpoint.
package sandbox
