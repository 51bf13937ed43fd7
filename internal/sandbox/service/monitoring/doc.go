// Package monitoring is the sandbox's CloudWatch (RPCv2 CBOR and query; SigV4 signing name monitoring).
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package monitoring
