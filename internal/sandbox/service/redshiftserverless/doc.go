// Package redshiftserverless is the sandbox's Redshift Serverless (JSON 1.1; SigV4 signing name redshift-serverless).
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package redshiftserverless
