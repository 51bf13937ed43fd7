package schema_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/realdrift/realdrift/internal/corpus/corpustest"
	"github.com/realdrift/realdrift/internal/schema"
)

var showDisagreements = flag.Bool("disagreements", false, "log every corpus field that disagrees with the snapshot")

// corpusFloor is the agreement (fields agreeing / fields compared) the
// snapshot must keep with the corpus's schema objects, overall and per
// field. The corpus was recorded by the reference tool at several points
// in time, from registry schemas newer than the pinned package (new
// properties, moved createOnly/readOnly entries) and with older tool
// versions that merged conditionalCreateOnly into createOnly, so full
// agreement is not reachable; a drop below a floor means an extraction
// rule regressed. Measured at 4491/4757 = 0.944 when pinned.
const corpusFloor = 0.94

// corpusNewestFloor is the floor over the cases the reference tool's newest
// version recorded (all optional fields present); 2495/2596 = 0.961 when
// pinned.
const corpusNewestFloor = 0.96

var corpusFieldFloor = map[string]float64{
	"readOnly":                  0.95,
	"writeOnly":                 0.93,
	"createOnly":                0.88,
	"readOnlyPaths":             0.94,
	"writeOnlyPaths":            0.92,
	"createOnlyPaths":           0.88,
	"defaults":                  0.98,
	"defaultPaths":              0.98,
	"unorderedScalarPaths":      0.97,
	"unorderedObjectArrayPaths": 0.99,
	"freeFormMapPaths":          0.99,
}

// corpusField compares one field of the corpus's schema object.
type corpusField struct {
	name string
	// present reports whether the case recorded the field (the reference
	// tool's older versions did not write every field).
	present func(f *schema.Facts) bool
	equal   func(got, want *schema.Facts) bool
}

var corpusFields = []corpusField{
	{"readOnly", always, func(g, w *schema.Facts) bool { return sameSet(g.ReadOnly, w.ReadOnly) }},
	{"writeOnly", always, func(g, w *schema.Facts) bool { return sameSet(g.WriteOnly, w.WriteOnly) }},
	{"createOnly", always, func(g, w *schema.Facts) bool { return sameSet(g.CreateOnly, w.CreateOnly) }},
	{"readOnlyPaths", always, func(g, w *schema.Facts) bool { return sameSet(g.ReadOnlyPaths, w.ReadOnlyPaths) }},
	{"writeOnlyPaths", always, func(g, w *schema.Facts) bool { return sameSet(g.WriteOnlyPaths, w.WriteOnlyPaths) }},
	{"createOnlyPaths", always, func(g, w *schema.Facts) bool { return sameSet(g.CreateOnlyPaths, w.CreateOnlyPaths) }},
	{"defaults", always, func(g, w *schema.Facts) bool { return sameValues(g.Defaults, w.Defaults) }},
	{"defaultPaths", func(f *schema.Facts) bool { return f.DefaultPaths != nil },
		func(g, w *schema.Facts) bool { return sameValues(g.DefaultPaths, w.DefaultPaths) }},
	{"unorderedScalarPaths", func(f *schema.Facts) bool { return f.UnorderedScalarPaths != nil },
		func(g, w *schema.Facts) bool { return sameSet(g.UnorderedScalarPaths, w.UnorderedScalarPaths) }},
	{"unorderedObjectArrayPaths", func(f *schema.Facts) bool { return f.UnorderedObjectArrayPaths != nil },
		func(g, w *schema.Facts) bool {
			return sameSet(g.UnorderedObjectArrayPaths, w.UnorderedObjectArrayPaths)
		}},
	{"freeFormMapPaths", func(f *schema.Facts) bool { return f.FreeFormMapPaths != nil },
		func(g, w *schema.Facts) bool { return sameSet(g.FreeFormMapPaths, w.FreeFormMapPaths) }},
}

func always(*schema.Facts) bool { return true }

func sameSet(got, want []string) bool {
	return cmp.Diff(got, want, cmpopts.EquateEmpty(), cmpopts.SortSlices(func(a, b string) bool { return a < b })) == ""
}

