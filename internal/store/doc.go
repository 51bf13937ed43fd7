// Package store keeps realdrift's state: baselines, ignore rules, the latest
// findings and run history of each stack, the resource index, and the scratch
// state of a run. One interface, Store, has two implementations: File (the
// CLI default, a directory of plain files) and Dynamo (the service, one
// DynamoDB table). The conformance suite in storetest runs against both.
//
// Rules and invariants:
//   - Documents (baselines, ignore rules) are opaque bytes with a version.
//     Version 0 means "absent"; any other value is a token to pass back on the
//     next write. A write whose expected version is not the stored one fails
//     with an error wrapping ErrConflict and changes nothing, so a stale
//     writer never overwrites a newer document (no lost updates).
//   - Nothing is ever truncated. Values larger than one DynamoDB item are
//     split into chunks and reassembled exactly (length and SHA-256 checked);
//     a reader sees a whole value or an error, never a part.
//   - Expired items (run history, run state, index entries past ExpiresAt)
//     are invisible to readers even before the backend deletes them.
//   - Findings are stored through their JSON form, so drift.Secret and
//     secret-bearing drift.Unknown values are written only as drift.Redacted.
//   - Names that become keys or file names (stack, account, region, run id,
//     state key, ignore scope) are validated; a bad one is a clear error.
//
// # File layout (File)
//
//	<dir>/baselines/<stack>.<account>.<region>.json   baseline document
//	<dir>/ignore.yaml, <dir>/ignore.<scope>.yaml      ignore rules
//	<dir>/findings/<stack>.<account>.<region>.json    latest run + findings
//	<dir>/history/<stack>.<account>.<region>/<unixnano>-<runid>.json
//	<dir>/index/<sha256 of physical id>.json          index entries
//	<dir>/runs/<runid>/<key>                          run state
//	<dir> itself                                      flock for writers
//
// Every write goes to a temporary file in the same directory, is synced and
// renamed over the target (writeAtomic, the one file writer), so a crash
// never leaves a half-written file; the temp file a killed writer leaves
// behind is removed by the next locked write of its directory
// (writeLocked), or by RemoveStaleTemps, which a run that writes nothing
// calls and which works only when the lock is free. Writers hold an exclusive flock on
// <dir> itself (lockFile, the one lock; no lock file users could commit by
// mistake) across read-check-write; a baseline's or ignore file's version
// is derived from its content, so an edit by another tool (or a git
// checkout) also counts as a newer version.
//
// ParseURL reads a store URL, the CLI's --store value:
// dynamodb://TABLE[?region=REGION] (Dynamo) or file://DIR (File); anything
// else is an error naming the syntax.
//
// StateDir builds the CLI's File: --state-dir alone, else .realdrift with an
// existing .cdkrd (cdk-real-drift's directory) as a read-only lower layer.
// A document (baseline, ignore rules) missing from .realdrift is read from
// .cdkrd, with the version of that content; the first write puts it in
// .realdrift. .cdkrd is never written, so its users can bring their files.
//
// RetryConflicts is the one retry loop for read-merge-write callers
// (baseline.UpdateStored, ignore.AppendStored): after a conflict it waits a
// short randomised, growing time and lets the caller read and merge again;
// after a bound it returns the conflict.
//
// # Table layout (Dynamo)
//
// One table with string keys pk and sk, a sparse GSI gsi1 (gsi1pk, gsi1sk)
// and TTL on the numeric attribute ttl (epoch seconds). The names are the
// Attr*, GSI1* and Table* constants in layout.go; infra/ mirrors them.
//
//	pk                              sk                              item
//	STACK#<acct>#<region>#<stack>   BASELINE                        baseline (version)
//	STACK#<acct>#<region>#<stack>   FINDINGS#LATEST                 latest run + findings
//	STACK#<acct>#<region>#<stack>   RUN#<started>#<runid>           run history (ttl; gsi1)
//	IGNORE#<scope>                  RULES                           ignore rules (version)
//	RES#<physical id>               <acct>#<region>#<stack>#<logical id>  index entry (ttl optional)
//	RUN#<runid>                     STATE#<key>                     run state (ttl)
//	AUDIT#<id>                      <key>                           audit item, written once (ttl; Audits)
//	TRIGGER#PENDING                 <acct>#<region>#<stack>         pending change window (internal/service debounce.go)
//	PACE#<acct>#<region>            PACE                            call schedule (internal/pace)
//	<same pk as its value>          CHUNK#<value sk>#<gen>#<n>      chunk of a large value
//
// gsi1 holds only run history items: gsi1pk RUN#<runid>, gsi1sk
// STACK#<acct>#<region>#<stack>, so one sweep's results are one Query.
//
// A value (document, findings, state) is written as a manifest item at its
// sk. Up to InlineLimit bytes live in the manifest's data attribute; a larger
// value is written first as chunks under a fresh generation id, then the
// manifest (conditionally, for versioned documents) points at that
// generation. Readers follow the manifest; chunks of replaced or losing
// generations are deleted afterwards (best effort) and are never read. So
// every write, chunked or not, becomes visible in one conditional item write
// and no transactions are needed. A crash between the chunks and the
// manifest leaves unreferenced chunks (with the value's ttl, if any), never
// a torn value.
package store
