// Package baseline reads, writes and applies recorded undeclared state: the
// per-stack baseline file that `realdrift record` writes and `check`
// reconciles undeclared findings against (seed 002 §8).
//
// File format: cdk-real-drift's schemaVersion 2 JSON, one document per
// stack, account and region. This package encodes and decodes it; where it
// lives is the store's business: store.File keeps it at
// <state-dir>/baselines/<stack>.<account>.<region>.json (store.StateDir:
// --state-dir, else .realdrift with an existing .cdkrd read, never written),
// store.Dynamo in one table item.
//
// The reader is strict, with one rule for every field (format.go's
// formats table): a document with a byte that is not UTF-8, a duplicate key
// at any depth, a field its schemaVersion does not define (version 2 adds
// completeResources to version 1; the additive optional fields, watched
// among them, are read in both), or a null where the format expects a value (a recorded value may
// hold nulls inside it but is never null itself) is malformed, and the
// error names the file, line:column and JSON path.
//
// Rules Apply implements (per entry, never per file):
//   - An undeclared or added finding with an equal entry is suppressed; with
//     an entry whose value differs it is drift ("changed since record", the
//     recorded value as Desired); with no entry it is drift only when its
//     resource is in completeResources (an added child: when its parent is in
//     enumeratedParents), noted "appeared since record"; otherwise it is
//     Unrecorded (Potential Drift, never failing a check).
//   - An added finding without a live value (its full read failed) with an
//     entry becomes skipped: present, not comparable, never drift.
//   - An atDefault or generated finding with an equal entry stays folded; with
//     a different entry it becomes undeclared drift (a recorded value reset
//     out of band).
//   - Watched values (watched.go: the leaves of every atDefault and
//     non-recorded generated value the record saw, in the additive
//     "watched" field cdk-real-drift ignores; never a secret, an Unknown
//     or a Redacted text): a folded finding with no entry is compared with
//     them, equal stays folded, different becomes undeclared drift noted
//     "changed since record" with the watched value as Desired; an
//     undeclared finding with no entry at a watched path is suppressed when
//     equal, "changed since record" when not; a watched leaf no finding
//     speaks about on a read resource (the value was emptied or left its
//     fold) is "changed since record" with no live value, unless the path
//     is read-gapped or the template now declares it. A value the run could
//     not read (readGap, unresolved) is never watched: fail closed. Without
//     a baseline nothing changes: a first check reports them atDefault.
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
// Key/value elements (keyvalue.go): a tag is recorded by its value at
// A[key], as the classifier reports it. A baseline recorded before that
// convention holds the whole {Key, Value} element there (and watches its
// two leaves A[key].Key and A[key].Value); the reader takes the value of
// exactly such an element (Key equal to the bracketed key, no third
// field), notes the upgrade once per file, and the next record writes the
// value. A recorded ancestor (the whole tag list) followed to A[key]
// yields the element's value the same way.
//
// Values are compared after Options.Canon (default normalize.ForCompare,
// the classifier's order canonicalisation) by normalize.Equal: numbers by
// value, a Secret only with a Secret, an Unknown with nothing.
//
// Record builds the next baseline from a run: completeResources is computed
// at write time and is monotonic across re-records of a read resource;
// unread resources carry their entries forward with their old fingerprints;
// watched values are re-taken for every read resource (a declined
// "changed since record" keeps its old value) and carried for unread ones;
// enumeratedParents is not monotonic (a declined child drops the marker),
// but a run that could not complete a parent's enumeration (the parent or
// one of its children not read) carries the marker and the recorded
// children forward, as it carries an unread resource's completeness.
//
// Reads and writes go through a versioned store (store.File for the CLI,
// store.Dynamo for the service), never through files of this package's
// own: LoadStored decodes the stored document, UpdateStored reads it, lets
// the caller merge into it and writes the result conditionally on the
// version read, re-reading and re-merging after a conflict
// (store.RetryConflicts), so a concurrent writer always merges into the
// other's result instead of overwriting it. The store's one lock and one
// atomic writer make the write itself safe. A malformed document is
// reported with its name (the file, for store.File) and problem and nothing
// is written; neither is a result that would not decode again. Secret
// values are written only as drift.Redacted.
package baseline
