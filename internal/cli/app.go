package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/inputfile"
	"github.com/realdrift/realdrift/internal/report"
)

// appAssembly is what --app yields: the stacks of a CDK cloud assembly.
type appAssembly struct {
	dir    string
	stacks []appStack
	// temp is set when dir is a temporary directory the app command wrote:
	// remove deletes it.
	temp bool
}

// remove deletes the assembly's directory when realdrift created it.
func (a *appAssembly) remove() {
	if a != nil && a.temp {
		_ = os.RemoveAll(a.dir)
	}
}

// appStack is one stack artifact of a cloud assembly.
type appStack struct {
	name string
	// region is the stack's pinned region ("" when environment-agnostic).
	region string
	// templateFile is the synthesized template's path.
	templateFile string
	// paths maps logical id → construct path (from the aws:cdk:logicalId
	// metadata entries).
	paths map[string]string
	// sources maps logical id → the construct's source file and line:
	// the first frame of the aws:cdk:logicalId entry's trace (written when
	// the app is synthesized with CDK_DEBUG / --debug) outside
	// node_modules and the runtime.
	sources map[string]report.Source
}

// allPinned reports whether every stack pins its region, so no default
// region is needed.
func (a *appAssembly) allPinned() bool {
	if len(a.stacks) == 0 {
		return false
	}
	for _, s := range a.stacks {
		if s.region == "" {
			return false
		}
	}
	return true
}

// maxAssemblyFile is the size limit of one cloud assembly file
// (manifest.json, a template, a metadata file): far above CloudFormation's
// own template limit, far below what a wrong path could feed a reader.
const maxAssemblyFile = 64 << 20

// template reads the stack's synthesized template.
func (s *appStack) template() ([]byte, error) {
	data, err := inputfile.Read(s.templateFile, maxAssemblyFile)
	if err != nil {
		return nil, fmt.Errorf("synthesized template of %s: %w", s.name, err)
	}
	return data, nil
}

