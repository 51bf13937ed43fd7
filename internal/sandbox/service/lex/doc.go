// Package lex is the sandbox's Lex V2 models API (REST-JSON, signing name
// lex): a bot's DRAFT locales, slot types, intents and slots from the
// world's AWS::Lex::Bot models (Service says how).
//
// It follows the rules of internal/sandbox/doc.go ("How to add a
// service"): its state is the world's live models (package world), its
// wire facts and operations are the Service it registers (package wire).
package lex
