package main

import (
	"context"
	"os"
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