// loadApp reads the cloud assembly app names: a directory holding
// manifest.json, or else a command run through the shell with CDK_OUTDIR
// set to a fresh temporary directory that then holds the assembly.
func loadApp(ctx context.Context, s IO, app string) (*appAssembly, error) {
	if fi, err := os.Stat(app); err == nil && fi.IsDir() {
		return readAssembly(app)
	}
	out, err := os.MkdirTemp("", "realdrift-cdkout-")
	if err != nil {
		return nil, fmt.Errorf("--app: %w", err)
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", app)
	cmd.Env = append(os.Environ(), "CDK_OUTDIR="+out)
	cmd.Stdout = s.Stderr // the app's chatter must not mix with a --json report
	cmd.Stderr = s.Stderr
	if err := cmd.Run(); err != nil {
		_ = os.RemoveAll(out)
		return nil, fmt.Errorf("--app %q: run: %w", app, err)
	}
	a, err := readAssembly(out)
	if err != nil {
		_ = os.RemoveAll(out)
		return nil, fmt.Errorf("--app %q: %w", app, err)
	}
	a.temp = true
	return a, nil
}

type manifest struct {
	Artifacts map[string]artifact `json:"artifacts"`
}

type artifact struct {
	Type                   string                       `json:"type"`
	Environment            string                       `json:"environment"`
	Properties             json.RawMessage              `json:"properties"`
	Metadata               map[string][]json.RawMessage `json:"metadata"`
	AdditionalMetadataFile string                       `json:"additionalMetadataFile"`
	DisplayName            string                       `json:"displayName"`
}

type stackProps struct {
	TemplateFile string `json:"templateFile"`
	StackName    string `json:"stackName"`
}

type nestedProps struct {
	DirectoryName string `json:"directoryName"`
}

type metadataEntry struct {
	Type  string          `json:"type"`
	Data  json.RawMessage `json:"data"`
	Trace []string        `json:"trace"`
}

// traceFrame matches a stack-trace frame's file and line: "at new X
// (/app/lib/x.ts:12:5)", "at /app/lib/x.ts:12:5", "File "/app/x.py", line
// 12" (Python) and "/app/x.go:12" forms.
var traceFrame = regexp.MustCompile(`(?:\(|at |File "|^)([^\s()"]+?\.[A-Za-z]+)(?::(\d+)(?::\d+)?\)?$|", line (\d+))`)

// traceSource is the first frame of a construct's trace in the app's own
// code (not in node_modules, site-packages or the runtime), its file
// absolute (relative files are the app directory's).
func traceSource(trace []string, appDir string) (report.Source, bool) {
	for _, fr := range trace {
		m := traceFrame.FindStringSubmatch(strings.TrimSpace(fr))
		if m == nil {
			continue
		}
		file, line := m[1], m[2]
		if line == "" {
			line = m[3]
		}
		if strings.Contains(file, "node_modules") || strings.Contains(file, "site-packages") || strings.HasPrefix(file, "node:") || strings.Contains(file, "/jsii-kernel-") || strings.Contains(file, "/jsii-runtime") {
			continue
		}
		n, err := strconv.Atoi(line)
		if err != nil || n < 1 {
			continue
		}
		if !filepath.IsAbs(file) {
			file = filepath.Join(appDir, file)
		}
		return report.Source{File: file, Line: n}, true
	}
	return report.Source{}, false
}

// maxAssemblyDepth bounds nested assemblies (CDK Stages).
const maxAssemblyDepth = 8

// readAssembly reads the stacks of the cloud assembly in dir, descending
// into nested assemblies (CDK Stages).
func readAssembly(dir string) (*appAssembly, error) {
	a := &appAssembly{dir: dir}
	if err := a.read(dir, 0); err != nil {
		return nil, err
	}
	if len(a.stacks) == 0 {
		return nil, fmt.Errorf("cloud assembly %s has no stacks", dir)
	}
	return a, nil
}

func (a *appAssembly) read(dir string, depth int) error {
	if depth > maxAssemblyDepth {
		return fmt.Errorf("cloud assembly %s: nested more than %d deep", dir, maxAssemblyDepth)
	}
	name := filepath.Join(dir, "manifest.json")
	data, err := inputfile.Read(name, maxAssemblyFile)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%s is not a cloud assembly: no manifest.json", dir)
		}
		return fmt.Errorf("read cloud assembly: %w", err)
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	ids := make([]string, 0, len(m.Artifacts))
	for id := range m.Artifacts {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		art := m.Artifacts[id]
		switch art.Type {
		case "aws:cloudformation:stack":
			st, err := stackOf(dir, id, art)
			if err != nil {
				return fmt.Errorf("%s: artifact %s: %w", name, id, err)
			}
			a.stacks = append(a.stacks, st)
		case "cdk:cloud-assembly":
			var p nestedProps
			if err := json.Unmarshal(art.Properties, &p); err != nil || p.DirectoryName == "" {
				return fmt.Errorf("%s: nested assembly %s has no directoryName", name, id)
			}
			if err := a.read(filepath.Join(dir, filepath.Clean(p.DirectoryName)), depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func stackOf(dir, id string, art artifact) (appStack, error) {
	var p stackProps
	if len(art.Properties) > 0 {
		if err := json.Unmarshal(art.Properties, &p); err != nil {
			return appStack{}, fmt.Errorf("properties: %w", err)
		}
	}
	if p.TemplateFile == "" {
		return appStack{}, errors.New("no templateFile")
	}
	st := appStack{name: p.StackName, templateFile: filepath.Join(dir, filepath.Clean(p.TemplateFile)), paths: map[string]string{}, sources: map[string]report.Source{}}
	if st.name == "" {
		st.name = id
	}
	// environment is aws://<account>/<region>; unknown-region means the
	// stack is environment-agnostic.
	if env, ok := strings.CutPrefix(art.Environment, "aws://"); ok {
		if _, region, ok := strings.Cut(env, "/"); ok && region != "" && region != "unknown-region" {
			st.region = region
		}
	}
	meta := art.Metadata
	if art.AdditionalMetadataFile != "" {
		data, err := inputfile.Read(filepath.Join(dir, filepath.Clean(art.AdditionalMetadataFile)), maxAssemblyFile)
		if err != nil {
			return appStack{}, fmt.Errorf("metadata: %w", err)
		}
		var more map[string][]json.RawMessage
		if err := json.Unmarshal(data, &more); err != nil {
			return appStack{}, fmt.Errorf("metadata %s: %w", art.AdditionalMetadataFile, err)
		}
		if meta == nil {
			meta = more
		} else {
			for k, v := range more {
				meta[k] = append(meta[k], v...)
			}
		}
	}
	for path, entries := range meta {
		for _, raw := range entries {
			var e metadataEntry
			if json.Unmarshal(raw, &e) != nil || e.Type != "aws:cdk:logicalId" {
				continue
			}
			var lid string
			if json.Unmarshal(e.Data, &lid) == nil && lid != "" {
				st.paths[lid] = strings.TrimPrefix(path, "/")
				if src, ok := traceSource(e.Trace, filepath.Dir(dir)); ok {
					st.sources[lid] = src
				}
			}
		}
	}
	return st, nil
}
