// Package servicediscovery is the sandbox's servicediscovery service (SigV4 signing name servicediscovery):
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package servicediscovery
