// Package report renders checked stacks as text for people, as JSON,
// SARIF, JUnit and ASFF for machines and as Markdown for pull-request
// comments and CI job summaries, and computes the check's exit status.
//
// Markdown (markdown.go) stays within a byte limit (GitHub's 65,536-character
// comment limit by default): it stops between whole rows or stacks, closes
// the <details> it opened, and its last line counts the findings and
// stacks left out. Values from AWS or a template are in code spans or
// escaped, so they cannot open HTML, a link or a table cell.
//
// Input: one Stack per checked stack, its findings already reconciled with
// the baseline (baseline.Apply) and the ignore rules (ignore.Apply).
//
// Verdicts (Verdict = drift.Outcome, worst first): error (the stack could
// not be checked), drift (a deleted, declared, undeclared or added finding
// that is not Unrecorded; unread resources may sit beside it, counted),
// incomplete (no confirmed drift, but a resource, a child listing or an
// added child could not be read: "INCOMPLETE (n of m not read)", never
// clean), potentialDrift (only Unrecorded live-only values), clean
// (everything read, nothing drifted). Only drift.Judge makes a verdict,
// from the findings and the number of resources the check covered
// (Stack.Resources), so no output can say clean without that count.
// Coverage is complete when no finding is skipped and the stack did not
// fail (a stack that could not be checked covers nothing).
//
// A partial run (Partial: interrupted, stacks not checked) says so in
// every machine format: JSON (interrupted, notChecked), SARIF (an
// unsuccessful invocation with those properties and an error
// notification, RD902), JUnit ("realdrift (interrupted)", an error case
// per stack not checked), ASFF (ProductFields realdrift/interrupted and
// realdrift/notChecked on every finding) and Markdown (an INCOMPLETE
// heading, at best, and the partial line under it).
//
// A nothingToRead finding (a custom resource: no live resource to read) is
// not a gap: every output lists it (text "nothing to read: …", a SARIF
// note notification RD901, a passing JUnit case, the markdown clean line
// or informational details, the JSON findings) and none counts it unread.
//
// Text layout (seed 002 §9):
//   - A header line per stack ("Stack <name> (<account>/<region>)"; a
//     nested stack's is "Nested stack: <name> (<account>/<region>) in
//     <parent> (<logical id>)", as diff --recursive heads its nested
//     stacks "Nested stack: …"); drift sections follow it directly, later
//     sections after a blank line. Section headers carry the count inside
//     the brackets ([CFn-Declared Drift: 3]) and a note after them.
//   - Unrecorded values form their own [Potential Drift: N] section and
//     never count as drift.
//   - Informational tiers (atDefault, generated, readGap, unresolved,
//     skipped, nothingToRead, ignored) fold into an info: footer with per-tier counts and
//     a reason breakdown: one line for one tier, one bullet per tier (and a
//     --verbose hint) for more; Verbose lists every finding. Zero counts are
//     never printed.
//   - result: starts at column 0 (greppable). When a section was printed it
//     is framed by a horizontal rule above and below, after a blank line; a
//     clean stack has no frame.
//   - Colour (ANSI) only when Options.Color is set; the caller sets it for
//     a terminal with NO_COLOR unset. Without it the output is plain text.
//     Values are shown as JSON; secrets appear only as drift.Redacted.
//
// JSON contract (schemaVersion 1; published as report.schema.json at the
// repository root, JSON Schema 2020-12, which also covers diff --json and
// revert --json; see testdata/report.json). Every JSON report starts with
// Header: schemaVersion, report (Kind: check, diff, revert, corpus — each
// line of corpus --json —, schemaStats) and
// toolVersion (the realdrift version, "(devel)" for a build without one).
// reporttest.Validate checks a report against the schema; the tests of
// every package that produces one call it.
//
//	{
//	  "schemaVersion": 1,
//	  "report": "check",
//	  "toolVersion": "<version>",
//	  "verdict": "clean" | "potentialDrift" | "incomplete" | "drift" | "error",   // worst stack
//	  "drifted": <confirmed drift findings, all stacks>,
//	  "potentialDrift": <unrecorded findings, all stacks>,
//	  "coverageComplete": <no stack failed or has a skipped finding, and the run was not interrupted>,
//	  "notRead": <resources not read, all stacks>,
//	  "interrupted": <the run ended early (SIGINT, SIGTERM): a partial report>,
//	  "notChecked": ["<stack>", ...],  // only when interrupted: the stacks not checked
//	  "stacks": [{
//	    "stack": "<name>", "account": "<id>", "region": "<region>",
//	    "parent": "<name>",              // only for a nested stack: the stack it is nested in
//	    "parentLogicalId": "<id>",       // and its AWS::CloudFormation::Stack resource there
//	    "verdict": ..., "drifted": n, "potentialDrift": n,
//	    "coverageComplete": bool,
//	    "resources": n,                  // resources covered: the template's and the added children found
//	    "notRead": n,                    // of them, not read (skipped, or an added child whose read failed)
//	    "counts": {"<tier>": n, ...},    // every finding by tier, non-zero only
//	    "error": "<message>",            // only when the stack failed
//	    "findings": [<finding>, ...]     // every finding, always an array
//	  }]
//	}
//
// A finding is its stable id (FindingID) and drift.Finding's JSON: tier (deleted, declared, undeclared,
// added, atDefault, generated, readGap, unresolved, skipped,
// nothingToRead, ignored),
// logicalId, resourceType, physicalId, constructPath?, path, actual?,
// desired?, nested?, note?, writeOnly?, attributeKey?, freeFormKey?,
// wholeArrayRevert?, reason?, unrecorded: true for a live-only value the
// baseline has not recorded (its tier stays undeclared or added; it is not
// counted in drifted), and changedBy? (check --who, the service's alerts:
// drift.ChangedBy — principal, name, sourceIdentity?, sessionName?,
// eventName, eventSource, time, sourceIP, userAgent, agent (console, CLI,
// SDK, CloudFormation, AWS, other), eventId, region; or unknown saying why
// no event names the writer). The text report prints it under the finding
// ("changed by alice (console) 2026-12-05 09:14 UTC — …"), markdown in the
// finding's row, SARIF as the result property changedBy, ASFF as
// UserDefinedFields changedBy.* and, for a known event, SourceUrl to it in
// the CloudTrail console (EventURL). It never changes a tier or a
// verdict. Findings are ordered by tier, then by the path the
// text report shows (ignore.DisplayPath), then by logical id.
// Fields are only ever added to this contract, never renamed or removed.
//
// Exit status (ExitCode): 2 when a stack failed; else 1 for confirmed drift
// under --fail or incomplete coverage under --strict; else 3 for incomplete
// coverage under --fail; else 0.
//
// Every output says incomplete where the text says it: SARIF a warning
// tool execution notification per resource not read (executionSuccessful
// false when nothing of a stack could be read), JUnit a skipped test case
// per resource not read, ASFF an INFORMATIONAL finding per resource not
// read, markdown an INCOMPLETE heading.
//
// SARIF is what GitHub code scanning shows (sarif.go, checked against the
// 2.1.0 schema and GitHub's documented requirements in
// sarif_github_test.go): the tool's version (numeric first), a rule per
// drift tier and per security category (security.go: policies, public
// access, encryption, security groups — a data table of properties and
// resource types; its rules carry tags security and a security-severity),
// each with short and full descriptions and help saying what to do. A
// result has a physical location only in a file that exists in the
// repository (a cloud assembly's template under the working directory,
// on the resource's line, the construct's source from the assembly's
// metadata trace as a related location), else a logical location only;
// logical names are account/region/stack/logical id.
//
// FindingID is a finding's stable id (account, region, stack, logical id,
// physical id, path and tier, hashed): the JSON findings' id, SARIF's
// partialFingerprints (realdriftFindingId/v2; v1 lacked the tier) and
// ASFF's Id.
package report
