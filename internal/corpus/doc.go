// Package corpus reads golden-corpus cases: one real AWS resource each, with
// its declared properties, its live model as read, its schema facts, the
// classifier options, and the findings expected for it.
//
// Rules:
//   - The corpus's unresolved marker string is turned into drift.Unknown at
//     any depth of the declared properties, so no caller ever sees it.
//   - Unknown top-level keys are kept in Extra and otherwise ignored, so cases
//     with extra keys still load.
//   - Numbers decode as float64, as encoding/json does by default.
//   - Replay runs a case through classify.Resource, exactly as the CLI and
//     the Lambdas do; Compare and Summarize implement the README's
//     comparison rules (sort by "tier path", every field equal, absent and
//     null different).
//   - MineKnown and RankUndeclared derive the known-values table from case
//     data (labels and live values), never from file names or logical ids.
package corpus
