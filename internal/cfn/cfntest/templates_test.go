package cfntest

import "testing"

func TestIsTemplate(t *testing.T) {
	tests := map[string]bool{
		"Stack.template.json":        true,
		"Child.nested.template.json": true,
		"web-tier.yaml":              true,
		"web-tier.yml":               true,
		"Stack.assets.json":          false,
		"Stack.metadata.json":        false,
		"manifest.json":              false,
		"README.md":                  false,
		"asset.abc/index.js":         false,
	}
	for name, want := range tests {
		if got := IsTemplate(name); got != want {
			t.Errorf("IsTemplate(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestFilesFindsTheSharedTemplates(t *testing.T) {
	if got := len(Files(t)); got < 10 {
		t.Errorf("found %d templates, want at least the 10 shared ones", got)
	}
}
