// Package securityhub is the sandbox's Security Hub (REST-JSON; SigV4
// signing name securityhub): findings imported, read and triaged as ASFF,
// kept per account and region in Findings, which the server holds beside
// the world. Service says what it serves; the rules are
// internal/sandbox/doc.go's.
package securityhub
