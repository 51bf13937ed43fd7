// Package scan is the drift check pipeline shared by the CLI and the
// Lambdas, cut into step-sized entry points with serialisable inputs and
// outputs so a state machine can run them one by one:
//
//	LoadDesired        the deployed template, physical ids, parameters,
//	                   exports → resolved declared resources (pass 0)
//	ReadResource       one resource's live model (pass 1; pass 1.5 re-reads)
//	Resolve            re-resolve every declared value with live attributes
//	                   (Fn::GetAtt) and list the pass-1.5 re-reads
//	EnumerateChildren  the added children of one declared parent (pass 1.6)
//	ClassifyStack      deleted / skipped / added findings plus everything
//	                   the classifier returns for each read resource
//
// Check composes them in-process for the CLI, pipelined (the template and
// the resource list side by side, the alias lookup beside the reads, the
// enumerations beside the pass-1.5 re-reads), with the stack's work bounded
// by Options.Concurrency so no more of its calls are in flight than that.
// A stack is classified as soon as its own reads and enumerations are in,
// while the run's other stacks go on reading; within a stack it waits for
// every read, because a resource's classification takes stack-wide facts
// (sibling policies and rules, the secrets scrubbed across the stack, the
// account facts below) and costs about 30 µs (scripts/bench-classify.sh),
// a thousandth of one 30 ms call, so classifying each resource as its own
// read arrives could not shorten a run.
//
// One scheduler, one place for limits (scheduler.go): clients built with a
// Settings.Scheduler send every attempt of every call through it: a global
// bound on attempts in flight over a whole run, and an adaptive
// client-side rate per account, region and API. The rate control is AIMD
// (not a fixed token bucket: AWS's per-API rates are not published per
// account, so the API's throttling is the signal): unlimited until a
// throttle, then cut to 0.9 × the last second's successful rate once per
// round of calls, and raised by about one call per second each second of
// successes. A throttled attempt is retried at once, spaced by the paced
// rate; the scheduler's clock and sleep are parameters.
//
// Fewer calls: a stack ListStacks listed is not described again; schema
// facts come from the embedded snapshot, DescribeType (once per type per
// clients) only for the types it lacks, or for every type with
// Options.LiveSchema.
//
// Findings the pipeline itself makes (the classifier makes the rest):
//
//   - deleted: the resource's read found nothing (Reason carries the API's
//     answer);
//   - skipped: the resource, or its children's enumeration, could not be
//     read (Reason says why): a coverage gap;
//   - nothingToRead: a resource with no live resource to read (a custom
//     resource): listed, never counted as not read;
//   - unresolved (path ""): the resource's whole property bag could not be
//     resolved, so it is not compared;
//   - added: a live child of a declared parent that the stack does not
//     declare and no other stack owns. Its LogicalID is synthesized as
//     "<parent logical id>/<child type name>" (AddedLogicalID), its
//     PhysicalID is the child's identity, Actual its full live model.
//
// The classifier gets the stack's facts: account, region, stack name,
// stack tags, managed KMS alias targets (only looked up when a declared
// value uses alias/aws/*, or after the reads when a resource holds an
// undeclared KMS key), the region's default security groups (only after
// the reads, when a resource holds one undeclared group), the sibling facts derived from the stack's other
// resources (siblings.go), and each type's schema facts (the embedded
// snapshot, DescribeType for the types it lacks, unless the caller
// supplies them).
//
// Nested stacks (nested.go): NestedStacks lists a loaded stack's
// AWS::CloudFormation::Stack resources (physical id: the nested stack's
// ARN); ListStackTree lists an account-region's stacks depth first with
// their ParentId/RootId, each once. What a stack resource echoes of its
// nested stack (a parameter default the parent does not pass, a NoEcho
// mask) is the classifier's to fold: AccountFacts reads the parameters of
// the nested templates a stack resource echoes (NestedParameters, only
// when NeedsNestedParameters), Desired carries them, and ClassifyStack
// hands them to the classifier (classify.NestedParametersOption).
//
// Rules and invariants:
//   - One resource's failure is a finding (skipped, with the reason), never a
//     failed run. Only a stack that cannot be loaded (DescribeStacks,
//     GetTemplate, ListStackResources, a template that does not parse) or an
//     interrupted context is an error.
//   - Fail closed: a declared value the resolver cannot know stays
//     drift.Unknown; its JSON form (wire.go) keeps it Unknown across a
//     serialisation, and a secret value is never serialised at all (it
//     becomes a secret Unknown).
//   - Only scan, cmd/ and functions/ know about credentials and clients;
//     clients are built from one aws.Config by the caller (Config helps).
//   - ctx comes first for I/O and is never stored.
package scan
