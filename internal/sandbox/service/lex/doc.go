// Package lex is the sandbox's Lex V2 models API (REST-JSON, signing name
// lex): a bot's DRAFT locales, slot types, intents and slots from the
// world's AWS::Lex::Bot models (Service says how).
// The rules are internal/sandbox/doc.go's.
package lex
