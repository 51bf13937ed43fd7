// Package cli is the realdrift command line: one file per verb, each parsing
// its flags and wiring the internal packages together. cmd/realdrift/main.go
// only calls Run and exits with its status.
//
// Rules:
//   - Exit codes: 0 clean or report-only, 1 drift under --fail (or coverage
//     gaps under --strict), 2 any error (bad flags, bad input, failed I/O),
//     130 interrupted.
//   - Unknown flags and a value flag missing its value exit 2 with a message;
//     they never become positional arguments.
//   - Every verb answers --help / -h with its usage and exits 0.
//   - Errors are printed once, to stderr, as "realdrift <verb>: <message>".
//     No panics or stack traces reach the user.
//
// The checking verbs (check, record, ignore) share stackflags.go: stacks by
// exact name or glob from the account (or from a cloud assembly with --app),
// the region from --region, the environment or the profile (never guessed),
// and one pipeline per stack in gather.go: scan.Check, then baseline.Apply,
// the --declared-only / --undeclared-only scope, then ignore.Apply.
// Invariants:
//   - Nested stacks (nested.go): check, record and ignore descend into the
//     AWS::CloudFormation::Stack resources of every stack they check,
//     depth first, unless --no-recursive. Each nested stack is a stack of
//     its own — its own name, baseline and report, headed "Nested stack:
//     <name> (<account>/<region>) in <parent> (<logical id>)" and carrying
//     parent / parentLogicalId in JSON — checked once however the stacks
//     are chosen (a stack nested in another chosen stack is checked under
//     it). One that cannot be read is a skipped finding on its parent's
//     stack resource (a coverage gap: --strict exits 1, record names it),
//     never drift, never an error, never left out. What the stack
//     resource echoes of its nested stack (the nested template's parameter
//     defaults, NoEcho masks) is folded by the classifier, from the nested
//     templates' parameters the parent's check reads when its stack
//     resource echoes one (scan.Clients.NestedParameters).
//   - Stacks are checked side by side through the session's one
//     scan.Scheduler: --concurrency bounds the calls in flight of the whole
//     run (every stack, region and API together) and each API's rate adapts
//     to throttling. check prints each stack's text report, in the stacks'
//     sorted order, as soon as it and the stacks before it are done.
//   - Every AWS call has deadlines (--connect-timeout, --first-byte-timeout
//     per attempt, --call-timeout for the whole call with its retries,
//     --max-attempts): a resource read that times out is skipped, a stack
//     call that does is that stack's error. Nothing waits forever.
//   - What a run cannot read is skipped with its reason, never drift, and
//     record keeps its recorded entries; record names the gaps on stderr
//     and --strict (check and record) exits 1 on them.
//   - The environment comes from IO.Getenv (keys, region, endpoint), so
//     tests and the demo drive the verbs in-process.
//   - State has one path: a versioned store (statestore.go). By default
//     the state directory, a store.File (store.StateDir: --state-dir or
//     --store file://DIR, else .realdrift with an existing .cdkrd read as a
//     lower layer, never written); with --store dynamodb://TABLE the
//     service's table, a store.Dynamo (store.ParseURL is the one parser of
//     store URLs; a bad one is exit 2 before any call). Baselines go through
//     baseline.LoadStored / UpdateStored and ignore rules through the
//     store's ignore-rules document (ignore.LoadStored / AppendStored), the
//     same versioned calls the service makes on its table, so the CLI has
//     no file lock or file writer of its own: the store's one lock and one
//     atomic writer cover every write, and concurrent writers merge into
//     each other's results instead of losing them.
//   - A malformed baseline or ignore file is an error naming the file; no
//     verb writes anything then. State files are read only when regular
//     and within store.MaxStateFile (store.ReadStateFile). record writes in CI mode (CI=true) only
//     with --yes, and prompts only when stdin and stdout are terminals.
//   - Prompts (check's "Resolve now?" and per-finding questions, the
//     record, ignore and revert pickers) are shown only when stdin and
//     stdout are terminals; check's never with CI=true or an automation
//     flag. A prompt's read ends at SIGINT or SIGTERM (prompt.go answers):
//     the verb exits 130 at once, saying what it had and had not written.
//   - revert --only takes the names check prints (construct paths, as
//     ignore --path matches) and logical ids; a glob naming no resource
//     or finding is exit 2 listing the names, before anything is written.
//   - Files a person names (cloud assemblies, corpus cases, worlds, state
//     files) are read through inputfile.Read: regular files within a
//     size limit only, else exit 2 naming the file.
//   - --pre-deploy compares the synthesized template, reports the declared
//     side only, and neither reads nor writes the baseline.
//   - Terminals are what the terminal driver says (IsTerminal: the
//     terminal-attributes ioctl), never a character device such as
//     /dev/null. check draws its progress line on stderr only on a
//     terminal, cleared before each report.
//   - check needs a named state directory (--state-dir, --store
//     file://DIR, a setting) to exist unless --no-baseline (or --show-all
//     / --pre-deploy, which use no baseline): a mistyped one is an error.
//     The default .realdrift may be missing (a first check); a stack
//     without a baseline is named on stderr with the record to run. record leaves a baseline file untouched when
//     only capturedAt would change.
//   - Reports are text, json, sarif, junit, asff or markdown (--format), to stdout or to
//     -o FILE written atomically; check writes more formats of the same
//     run with -o / --output FORMAT://FILE (driftctl's convention,
//     outputs.go), every file put in place together or none. Errors a person must act on (no
//     credentials, an unreachable endpoint, AccessDenied) say what to do
//     (awserr.go); the SDK's own logger is off.
//   - Settings (config.go: store, state-dir, region, concurrency, and
//     check's format and fail) not given as flags take their REALDRIFT_*
//     variable, else .realdrift.yaml (--config FILE or REALDRIFT_CONFIG,
//     else the working directory's, else the git root's), else the
//     default; parse applies them through the flags, so every verb checks
//     them as it checks its flags. An unknown key or a malformed file is
//     exit 2 naming the file.
//   - demo runs the same verbs against an in-process sandbox with a
//     temporary state directory; it needs no network and no AWS account.
package cli
