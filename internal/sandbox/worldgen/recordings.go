package worldgen

import (
	"embed"
	"fmt"
	"io/fs"
	"path"

	"github.com/realdrift/realdrift/internal/corpus"
)

// recordings are the golden-corpus cases the demo's live models start
// from (demoRecordings), committed under recordings/ with their licence
// and embedded, so the demo world is the same in a checkout and outside
// one (sandbox world --demo, sandbox serve, realdrift demo).
//
//go:embed recordings/*.json
var recordings embed.FS

// DemoCases returns the embedded recordings (recordings/), sorted by file
// name, for Demo.
func DemoCases() ([]*corpus.Case, error) {
	names, err := fs.Glob(recordings, "recordings/*.json")
	if err != nil {
		return nil, fmt.Errorf("demo recordings: %w", err)
	}
	cases := make([]*corpus.Case, 0, len(names))
	for _, n := range names {
		data, err := recordings.ReadFile(n)
		if err != nil {
			return nil, fmt.Errorf("demo recordings: %w", err)
		}
		c, err := corpus.Parse(path.Base(n), data)
		if err != nil {
			return nil, fmt.Errorf("demo recordings: %w", err)
		}
		cases = append(cases, c)
	}
	return cases, nil
}
