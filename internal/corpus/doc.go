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
package corpus
