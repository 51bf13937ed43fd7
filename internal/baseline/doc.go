// Package baseline reads, writes and applies recorded undeclared state: the
// per-stack baseline file that `realdrift record` writes and `check`
// reconciles undeclared findings against (seed 002 §8).
//
// File format: cdk-real-drift's schemaVersion 2 JSON, one file per stack,
// account and region at <state-dir>/baselines/<stack>.<account>.<region>.json.
// StateDir resolves the state directory: --state-dir when given, else
// .realdrift, with an existing .cdkrd directory read (never written) after
// it, so cdk-real-drift users can bring their files.
//
// Rules Apply implements (per entry, never per file):
//   - An undeclared or added finding with an equal entry is suppressed; with
//     an entry whose value differs it is drift ("changed since record", the
//     recorded value as Desired); with no entry it is drift only when its
//     resource is in completeResources (an added child: when its parent is in
//     enumeratedParents), noted "appeared since record"; otherwise it is
//     Unrecorded (Potential Drift, never failing a check).
//   - An atDefault or generated finding with an equal entry stays folded; with
//     a different entry it becomes undeclared drift (a recorded value reset
//     out of band).
//   - An entry with no finding is "baseline value removed since record",
//     except when its resource was not read (skipped, deleted), its path is
//     read-gapped, its top-level key is now declared (promotion: a note
//     instead), or one of the lifecycle folds applies.
//   - Lifecycle folds, each a one-line note, never drift: the resource left
//     the template; the resource was replaced by a deploy (recorded physical
//     id differs from a known live one: every entry and the completeness of
//     that resource are void); the declared source of a content hash changed
//     (recorded source fingerprint differs from the current one: that entry
//     is void).
//   - A recorded observed default with no undeclared-side finding on a
//     positively read resource is synthesized as "observed default deleted
//     since record".
//   - A recorded added child that is no longer present is a note, not drift:
//     the live state moved toward the template.
//   - An added child is recorded under EntryID: its logical id plus
//     "#<physical id>", because the synthesized logical id of added children
//     ("<parent>/<Type>") is shared by siblings. Its parent is Input.Parents'
//     entry, else the part of its logical id before the first "/".
//
// Values are compared after Options.Canon, the classifier's canonicaliser.
// It defaults to the identity so this package does not depend on
// internal/normalize; the caller wires it in. Numbers compare by value.
//
// Record builds the next baseline from a run: completeResources is computed
// at write time and is monotonic across re-records of a read resource;
// unread resources carry their entries forward with their old fingerprints;
// enumeratedParents is not monotonic (a failed scan drops the marker).
//
// Writes go through Update, which holds an exclusive lock on the baselines
// directory while it reads the current file, lets the caller merge into it
// and writes the result atomically (temp file, fsync, rename). A concurrent
// writer therefore always merges into the other's result instead of
// overwriting it. A malformed file is reported with its name and problem and
// nothing is written. Secret values are written only as drift.Redacted.
//
// UpdateStored does the same against a versioned store (store.File,
// store.Dynamo): a conditional write on the version read, re-reading and
// re-merging after a conflict, an error wrapping store.ErrConflict after a
// few. Update and a store.File rooted at the same directory use different
// locks: one process should write a state directory through one of them.
package baseline
