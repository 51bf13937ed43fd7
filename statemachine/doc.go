// Package statemachine holds realdrift's Step Functions definitions (the
// *.asl.json files beside this one), the Go shapes of the payloads their
// states pass (the contract the Lambda handlers implement, documented in
// README.md), and Local, which validates and runs the definitions under the
// local Step Functions interpreter in scripts/sfn.
//
// Rules and invariants:
//
//   - Definitions use JSONPath only (no JSONata, no Assign variables) and
//     only what the local interpreter runs: Tasks with a direct Lambda ARN
//     (a ${XFunctionArn} DefinitionSubstitution), inline-compatible Maps,
//     Choice, Pass, Fail, Retry and Catch. One service integration is used:
//     revert's approval, a Lambda invoked with a task token
//     (arn:aws:states:::lambda:invoke.waitForTaskToken), which the
//     interpreter lacks; scripts/sfn/run.js runs it against a callback
//     service (Run.TaskTokens; statemachinetest.TaskTokens answers
//     SendTaskSuccess and SendTaskFailure as Step Functions does). Production-only fields
//     (Distributed Map ProcessorConfig, ToleratedFailurePercentage, Label)
//     are ignored locally and change no data flow.
//   - Payloads carry references (run id, StackRef, store keys, batch
//     numbers, counts), never live models or findings; those live in the
//     store. Every state's output stays far below Step Functions' 256 KiB
//     limit; the local end-to-end tests hold each under 32 KiB.
//   - sweep's per-stack ItemProcessor is check-stack's states verbatim,
//     except StackFailed (a Fail state in check-stack, a Pass in sweep so one
//     stack's failure never fails the sweep). A test keeps them in step.
//   - Every Task retries Lambda service errors and the Throttled error
//     (FULL jitter, capped backoff; Throttled ThrottledRetries times); the
//     sweep's and check-stack's also retry a Lambda timeout. Every
//     check-stack Task or Map catches States.ALL and records the stack as
//     failed for the run.
//   - The sweep's Stacks Map reads its items from S3 (ItemReader) and
//     writes its results there (ResultWriter) in production; the local
//     interpreter runs LocalDefinition's inline shape of it.
//   - revert (Standard) writes only after an approval: a dry run and an
//     empty plan stop at the stored plan, a rejection or an approval that
//     times out is audited without reaching the writes, and every Task or
//     Map ends in a catch-all that records the outcome in the audit item.
package statemachine
