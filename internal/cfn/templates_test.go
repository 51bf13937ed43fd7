package cfn

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/realdrift/realdrift/internal/cfn/cfntest"
)

func TestParseSharedTemplates(t *testing.T) {
	for _, path := range cfntest.Files(t) {
		t.Run(cfntest.Rel(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			tpl, err := Parse(data)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if len(tpl.Resources) == 0 {
				t.Fatal("no resources")
			}
			for id, r := range tpl.Resources {
				if r.Type == "" || r.Properties == nil {
					t.Errorf("resource %s: Type %q, Properties %v", id, r.Type, r.Properties)
				}
			}
			t.Logf("%d parameters, %d mappings, %d conditions, %d resources, %d outputs",
				len(tpl.Parameters), len(tpl.Mappings), len(tpl.Conditions), len(tpl.Resources), len(tpl.Outputs))
		})
	}
}

// TestHandWrittenTemplateShortForms checks that the short forms in the
// hand-written YAML fixture come out in long form.
func TestHandWrittenTemplateShortForms(t *testing.T) {
	tpl, err := Parse(cfntest.Read(t, "hand-written/web-tier.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(tpl.Resources); got != 28 {
		t.Errorf("resources: got %d, want 28", got)
	}
	if !tpl.Parameters["DbPassword"].NoEcho {
		t.Error("DbPassword should be NoEcho")
	}
	if got := tpl.Resources["LogBucket"].DeletionPolicy; got != "Retain" {
		t.Errorf("LogBucket DeletionPolicy: got %q", got)
	}
	sub := tpl.Resources["PublicSubnetB"].Properties["CidrBlock"]
	want := map[string]any{"Fn::Select": []any{1.0, map[string]any{"Fn::Cidr": []any{
		map[string]any{"Fn::GetAtt": []any{"Vpc", "CidrBlock"}}, 4.0, 8.0}}}}
	if diff := cmp.Diff(sub, any(want)); diff != "" {
		t.Errorf("PublicSubnetB CidrBlock (-got +want)\n%s", diff)
	}
}
