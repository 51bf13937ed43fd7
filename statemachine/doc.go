// Package statemachine holds realdrift's Step Functions definitions (the
// *.asl.json files beside this one), the Go shapes of the payloads their
// states pass (the contract the Lambda handlers implement, documented in
// README.md), and Local, which validates and runs the definitions under the
// local Step Functions interpreter in scripts/sfn.
//
// Rules and invariants:
//
//   - The definitions run locally are the ones infra deploys, byte for
//     byte: infra's tests record each synthesized DefinitionString's
//     SHA-256 and type in SynthesizedFile, Local.Run runs a named
//     definition as that type, and the local tests hold the SHA-256 the
//     runner reports equal to it (statemachinetest.CheckSynthesized,
//     TestRunsSynthesizedDefinitions). Nothing rewrites a definition for
//     local runs.
//   - Definitions use JSONPath only (no JSONata, no Assign variables):
//     Tasks with a direct Lambda ARN (a ${XFunctionArn}
//     DefinitionSubstitution), inline and Distributed Maps, Choice, Pass,
//     Fail, Retry and Catch, and one service integration: revert's
//     approval, a Lambda invoked with a task token
//     (arn:aws:states:::lambda:invoke.waitForTaskToken).
//   - Payloads carry references (run id, StackRef, store keys, batch
//     numbers, counts), never live models or findings; those live in the
//     store. The runner fails an execution whose state input or output
//     passes Step Functions' 256 KiB; the local end-to-end tests hold each
//     under 32 KiB.
//   - sweep's per-stack ItemProcessors are check-stack's states verbatim,
//     except StackFailed (a Fail state in check-stack, a Pass in sweep so one
//     stack's failure never fails the sweep), the Stacks Map's FitsExpress
//     and StackDeferred, and the LargeStacks Map's names (below).
//     TestSweepInlinesCheckStack keeps them in step.
//   - The sweep checks a stack in an Express child of its Stacks Map when
//     the stack fits, in a Standard child of its LargeStacks Map otherwise.
//     A stack's reads are paced per account-region (internal/pace: 10
//     calls/s by default, shared by every stack of the account-region), so
//     how long a stack takes depends on its size and on its neighbours: 5
//     stacks sharing an account-region read about one resource a second
//     each, and a 300-resource stack would pass Express's 5 minutes. A
//     Standard child has no such limit (a year) but pays per state
//     transition (about 13 for a stack of 30 resources, $0.025 per
//     1,000): with every per-stack child Standard the full benchmark cost
//     $0.2013 per 10,000 resources in the central account, $0.1083 of it
//     those transitions, over the $0.15 budget. An Express child pays $1
//     per million and its duration ($0.00001667 per GB-s at 64 MB). So:
//     FitsExpress, right after LoadDesired, defers a stack of more than
//     ExpressStackResources (100) resources (about 100 s at one resource
//     a second: a margin of 3 under 5 minutes) to StackDeferred, which
//     records nothing; ListLargeStacks (discover) reads the Stacks Map
//     Run's ResultWriter manifest and files and lists the deferred stacks
//     and those whose Express child did not succeed or never started —
//     one that passed 5 minutes because its account-region was busier
//     than assumed (event-started checks share the rate too) — and the
//     LargeStacks Map checks them in Standard children. No stack is lost
//     to the 5 minutes: TestSweepLargeStack (2,000 resources: deferred,
//     then checked by a Standard child), TestSweepExpressTimeoutRerunsStandard
//     (a 5-resource stack whose Express child times out is checked by a
//     Standard one). What it costs: a deferred stack is loaded twice; a
//     timed-out child has spent up to 5 minutes of its account-region's
//     rate, and if it timed out after Persist and before Notify, its
//     Standard check finds the findings unchanged and does not alert a
//     second time (the findings are stored; that one alert is lost). A
//     state's name is unique in the whole definition, so the LargeStacks
//     processor's states are check-stack's named Large…; a test keeps both
//     processors in step with check-stack. At the full benchmark
//     (scripts/bench-sweep.sh: 1,600 stacks of 30 resources, none large)
//     the central account costs $0.1057 per 10,000 resources, the Express
//     duration $0.0107 of it. scripts/cost-model prices the
//     Express children on its lines "Step Functions Express requests" and
//     "Step Functions Express duration" (each child's duration as the
//     runner measured it) and the large ones on "Step Functions Standard:
//     large stacks": for the committed CI-scale benchmark figures
//     (testdata/bench/figures-ci.json: 12 stacks of 10 resources, none
//     large) the Express duration is $0.00376 per 10,000 resources, of a
//     central total of $0.1522 (small stacks and account-regions pay more
//     per resource); a test in scripts/cost-model holds these two figures
//     to what it prints.
//     check-stack, started per CloudTrail change for one stack, stays
//     Express (TimeoutSeconds 300): alone in its account-region it reads
//     at the full rate (at most 3,000 calls in 5 minutes).
//   - Every Task retries Lambda service errors and the Throttled error
//     (FULL jitter, capped backoff; Throttled ThrottledRetries times); the
//     sweep's and check-stack's also retry a Lambda timeout. Every
//     check-stack Task or Map catches States.ALL and records the stack as
//     failed for the run.
//   - The sweep's Stacks and LargeStacks Maps read their items from S3
//     (ItemReader: the objects discover writes for every account-region,
//     an empty array for one without stacks) and write their results
//     there (ResultWriter),
//     locally as in production: the runner reads and writes the sandbox's
//     S3 (Run.S3Endpoint).
//   - revert (Standard) writes only after an approval: a dry run and an
//     empty plan stop at the stored plan, a rejection or an approval that
//     times out is audited without reaching the writes, and every Task or
//     Map ends in a catch-all that records the outcome in the audit item.
//
// # What the local runner models
//
// scripts/sfn runs definitions under aws-local-stepfunctions and adds, in
// its own code (execution.cjs, distributed.cjs, s3.cjs, states.cjs,
// sigv4.cjs, shapes.cjs), what Step Functions does and the interpreter
// lacks. Each behaviour and its test (runner_test.go unless named):
//
//   - Distributed Map items from the ItemReader's S3 object
//     (arn:aws:states:::s3:getObject; InputType JSON: a top-level array,
//     JSONL: one value a line; ReaderConfig.MaxItems) or from ItemsPath;
//     a missing or malformed object fails the state with
//     States.ItemReaderFailed: TestDistributedMapReadsS3AndWritesResults,
//     TestDistributedMapItemReaderFailures.
//   - ItemSelector per item ($$.Map.Item.Index, $$.Map.Item.Value, the
//     state input as $): TestDistributedMapReadsS3AndWritesResults.
//   - ItemBatcher (MaxItemsPerBatch, MaxInputBytesPerBatch, BatchInput;
//     a child's input is {Items, BatchInput}) and MaxConcurrency /
//     MaxConcurrencyPath (0: 10,000 children at once):
//     TestDistributedMapBatches.
//   - ResultWriter (arn:aws:states:::s3:putObject, Bucket, Prefix):
//     <Prefix>/<map run id>/SUCCEEDED_0.json, FAILED_0.json (failed,
//     timed-out and aborted children) and manifest.json, the children's
//     execution records with Input and Output as JSON strings; the state's
//     result is {MapRunArn, ResultWriterDetails: {Bucket, Key}}:
//     TestDistributedMapReadsS3AndWritesResults,
//     TestDistributedMapToleratedFailures.
//   - ToleratedFailurePercentage / ToleratedFailureCount (no threshold
//     set: one failure fails the state): within them the state succeeds,
//     beyond them no further child starts and the state fails with
//     States.ExceedToleratedFailureThreshold:
//     TestDistributedMapToleratedFailures.
//   - Each child started with the state machine's role, as Step Functions
//     starts it: with Run.StatesEndpoint set, states:StartExecution on the
//     state machine is asked there (states.cjs, signed like the Lambda and
//     S3 calls) before the child runs; a refusal starts no further child
//     and fails the Map Run with States.Runtime, the refusal its cause
//     (AWS's error name for it is not confirmed offline):
//     internal/service TestSweepEndToEndChildStartDenied (the sweep role
//     without its DistributedMapChildren statement).
//   - Child executions of ProcessorConfig.ExecutionType, each with its own
//     context ($$.Execution) and limits, and its type, status and duration
//     in Execution.Executions (what Express bills); the Map Run summary
//     (ARN, type, status, concurrency, tolerance, item and execution
//     counts) in Execution.MapRuns: TestDistributedMapBatches,
//     TestExpressFiveMinutes.
//   - Express's 5-minute duration (an execution, root or child, ends
//     TIMED_OUT with States.Timeout) and a definition's TimeoutSeconds:
//     TestExpressFiveMinutes. A Standard execution's year is not enforced
//     (a Node timer holds at most 24.8 days).
//   - The 256 KiB limit on a state's input and output and an execution's
//     input and output (States.DataLimitExceeded): TestPayloadLimit.
//   - A Distributed Map in an Express execution is refused, at run time
//     (TestDistributedMapNotInExpress) and by the validator, which also
//     refuses an ItemReader resource other than s3:getObject /
//     s3:listObjectsV2, an InputType other than CSV, JSON, JSONL,
//     MANIFEST, PARQUET, a ResultWriter other than s3:putObject and
//     Distributed-only fields on an inline Map: TestValidatorRejects.
//   - Callback Tasks (waitForTaskToken): a fresh $$.Task.Token, the
//     decision by SendTaskSuccess / SendTaskFailure, and TimeoutSeconds /
//     HeartbeatSeconds: no answer in time fails the Task with
//     States.Timeout (States.HeartbeatTimeout) and the token expires, so a
//     late answer is refused with TaskTimedOut: TestRevertLocal ("an
//     approval nobody answers expires"), TestCallbackHeartbeat (a lapsed
//     heartbeat fails the Task with States.HeartbeatTimeout, which a
//     Catch can name; heartbeats sent in time keep it waiting).
//   - Time: Run.TimeScale runs the runner's clocks (execution limits, a
//     callback Task's TimeoutSeconds and HeartbeatSeconds, a Wait state's
//     Seconds) that many times faster than real time, so a test of a
//     day-long approval or a 5-minute limit takes seconds; Lambda
//     invocations take the real time they take.
//
// Not modelled: ItemReader s3:listObjectsV2 and the CSV, MANIFEST and
// PARQUET input types (the runner fails the state saying so), result files
// split at 5 GB, redrive, a Lambda Task's own TimeoutSeconds on the
// runner's clock (the interpreter's, in real seconds, default 60), JSONata.
package statemachine
