package corpustest

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// root is the repository root, found from this file's own path.
func root() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "."
	}
	// file is <repo>/internal/corpus/corpustest/corpustest.go.
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// DevDir is where the dev corpus is looked for: REALDRIFT_CORPUS_DIR when
// set, else the repository's committed copy, testdata/shared/corpus/dev
// (scripts/sync-shared.sh refreshes it from ../shared).
func DevDir() string {
	if d := os.Getenv("REALDRIFT_CORPUS_DIR"); d != "" {
		return d
	}
	return filepath.Join(root(), "testdata", "shared", "corpus", "dev")
}

// Dir returns the dev corpus directory. When it is not there the test
// fails under CI=true and is skipped, with one line, otherwise.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir := DevDir()
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("golden corpus %s is missing (set REALDRIFT_CORPUS_DIR)", dir)
		}
		tb.Skipf("golden corpus %s is missing (set REALDRIFT_CORPUS_DIR; CI=true makes this a failure)", dir)
	}
	return dir
}

// Subset returns the committed corpus cases (the demo organisation's
// recordings, which worldgen embeds: internal/sandbox/worldgen/recordings).
func Subset(tb testing.TB) string {
	tb.Helper()
	dir := filepath.Join(root(), "internal", "sandbox", "worldgen", "recordings")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		tb.Fatalf("committed corpus subset %s is missing", dir)
	}
	return dir
}
