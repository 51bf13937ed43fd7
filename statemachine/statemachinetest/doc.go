// Package statemachinetest holds the test doubles of realdrift's Lambda
// handlers (Fake for sweep and check-stack, RevertFake for revert), the
// callback side of Step Functions for local runs (TaskTokens: the task
// tokens a waitForTaskToken Task waits on, answered with SendTaskSuccess
// and SendTaskFailure) and the helpers that run the real definitions
// locally against them (or, in the end-to-end tests, against the real
// handlers) through a lambdarouter.
//
// Rules: the Fake follows the payload contract in package statemachine
// exactly and fails loudly (an error the definitions record as a stack
// failure) on any input that breaks it, so a definition that passes the
// wrong reference shows up as a failed stack, not a silent success.
package statemachinetest
