package cfntest

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// TemplatesDir returns the shared templates directory: REALDRIFT_TEMPLATES_DIR
// when set, else the repository's committed copy, testdata/shared/templates
// (scripts/sync-shared.sh refreshes it from ../shared).
func TemplatesDir() string {
	if d := os.Getenv("REALDRIFT_TEMPLATES_DIR"); d != "" {
		return d
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return filepath.Join("..", "..", "..", "testdata", "shared", "templates")
	}
	// file is <repo>/internal/cfn/cfntest/templates.go.
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "shared", "templates")
}

// IsTemplate reports whether a file name under the templates directory is a
// template.
func IsTemplate(name string) bool {
	switch {
	case strings.HasSuffix(name, ".assets.json"), strings.HasSuffix(name, ".metadata.json"), name == "manifest.json":
		return false
	}
	return strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
}

// Files returns the paths of every template under TemplatesDir, sorted. It
// fails the test when there are none.
func Files(tb testing.TB) []string {
	tb.Helper()
	dir := Require(tb)
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && IsTemplate(d.Name()) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		tb.Fatalf("walk %s: %v", dir, err)
	}
	if len(files) == 0 {
		tb.Fatalf("no templates under %s", dir)
	}
	sort.Strings(files)
	return files
}

// Read returns the content of the template at rel (a slash-separated path
// relative to TemplatesDir).
func Read(tb testing.TB, rel string) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(Require(tb), filepath.FromSlash(rel)))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// Require returns TemplatesDir, failing the test under CI=true and skipping
// it otherwise when the directory is not there.
func Require(tb testing.TB) string {
	tb.Helper()
	dir := TemplatesDir()
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("shared templates directory %s is missing (set REALDRIFT_TEMPLATES_DIR)", dir)
		}
		tb.Skipf("shared templates directory %s is missing (set REALDRIFT_TEMPLATES_DIR)", dir)
	}
	return dir
}

// Rel returns path relative to TemplatesDir, slash-separated, for test names.
func Rel(path string) string {
	rel, err := filepath.Rel(TemplatesDir(), path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}
