package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/validate"
)

var testStamp = Stamp{Version: "v9.8.7-snapshot-0123456789ab", Commit: "0123456789abcdef0123456789abcdef01234567", Date: "2026-01-02T03:04:05Z"}

// TestRelease builds the host's archive once (one target: the full matrix
// is scripts/release-snapshot.sh's) and tests the snapshot and the image
// made from it.
func TestRelease(t *testing.T) {
	dist := filepath.Join(t.TempDir(), "dist")
	arts, err := Snapshot(context.Background(), "../..", dist, testStamp, []Target{Host()}, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("snapshot", func(t *testing.T) { testSnapshotHost(t, dist, arts) })
	t.Run("image", func(t *testing.T) { testImage(t, dist) })
	t.Run("action install", func(t *testing.T) { testActionInstall(t, dist, arts[0].Archive) })
}

// TestOtherTargetsResolve: cmd/realdrift resolves for every release
// target but the host's (whose archive TestRelease builds and runs) —
// every package found with files for the target, CGO off — and a module
// whose package has files for linux only does not resolve for windows.
func TestOtherTargetsResolve(t *testing.T) {
	ctx := context.Background()
	for target := range machines() {
		if target == Host() {
			continue
		}
		t.Run(target.String(), func(t *testing.T) {
			if err := Resolve(ctx, "../..", "./cmd/realdrift", target); err != nil {
				t.Error(err)
			}
		})
	}
	mod := t.TempDir()
	for name, body := range map[string]string{
		"go.mod":         "module example.com/m\n\ngo 1.22\n",
		"main.go":        "package main\n\nimport \"example.com/m/p\"\n\nfunc main() { p.F() }\n",
		"p/p_linux.go":   "//go:build linux\n\npackage p\n\nfunc F() {}\n",
		"p/doc_linux.go": "package p\n",
	} {
		path := filepath.Join(mod, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := Resolve(ctx, mod, ".", Target{"linux", "amd64"}); err != nil {
		t.Errorf("linux: %v", err)
	}
	if err := Resolve(ctx, mod, ".", Target{"windows", "amd64"}); err == nil || !strings.Contains(err.Error(), "example.com/m/p") {
		t.Errorf("windows: %v, want example.com/m/p not to resolve", err)
	}
}

// testActionInstall runs the GitHub Action's install path
// (scripts/action.sh resolve|install) against a local release directory
// holding this snapshot, as a runner of the host's OS and architecture
// would download it (RD_DOWNLOAD_URL file://, no network): a named tag and
// the action's own release-tag ref install the archive's binary after
// checking checksums.txt; a moving ref (@v1) resolves to building from
// source; an archive that does not match checksums.txt is exit 2 and
// installs nothing — never a fallback to source.
func testActionInstall(t *testing.T, dist, archive string) {
	runnerOS := map[string]string{"linux": "Linux", "darwin": "macOS", "windows": "Windows"}[Host().OS]
	runnerArch := map[string]string{"amd64": "X64", "arm64": "ARM64"}[Host().Arch]
	release := func(t *testing.T, tamper bool) string {
		base := t.TempDir()
		dir := filepath.Join(base, testStamp.Version)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{archive, "checksums.txt"} {
			b, err := os.ReadFile(filepath.Join(dist, f))
			if err != nil {
				t.Fatal(err)
			}
			if tamper && f == "checksums.txt" {
				b = []byte(strings.Replace(string(b), "  "+archive, "  "+archive+".orig", 1) + strings.Repeat("0", 64) + "  " + archive + "\n")
			}
			if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return "file://" + base
	}
	action := func(t *testing.T, url, verb string, env ...string) (string, string, error) {
		tmp := t.TempDir()
		outputs, path := filepath.Join(tmp, "output"), filepath.Join(tmp, "path")
		cmd := exec.Command("bash", "../../scripts/action.sh", verb)
		cmd.Env = append([]string{
			"PATH=" + os.Getenv("PATH"), "HOME=" + tmp, "RUNNER_TEMP=" + filepath.Join(tmp, "runner"),
			"RUNNER_OS=" + runnerOS, "RUNNER_ARCH=" + runnerArch, "GITHUB_OUTPUT=" + outputs, "GITHUB_PATH=" + path,
			"RD_DOWNLOAD_URL=" + url,
		}, env...)
		log, err := cmd.CombinedOutput()
		o, _ := os.ReadFile(outputs)
		p, _ := os.ReadFile(path)
		if err == nil && verb == "install" {
			bin := filepath.Join(tmp, "runner", "realdrift-bin")
			if strings.TrimSpace(string(p)) != bin {
				t.Errorf("GITHUB_PATH = %q, want %s", p, bin)
			}
		}
		if err != nil && verb == "install" {
			if _, serr := os.Stat(filepath.Join(tmp, "runner", "realdrift-bin", "realdrift")); serr == nil {
				t.Errorf("a failed install left a binary")
			}
		}
		return string(log), string(o), err
	}
	good := release(t, false)
	for _, env := range [][]string{{"RD_VERSION=" + testStamp.Version}, {"RD_ACTION_REF=" + testStamp.Version}} {
		log, _, err := action(t, good, "install", env...)
		if err != nil || !strings.Contains(log, "realdrift "+testStamp.Version+" (commit 0123456789ab") {
			t.Errorf("install %v: %v\n%s", env, err, log)
		}
	}
	if _, out, err := action(t, good, "resolve", "RD_ACTION_REF="+testStamp.Version); err != nil || out != "mode=release\nversion="+testStamp.Version+"\n" {
		t.Errorf("resolve at the release's tag: %v, outputs %q", err, out)
	}
	for _, ref := range []string{"v1", "main", "v0.0.1"} {
		if _, out, err := action(t, good, "resolve", "RD_ACTION_REF="+ref); err != nil || out != "mode=source\nversion=source\n" {
			t.Errorf("resolve at %s (no such release): %v, outputs %q", ref, err, out)
		}
	}
	bad := release(t, true)
	for _, env := range [][]string{{"RD_VERSION=" + testStamp.Version}, {"RD_ACTION_REF=" + testStamp.Version}} {
		log, _, err := action(t, bad, "install", env...)
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 || !strings.Contains(log, archive+" does not match checksums.txt") {
			t.Errorf("install %v of a tampered release: %v (want exit 2)\n%s", env, err, log)
		}
	}
	if log, _, err := action(t, good, "install", "RD_VERSION=v9.9.9"); err == nil || !strings.Contains(log, "download ") {
		t.Errorf("install of a release that does not exist: %v (want an error, no fallback)\n%s", err, log)
	}
}

// testSnapshotHost: the host's archive holds an executable of the host's
// format and machine that prints the stamped version; checksums.txt and
// the SBOM are written; a binary of another machine fails the check.
func testSnapshotHost(t *testing.T, dist string, arts []Artifact) {
	if len(arts) != 1 || !strings.Contains(arts[0].Verified, "runs: realdrift "+testStamp.Version+" (commit 0123456789ab, 2026-01-02T03:04:05Z)") {
		t.Fatalf("artifacts %+v", arts)
	}
	sums, err := os.ReadFile(filepath.Join(dist, "checksums.txt"))
	if err != nil || !strings.HasSuffix(strings.TrimSpace(string(sums)), "  "+arts[0].Archive) {
		t.Errorf("checksums.txt: %q %v", sums, err)
	}
	sbom, err := os.ReadFile(filepath.Join(dist, "sbom.cdx.json"))
	if err != nil || !strings.Contains(string(sbom), `"pkg:golang/github.com/aws/aws-sdk-go-v2@`) {
		t.Errorf("sbom.cdx.json lacks the SDK module (%v)", err)
	}
	// The same archive claimed for another target fails its check.
	other := Target{"linux", "arm64"}
	if Host() == other {
		other = Target{"linux", "amd64"}
	}
	if _, err := Verify(context.Background(), filepath.Join(dist, arts[0].Archive), other, testStamp.Version); err == nil || !strings.Contains(err.Error(), "want "+machines()[other]) {
		t.Errorf("Verify as %s: %v, want a machine mismatch", other, err)
	}
}

// testImage: the OCI layout validates, names the platform, runs
// /realdrift as uid 65532 in /work; unpacked, the image's binary prints
// the version (in a chroot of the image's files as uid 65532 when the test
// runs as root); the docker tarball holds the same image.
func testImage(t *testing.T, dist string) {
	if Host().OS != "linux" {
		t.Fatalf("the image test runs on linux (host %s)", Host())
	}
	certs := "/etc/ssl/certs/ca-certificates.crt"
	if _, err := ImageFromDist(dist, []Target{Host()}, certs); err != nil {
		t.Fatal(err)
	}
	p, err := layout.FromPath(filepath.Join(dist, "image"))
	if err != nil {
		t.Fatal(err)
	}
	root, err := p.ImageIndex()
	if err != nil {
		t.Fatal(err)
	}
	rm, err := root.IndexManifest()
	if err != nil || len(rm.Manifests) != 1 || rm.Manifests[0].Annotations["org.opencontainers.image.ref.name"] != "realdrift:9.8.7-snapshot-0123456789ab" {
		t.Fatalf("index.json: %+v %v", rm, err)
	}
	idx, err := root.ImageIndex(rm.Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	if err := validate.Index(idx); err != nil {
		t.Fatalf("index does not validate: %v", err)
	}
	im, err := idx.IndexManifest()
	if err != nil || len(im.Manifests) != 1 || im.Manifests[0].Platform == nil || im.Manifests[0].Platform.Architecture != Host().Arch {
		t.Fatalf("platforms: %+v %v", im, err)
	}
	img, err := idx.Image(im.Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	got := []any{cfg.OS, cfg.Architecture, cfg.Config.Entrypoint, cfg.Config.User, cfg.Config.WorkingDir}
	want := []any{"linux", Host().Arch, []string{"/realdrift"}, "65532:65532", "/work"}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("config (-got +want):\n%s", diff)
	}

	out, err := RunImage(filepath.Join(dist, "image"), Host(), "version")
	if err != nil || !strings.HasPrefix(out, "realdrift "+testStamp.Version+" (commit 0123456789ab") {
		t.Errorf("the image's /realdrift version: %v\n%s", err, out)
	}
	rootDir := t.TempDir()
	if err := extract(img, rootDir); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(rootDir, "etc/ssl/certs/ca-certificates.crt")); err != nil || !strings.Contains(string(b), "BEGIN CERTIFICATE") {
		t.Errorf("no CA certificates in the image (%v)", err)
	}

	fromTar, err := tarball.ImageFromPath(filepath.Join(dist, "image.tar"), nil)
	if err != nil {
		t.Fatal(err)
	}
	d1, _ := layerDigests(t, img)
	d2, _ := layerDigests(t, fromTar)
	if diff := cmp.Diff(d1, d2); diff != "" {
		t.Errorf("image.tar's layers differ from the layout's (-layout +tar):\n%s", diff)
	}
}

func layerDigests(t *testing.T, img v1.Image) ([]string, error) {
	t.Helper()
	ls, err := img.Layers()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range ls {
		d, err := l.DiffID()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, d.String())
	}
	return out, nil
}
