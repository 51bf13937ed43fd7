package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolveRegion(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	if err := os.WriteFile(cfg, []byte("[default]\nregion = ap-south-1\n\n[profile dev]\nregion = eu-west-1\n\n[profile bare]\noutput = json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pinned := &appAssembly{stacks: []appStack{{name: "A", region: "sa-east-1"}, {name: "B", region: "eu-north-1"}}}
	half := &appAssembly{stacks: []appStack{{name: "A", region: "sa-east-1"}, {name: "B"}}}
	cases := []struct {
		name    string
		flag    string
		profile string
		env     map[string]string
		app     *appAssembly
		want    string
	}{
		{"flag wins", "us-west-2", "", map[string]string{"AWS_REGION": "us-east-1"}, nil, "us-west-2"},
		{"AWS_REGION", "", "", map[string]string{"AWS_REGION": "us-east-1", "AWS_DEFAULT_REGION": "us-east-2"}, nil, "us-east-1"},
		{"AWS_DEFAULT_REGION", "", "", map[string]string{"AWS_DEFAULT_REGION": "us-east-2"}, nil, "us-east-2"},
		{"profile flag", "", "dev", map[string]string{"AWS_CONFIG_FILE": cfg}, nil, "eu-west-1"},
		{"AWS_PROFILE", "", "", map[string]string{"AWS_CONFIG_FILE": cfg, "AWS_PROFILE": "dev"}, nil, "eu-west-1"},
		{"profile without region falls back to default", "", "bare", map[string]string{"AWS_CONFIG_FILE": cfg}, nil, "ap-south-1"},
		{"default profile", "", "", map[string]string{"AWS_CONFIG_FILE": cfg}, nil, "ap-south-1"},
		{"app pins every stack's region", "", "", map[string]string{"AWS_CONFIG_FILE": filepath.Join(dir, "none")}, pinned, "sa-east-1"},
		{"app pins some stacks only", "", "", map[string]string{"AWS_CONFIG_FILE": filepath.Join(dir, "none")}, half, ""},
		{"none", "", "", map[string]string{"AWS_CONFIG_FILE": filepath.Join(dir, "none")}, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := stackFlags{region: c.flag, profile: c.profile}
			s := IO{Getenv: func(k string) string { return c.env[k] }}
			got, err := f.resolveRegion(t.Context(), s, c.app)
			if c.want == "" {
				if err == nil || !strings.Contains(err.Error(), "no region") {
					t.Errorf("got %q, %v; want a no-region error", got, err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Errorf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}
