package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Resolve checks that the module in src resolves for t as a release build
// does (CGO off): every package cmd/realdrift imports, with the files t's
// build constraints select, is found and none is left without files — what
// a build of t would fail on first (a term_linux.go with no term_other.go
// counterpart, a dependency without t's files). It runs `go list -deps`,
// which compiles nothing, so it is the cross-target check CI affords: a
// cold cross-build of one target costs what the whole suite does (see
// .goreleaser.yaml). pkg is the package to resolve (./cmd/realdrift).
func Resolve(ctx context.Context, src, pkg string, t Target) error {
	const format = `{{if .Error}}{{.ImportPath}}: {{.Error.Err}}{{"\n"}}{{end}}{{range .DepsErrors}}{{.Err}}{{"\n"}}{{end}}{{if and (not .Goroot) (not .GoFiles) (not .Error)}}{{.ImportPath}}: no Go files for this target{{"\n"}}{{end}}`
	cmd := exec.CommandContext(ctx, "go", "list", "-e", "-deps", "-f", format, pkg)
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOOS="+t.OS, "GOARCH="+t.Arch, "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list for %s: %w\n%s", t, err, stderr.Bytes())
	}
	if problems := strings.TrimSpace(string(out)); problems != "" {
		return fmt.Errorf("%s does not resolve for %s:\n%s", pkg, t, problems)
	}
	return nil
}
