// Package codebuild is the sandbox's CodeBuild (JSON 1.1; SigV4 signing name codebuild).
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package codebuild
