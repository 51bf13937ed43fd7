// Package corpus reads golden-corpus cases: one real AWS resource each, with
// its declared properties, its live model as read, its schema facts, the
// classifier options, and the findings expected for it.
//
// Rules:
//   - The corpus's unresolved marker string is turned into drift.Unknown at
//     any depth of the declared properties, so no caller ever sees it.
//   - Every case is checked against the format (check.go's caseShape) before
//     it is decoded: a listed field of the wrong type, an unknown
//     corpusVersion, a missing required field (resource, liveRaw, schema,
//     opts, expected and their required keys) makes the case bad, a
//     *CaseError naming its path and each problem ("path: field: problem").
//     Keys the format does not list are tolerated at every level (newer
//     recordings add fields); unknown top-level keys are kept in Extra.
//   - LoadDirs never stops at a bad case: it returns the good ones and an
//     error joining every bad one, so a run reports them all and goes on.
//   - freeFormKey is a boolean in the corpus; drift.Finding carries it as
//     the string "true".
//   - Numbers decode as float64, as encoding/json does by default.
//   - Replay runs a case through classify.Resource, exactly as the CLI and
//     the Lambdas do; Compare and Summarize implement the README's
//     comparison rules (sort by "tier path", every field equal, absent and
//     null different).
//   - MineKnown and RankUndeclared derive the known-values table from case
//     data (labels and live values), never from file names or logical ids.
package corpus
