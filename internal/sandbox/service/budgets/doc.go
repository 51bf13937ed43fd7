// Package budgets is the sandbox's budgets service (SigV4 signing name budgets):
// Service says what it serves from which world models; the rules are
// internal/sandbox/doc.go's.
package budgets
