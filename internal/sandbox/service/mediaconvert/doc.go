// Package mediaconvert is the sandbox's MediaConvert (REST-JSON; SigV4 signing name mediaconvert).
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package mediaconvert
