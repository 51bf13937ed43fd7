// Package statemachinetest holds the test doubles of realdrift's Lambda
// handlers (Fake for sweep and check-stack, RevertFake for revert), the
// callback side of Step Functions for local runs (TaskTokens: the task
// tokens a waitForTaskToken Task waits on, answered with SendTaskSuccess
// and SendTaskFailure), the sandbox's S3 a Distributed Map reads its items
// from and writes its results to (ServeS3), and the helpers that run the
// real definitions locally against them (or, in the end-to-end tests,
// against the real handlers) through a lambdarouter, holding each run's
// definition equal to infra's synthesized one (CheckSynthesized).
//
// Rules: the Fake follows the payload contract in package statemachine
// exactly and fails loudly (an error the definitions record as a stack
// failure) on any input that breaks it, so a definition that passes the
// wrong reference shows up as a failed stack, not a silent success.
package statemachinetest