// sameValues compares defaults. The corpus keeps a raw default of the wrong
// JSON type as written (S3 EventBridgeEnabled "true"); the snapshot coerces
// it to the property's type, so a string equal to the text of the coerced
// scalar agrees.
func sameValues(got, want map[string]any) bool {
	if len(got) != len(want) {
		return false
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			return false
		}
		if cmp.Equal(g, w) {
			continue
		}
		ws, isString := w.(string)
		if !isString {
			return false
		}
		switch g.(type) {
		case bool, float64:
			if fmt.Sprint(g) != ws {
				return false
			}
		default:
			return false
		}
	}
	return true
}

type corpusCase struct {
	Resource struct {
		ResourceType string `json:"resourceType"`
	} `json:"resource"`
	Schema schema.Facts `json:"schema"`
}

func TestCorpusAgreement(t *testing.T) {
	corpusDir := corpustest.Dir(t)
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no corpus cases under %s", corpusDir)
	}
	snap, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	type tally struct{ agree, total int }
	perField := map[string]*tally{}
	var all, newest tally
	missing := map[string]bool{}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var c corpusCase
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		// Cases recorded by the reference tool's newest version carry
		// every optional field; they are tallied apart as well.
		isNewest := c.Schema.DefaultPaths != nil && c.Schema.UnorderedScalarPaths != nil &&
			c.Schema.UnorderedObjectArrayPaths != nil && c.Schema.FreeFormMapPaths != nil
		got, ok := snap.Lookup(c.Resource.ResourceType)
		if !ok {
			missing[c.Resource.ResourceType] = true
			got = &schema.Facts{}
		}
		for _, fld := range corpusFields {
			if !fld.present(&c.Schema) {
				continue
			}
			tl := perField[fld.name]
			if tl == nil {
				tl = &tally{}
				perField[fld.name] = tl
			}
			tl.total++
			all.total++
			if isNewest {
				newest.total++
			}
			if fld.equal(got, &c.Schema) {
				tl.agree++
				all.agree++
				if isNewest {
					newest.agree++
				}
			} else if *showDisagreements {
				t.Logf("%s %s: %s", filepath.Base(file), fld.name, fieldDiff(fld.name, got, &c.Schema))
			}
		}
	}
	names := make([]string, 0, len(perField))
	for n := range perField {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		tl := perField[n]
		r := float64(tl.agree) / float64(tl.total)
		t.Logf("%-26s %4d/%4d %.3f", n, tl.agree, tl.total, r)
		if r < corpusFieldFloor[n] {
			t.Errorf("%s agreement %.3f below its floor %.2f", n, r, corpusFieldFloor[n])
		}
	}
	rate := float64(all.agree) / float64(all.total)
	t.Logf("corpus agreement: %d/%d fields = %.4f over %d cases; types missing from the snapshot: %d", all.agree, all.total, rate, len(files), len(missing))
	newestRate := float64(newest.agree) / float64(newest.total)
	t.Logf("newest-version cases: %d/%d fields = %.4f", newest.agree, newest.total, newestRate)
	if newestRate < corpusNewestFloor {
		t.Errorf("newest-version agreement %.4f below the floor %.2f", newestRate, corpusNewestFloor)
	}
	if rate < corpusFloor {
		t.Errorf("corpus agreement %.4f below the floor %.2f", rate, corpusFloor)
	}
}

func fieldDiff(name string, got, want *schema.Facts) string {
	pick := func(f *schema.Facts) any {
		switch name {
		case "readOnly":
			return f.ReadOnly
		case "writeOnly":
			return f.WriteOnly
		case "createOnly":
			return f.CreateOnly
		case "readOnlyPaths":
			return f.ReadOnlyPaths
		case "writeOnlyPaths":
			return f.WriteOnlyPaths
		case "createOnlyPaths":
			return f.CreateOnlyPaths
		case "defaults":
			return f.Defaults
		case "defaultPaths":
			return f.DefaultPaths
		case "unorderedScalarPaths":
			return f.UnorderedScalarPaths
		case "unorderedObjectArrayPaths":
			return f.UnorderedObjectArrayPaths
		case "freeFormMapPaths":
			return f.FreeFormMapPaths
		}
		return nil
	}
	return cmp.Diff(pick(got), pick(want), cmpopts.EquateEmpty())
}
