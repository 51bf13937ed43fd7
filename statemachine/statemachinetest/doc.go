// Package statemachinetest holds the test double of realdrift's Lambda
// handlers and the helpers that run the real definitions locally against
// it (or, in the end-to-end tests, against the real handlers) through a
// lambdarouter.
//
// Rules: the Fake follows the payload contract in package statemachine
// exactly and fails loudly (an error the definitions record as a stack
// failure) on any input that breaks it, so a definition that passes the
// wrong reference shows up as a failed stack, not a silent success.
package statemachinetest
