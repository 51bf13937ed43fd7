// Package corpustest tells tests where the golden corpus is: the whole dev
// half beside the repository (../shared/corpus/dev), or the handful of its
// cases the repository commits under internal/sandbox/worldgen/recordings.
//
// Rules:
//   - Dir is for tests that need the whole dev corpus (the 512-case replay,
//     the corpus world end to end). REALDRIFT_CORPUS_DIR overrides its
//     location. When it is missing, the test fails under CI=true and is
//     skipped with one line otherwise: it never passes silently.
//   - Subset is for tests that exercise a mechanism with a few recorded
//     cases (the demo organisation's recordings). It is committed, so it is
//     always there; a missing subset fails the test.
//   - The corpus README asks that the dev cases not be copied into the
//     project: the subset holds only the demo's recordings, with the
//     corpus LICENSE beside them.
package corpustest
