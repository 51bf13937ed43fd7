// Package service is the logic of realdrift's Lambda functions: one exported
// handler per function of the state machines in statemachine/ (discover,
// load-desired, read-resources, resolve, enumerate-children, classify,
// persist, notify; revert-plan, request-approval, revert-write,
// revert-converge, revert-audit; accept) plus the CloudTrail trigger and
// the approval URL (approve-link). Each handler is a thin layer
// over the scan pipeline (internal/scan), the store (internal/store), the
// baseline and ignore rules (internal/baseline, internal/ignore) and the
// alert senders (internal/notify); functions/<name>/main.go only builds a
// Service from one aws.Config and starts the handler.
//
// Rules and invariants:
//
//   - Payloads are the shapes of statemachine/payload.go and carry
//     references only. Desired models, live models, children and findings
//     are run state in the store (RunState, with a TTL), under the
//     deterministic keys of keys.go.
//   - Handlers are idempotent under Step Functions retries: every write has
//     a deterministic key (the run id, the stack, the batch), a stack's run
//     record keeps the start time first recorded for it, the "changed"
//     decision of persist is recorded before the run is, so a retried
//     persist gives the same answer, and notify records what it sent and
//     never sends it twice.
//   - Alerts follow changes of the drift set: persist compares a check's
//     fingerprint with the one the stack's alerts last reported (kept
//     across runs under a fixed run id, AlertMemory long), so an alert that
//     could not be delivered is sent again by the next check. Delivery is
//     remembered per channel (only the channels that missed a drift set
//     send it again); a delivery failure is logged, never a failed check;
//     a channel not configured (an unset Slack secret) is skipped with one
//     warning per process (channels.go).
//   - Nested stacks are targets of their own: discover lists each stack of
//     a region once (scan.ListStackTree: the listing's ParentId places each
//     nested stack right after its parent, depth first), and what a
//     parent's AWS::CloudFormation::Stack resource echoes of its nested
//     stack is folded by the classifier (the nested template's parameter
//     defaults and NoEcho masks, read by Clients.AccountFacts), as check
//     does (TestSweepEndToEndNested).
//   - Findings are the same as `realdrift check` reports for the stack: the
//     handlers run the same scan steps, with the same schema facts (the
//     embedded snapshot; DescribeType only for types it lacks, once per
//     type and account-region per run: sweepFacts), then the stored
//     baseline and ignore rules (Reconcile).
//   - A member account is read through its read role (Settings.ReadRoleName),
//     assumed from the function's own execution role (infra grants
//     sts:AssumeRole on it to the reader functions only; the e2e runs each
//     function with its role's session key and the sandbox enforcing the
//     policies infra synthesizes); credentials are cached
//     per account for the life of the Service, never in a package variable.
//   - Every call into a member account-region is paced by the shared
//     schedule of internal/pace (Settings.ReadRate per account-region,
//     over every Lambda of a sweep).
//   - Throttling errors are returned as *statemachine.Throttled, which the
//     definitions retry with backoff; any other error fails the Task, which
//     the definitions catch and record as the stack's (or account's)
//     failure. One resource's failure is a skipped finding, never an error
//     — but a read or child enumeration still throttled after the SDK's
//     retries is first handed back as Throttled (the rest of its batch
//     stored) until Settings.ReadDeadline or the workflow's last retry.
//   - A stack's run state lives in the stack's own partition of the run
//     (statePartition); a sweep's stack lists go through S3 when
//     Settings.TargetsBucket is set.
//   - The trigger ignores read-only events, events that failed, and changes
//     made by CloudFormation itself; it maps the changed resource to its
//     stack through the resource index (written by persist) or the
//     aws:cloudformation:stack-name tag (never for a global service's
//     event: its region is not the stack's), and debounces on the trailing
//     edge (debounce.go): a change opens or extends the stack's window; the
//     scheduled flush (FlushSource) starts one check per closed window, or
//     per window MaxWaitFactor windows old, on the injected clock.
//   - Who changed it (writers.go): the trigger keeps the last writer of
//     each resource the index maps its event to (who.FromRecord of the
//     event; a later event wins), WriterMemory long, in the run state of
//     writersRun; classify attaches it to the resource's drifted findings
//     when it is not older than the window's start (who.WindowStart), and
//     else looks it up (who.Finder.Attribute: one LookupEvents call per
//     drifted resource through the read role, paced per account-region
//     across the process, within LookupBudget), storing what it found.
//     What cannot be known says why; a finding's writer never changes its
//     tier, the drift set's fingerprint or a verdict.
//   - An accept (accept.go) records a stack's live-only state into its
//     stored baseline as `realdrift record --yes` does, under the
//     baseline's conditional write, and audits it; it never records
//     declared drift.
//   - Secrets never leave the classifier in plaintext: run state and
//     findings go through their JSON forms, which withhold or redact them.
//     Live models are stored with the values at the declared secrets'
//     places withheld, and the plaintexts found there scrubbed wherever
//     else they appear in the read batch (withholdLives, by the rules the
//     reports use: drift.Withhold, drift.Scrub); read back, a withheld
//     value is a secret Unknown, never compared.
//   - Each handler logs one line per invocation (WithLogger): the
//     function and its outcome, never a payload, a result or run state.
//   - Reverts (revert.go, approval.go, revertwrite.go, audit.go) plan with
//     the CLI's planner (revert.Build) over a fresh in-process check
//     (scan.Check through the read role, reconciled like classify), and
//     write with its writers (revert.Apply) through the member revert role
//     only (Settings.RevertRoleName; without one, behind a read role, the
//     write step refuses with ErrRevertOff). Nothing is written before an
//     approval: the approval task's token is stored under the execution's
//     run id, and Decide answers it once; the first decision wins. A
//     decision is an IAM-authenticated call: `realdrift approve --url`
//     signs it (SigV4) for the approve-link function's URL (AuthType
//     AWS_IAM), which records as the approver the principal Lambda
//     verified and refuses a request that names none; `realdrift approve
//     --store` needs the caller's own IAM access to the table and to
//     states:SendTaskSuccess. No link in a message decides anything. Before each resource's write,
//     revert-write re-reads the resource through the read role, classified
//     and reconciled as the plan was (revertstale.go), and refuses every
//     item whose live value is no longer the one the plan showed
//     (ErrStalePlan: audited as failed, not written): an approval approves
//     what it was shown, and a plan may wait a day for it. The plan, writes and outcomes are run
//     state (RevertStateTTL); the audit item — who decided and how, each
//     item's before, target and after, what could not be reverted — is
//     kept AuditRetention in the store's write-once audit partition
//     (store.Audits: a PutItem conditional on its absence, AUDIT# keys
//     that infra grants only revert-audit to write and notify to read),
//     so neither the functions that write findings nor a retried
//     revert-audit can alter it.
package service
