// Package normalize holds the noise pipeline of seed 002 §6: the steps that
// turn a live model and a declared template value into comparable shapes,
// and the equality folds that decide whether two representations of a value
// are the same value.
//
// Rules and invariants:
//   - Every step is a pure, named function over JSON-shaped values (nil, bool,
//     float64, string, []any, map[string]any). No I/O, no clock, no globals.
//   - Pass runs the model-wide steps in one copy-on-write traversal: its
//     result shares unchanged subtrees with the input, so a caller takes a
//     path with Own before an in-place step (StripPaths, SortUnordered)
//     below the top level. The input is never modified.
//   - Folds are equality-gated: each one accepts only two values that are
//     provably the same value written differently, so a real change always
//     still compares unequal (every fold has a paired test: the noise folds,
//     the real change surfaces).
//   - drift.Unknown never compares equal to anything.
//   - IAM policy documents, and a property that is one statement, take one
//     canonical form: a string or a one-element list, statement and value
//     order, a bare account id or its root ARN are one value.
//   - A value a read returns masked (MaskedNonASCII: non-ASCII characters
//     written as '?') is never equal to its declared value: the caller
//     reports it as a read gap.
//   - Free-form user maps (schema freeFormMapPaths) are never stripped of
//     Cloud-Control-managed keys: their keys are user data.
package normalize
