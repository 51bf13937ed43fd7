package sandbox_test

import (
	"encoding/json"
	"sort"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	cfntypes "github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
	"github.com/realdrift/realdrift/internal/schema"
)

// TestDescribeTypeHandlers: DescribeType answers the handlers the type's
// schema facts name — also for a type the world cannot read through Cloud
// Control, as AWS answers the registry's schema whatever a read would do —
// and only for a type without facts the handlers the sandbox serves (no
// read or list for a type it cannot read).
func TestDescribeTypeHandlers(t *testing.T) {
	w := sandboxtest.LoadWorld(t, "testdata/world.json")
	const pinned, bare = "AWS::Example::Pinned", "AWS::Example::Bare"
	w.CCGaps = append(w.CCGaps, pinned, bare)
	w.Schemas = map[string]*schema.Facts{
		pinned: {Handlers: []string{"create", "read", "update", "delete", "list"}, PrimaryIdentifier: []string{"Id"}},
	}
	b, err := w.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if w, err = sandbox.ParseWorld(b); err != nil {
		t.Fatal(err)
	}
	_, url := startWorld(t, w, sandbox.Options{Facts: func(typ string) (*schema.Facts, bool) {
		if typ == bare {
			return &schema.Facts{PrimaryIdentifier: []string{"Id"}}, true
		}
		return nil, false
	}})
	cfn := cloudformation.NewFromConfig(cfg(url, mgmtKey, "us-east-1"))
	for typ, want := range map[string][]string{
		pinned: {"create", "delete", "list", "read", "update"},
		bare:   {"delete", "update"},
	} {
		out, err := cfn.DescribeType(ctx(t), &cloudformation.DescribeTypeInput{Type: cfntypes.RegistryTypeResource, TypeName: aws.String(typ)})
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		var doc struct {
			Handlers map[string]any `json:"handlers"`
		}
		if err := json.Unmarshal([]byte(aws.ToString(out.Schema)), &doc); err != nil {
			t.Fatal(err)
		}
		var got []string
		for h := range doc.Handlers {
			got = append(got, h)
		}
		sort.Strings(got)
		if diff := cmp.Diff(got, want); diff != "" {
			t.Errorf("%s handlers (-got +want):\n%s", typ, diff)
		}
	}
}
