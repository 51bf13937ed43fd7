// Package valuediff shows a change inside a long value readably: both
// values are written as indented JSON, one element per line, and only the
// lines that differ are shown, with a few lines of context around each run
// of differences, under a hunk header (@@ -a,b +c,d @@) as a unified diff
// has.
//
// Rules:
//
//   - stable text: maps are written with sorted keys, so two equal values
//     always give equal lines and a reordered map is no change.
//   - lines, not characters: a changed scalar shows as its whole line
//     removed and added.
//   - minimal: the line alignment is a longest common subsequence, so an
//     inserted element shows as added lines only.
//   - bounded: values over MaxLines lines on either side are not aligned
//     (Lines reports ok false) and the caller shows them another way.
//   - short values need none of this: Long tells the caller when a value is
//     worth a line diff.
//
// Values must be JSON-shaped (maps, lists, strings, numbers, bools, nil);
// the caller redacts secrets before calling.
package valuediff
