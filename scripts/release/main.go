// Command release builds realdrift's release artifacts without GoReleaser
// or a Docker daemon, the same artifacts .goreleaser.yaml describes:
//
//	go run ./scripts/release snapshot [-out dist] [-targets linux/amd64,...]
//	go run ./scripts/release image [-out dist] [-platforms linux/amd64,linux/arm64]
//
// snapshot builds cmd/realdrift for every target with one `go build
// -trimpath -buildvcs=false` each (CGO off, the release stamp set through
// -ldflags -X: version, commit, commit date from git), packs each binary
// with README.md, NOTICE and report.schema.json into realdrift_VERSION_OS_ARCH.tar.gz (.zip for
// windows), writes checksums.txt (SHA-256) and a CycloneDX SBOM
// (sbom.cdx.json, from the binary's own module list: no network), then
// checks every archive: its binary is the target's format and architecture
// (debug/elf, debug/macho, debug/pe), and the one for this machine runs
// `version` and prints the stamped version.
//
// image writes an OCI image layout (dist/image, and dist/image.tar of the
// same directory) from the snapshot's linux binaries: one layer on an empty
// base holding the binary as /realdrift (the entrypoint), the machine's CA
// certificates, and /etc/passwd naming the non-root user 65532 the image
// runs as; an index with one manifest per platform. It needs no daemon and
// no base image from a registry. It then runs the host platform's image
// (RunImage: unpacked, chrooted, as uid 65532) with `version`.
//
// Resolve is the cross-target check CI runs instead of five cross-builds
// (see .goreleaser.yaml for the measurement): `go list -deps` of
// cmd/realdrift under each other target, compiling nothing.
//
// Archives are reproducible: entries are sorted and stamped with the
// commit time, so the same commit gives the same bytes.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

func main() {
	ctx := context.Background()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(2)
	}
}

// defaultTargets are the release's GOOS/GOARCH pairs.
const defaultTargets = "linux/amd64,linux/arm64,darwin/amd64,darwin/arm64,windows/amd64,windows/arm64"

func run(ctx context.Context, args []string, w io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: release snapshot|image [flags]")
	}
	fs := flag.NewFlagSet("release "+args[0], flag.ContinueOnError)
	out := fs.String("out", "dist", "output `DIR`")
	switch args[0] {
	case "snapshot":
		targets := fs.String("targets", defaultTargets, "comma-separated GOOS/GOARCH `LIST`")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		ts, err := parseTargets(*targets)
		if err != nil {
			return err
		}
		st, err := gitStamp(ctx)
		if err != nil {
			return err
		}
		start := time.Now()
		arts, err := Snapshot(ctx, ".", *out, st, ts, true)
		if err != nil {
			return err
		}
		for _, a := range arts {
			fmt.Fprintf(w, "%s  %s\n", a.Archive, a.Verified)
		}
		fmt.Fprintf(w, "snapshot %s: %d archives, checksums.txt, sbom.cdx.json in %s (%s)\n", st.Version, len(arts), *out, time.Since(start).Round(time.Second))
		return nil
	case "image":
		platforms := fs.String("platforms", "linux/amd64,linux/arm64", "comma-separated linux `LIST` (their archives must be in -out)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		ts, err := parseTargets(*platforms)
		if err != nil {
			return err
		}
		digest, err := ImageFromDist(*out, ts, "/etc/ssl/certs/ca-certificates.crt")
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "image %s: OCI layout %s, tarball %s\n", digest, filepath.Join(*out, "image"), filepath.Join(*out, "image.tar"))
		for _, t := range ts {
			if t != Host() {
				continue
			}
			line, err := RunImage(filepath.Join(*out, "image"), t, "version")
			if err != nil {
				return fmt.Errorf("the %s image's /realdrift version: %w\n%s", t, err, line)
			}
			fmt.Fprintf(w, "image %s runs: %s", t, line)
		}
		return nil
	}
	return fmt.Errorf("unknown command %q: snapshot or image", args[0])
}

// Target is one GOOS/GOARCH pair.
type Target struct{ OS, Arch string }

func (t Target) String() string { return t.OS + "/" + t.Arch }

// Host is the machine's own target.
func Host() Target { return Target{runtime.GOOS, runtime.GOARCH} }

func parseTargets(list string) ([]Target, error) {
	var out []Target
	for _, s := range strings.Split(list, ",") {
		os, arch, ok := strings.Cut(strings.TrimSpace(s), "/")
		if !ok || os == "" || arch == "" {
			return nil, fmt.Errorf("target %q is not GOOS/GOARCH", s)
		}
		if _, ok := machines()[Target{os, arch}]; !ok {
			return nil, fmt.Errorf("target %s is not one the release builds", s)
		}
		out = append(out, Target{os, arch})
	}
	return out, nil
}

// Stamp is what the linker writes into the binary (internal/cli's release
// stamp).
type Stamp struct{ Version, Commit, Date string }

// gitStamp is a snapshot's stamp: the last tag (v0.0.0 without one) with
// -snapshot-SHORT, the commit, and its commit time.
func gitStamp(ctx context.Context) (Stamp, error) {
	git := func(args ...string) (string, error) {
		out, err := exec.CommandContext(ctx, "git", args...).Output()
		return strings.TrimSpace(string(out)), err
	}
	commit, err := git("rev-parse", "HEAD")
	if err != nil {
		return Stamp{}, fmt.Errorf("git rev-parse HEAD: %w", err)
	}
	date, err := git("log", "-1", "--format=%cI", "HEAD")
	if err != nil {
		return Stamp{}, fmt.Errorf("git log: %w", err)
	}
	tag, err := git("describe", "--tags", "--abbrev=0")
	if err != nil || tag == "" {
		tag = "v0.0.0"
	}
	return Stamp{Version: tag + "-snapshot-" + commit[:12], Commit: commit, Date: date}, nil
}
