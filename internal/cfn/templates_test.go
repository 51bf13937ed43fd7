package cfn

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// templatesDir is where the shared real-world templates live, overridable
// with REALDRIFT_TEMPLATES_DIR.
func templatesDir() string {
	if d := os.Getenv("REALDRIFT_TEMPLATES_DIR"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "shared", "templates")
}

// templateFiles lists every template file under dir: .json files that are
// not cloud-assembly metadata, and .yaml/.yml files.
func templateFiles(t testing.TB, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		name := d.Name()
		switch {
		case strings.HasSuffix(name, ".assets.json"), strings.HasSuffix(name, ".metadata.json"), name == "manifest.json":
		case strings.HasSuffix(name, ".json"), strings.HasSuffix(name, ".yaml"), strings.HasSuffix(name, ".yml"):
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("templates dir %s: %v", dir, err)
		}
		t.Skipf("templates dir %s not readable (%v); set REALDRIFT_TEMPLATES_DIR", dir, err)
	}
	if len(files) == 0 {
		t.Fatalf("no templates found under %s", dir)
	}
	return files
}

func TestParseSharedTemplates(t *testing.T) {
	dir := templatesDir()
	for _, path := range templateFiles(t, dir) {
		rel, _ := filepath.Rel(dir, path)
		t.Run(rel, func(t *testing.T) {
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
	path := filepath.Join(templatesDir(), "hand-written", "web-tier.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skipf("%v; set REALDRIFT_TEMPLATES_DIR", err)
	}
	tpl, err := Parse(data)
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
