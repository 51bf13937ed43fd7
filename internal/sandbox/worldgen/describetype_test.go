package worldgen_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	cfntypes "github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
	"github.com/realdrift/realdrift/internal/schema"
)

// TestDescribeTypeRoundTrip: the schema document DescribeType synthesises
// for each corpus type parses back (with the project's registry parser) to
// the same read-only, write-only, create-only facts and defaults.
func TestDescribeTypeRoundTrip(t *testing.T) {
	w := corpusWorld(t)
	_, url := sandboxtest.Serve(t, w, sandbox.Options{})
	bad, asked := 0, 0
	// Every account region answers its own facts over the world's.
	for _, a := range w.Accounts {
		for _, reg := range a.Regions {
			cfn := cloudformation.NewFromConfig(sandboxtest.Config(url, worldgen.AccessKey(a.ID), reg.Name))
			want := map[string]schema.Facts{}
			for typ, f := range w.Schemas {
				want[typ] = *f
			}
			for typ, f := range reg.Schemas {
				want[typ] = *f
			}
			bad += describeAll(t, cfn, want)
			asked += len(want)
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d DescribeType answers differ", bad, asked)
	}
}

func describeAll(t *testing.T, cfn *cloudformation.Client, want map[string]schema.Facts) int {
	t.Helper()
	bad := 0
	for typ, f := range want {
		out, err := cfn.DescribeType(t.Context(), &cloudformation.DescribeTypeInput{Type: cfntypes.RegistryTypeResource, TypeName: aws.String(typ)})
		if err != nil {
			t.Fatal(err)
		}
		name, got, err := schema.ParseRegistry([]byte(aws.ToString(out.Schema)))
		if err != nil || name != typ {
			t.Fatalf("%s: parse %q: %v", typ, name, err)
		}
		opt := cmpopts.EquateEmpty()
		// The registry format cannot say "create-only at the top but not
		// as a path" or "a top-level default only in DefaultPaths", which
		// a few corpus facts do: compare the unions.
		pick := func(f schema.Facts) schema.Facts {
			co := map[string]bool{}
			for _, p := range append(append([]string(nil), f.CreateOnly...), f.CreateOnlyPaths...) {
				co[p] = true
			}
			var cos []string
			for p := range co {
				cos = append(cos, p)
			}
			defaults := map[string]any{}
			for k, v := range f.Defaults {
				defaults[k] = v
			}
			for k, v := range f.DefaultPaths {
				if !strings.Contains(k, ".") {
					defaults[k] = v
				}
			}
			return schema.Facts{ReadOnly: f.ReadOnly, WriteOnly: f.WriteOnly, CreateOnly: f.CreateOnly,
				ReadOnlyPaths: f.ReadOnlyPaths, WriteOnlyPaths: f.WriteOnlyPaths, CreateOnlyPaths: cos, Defaults: defaults}
		}
		if diff := cmp.Diff(pick(got), pick(f), opt, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
			bad++
			if bad <= 5 {
				t.Errorf("%s (-got +want):\n%s", typ, diff)
			}
		}
	}
	return bad
}
