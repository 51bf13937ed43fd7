// Package lakeformation is the sandbox's lakeformation service (SigV4 signing name lakeformation):
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package lakeformation
