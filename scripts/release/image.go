package main

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// The image's user: the non-root uid/gid distroless images call nonroot.
const (
	imageUID  = 65532
	imageUser = "65532:65532"
	imageHome = "/home/nonroot"
	imageWork = "/work"
)

// rootfs is the image's one layer: the binary as /realdrift, the CA
// certificates, /etc/passwd and /etc/group naming the user, its home and
// the working directory (owned by it), and a /tmp.
func rootfs(binary, certs []byte, mtime time.Time) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	dir := func(path string, mode int64, uid int) error {
		return tw.WriteHeader(&tar.Header{Name: path + "/", Typeflag: tar.TypeDir, Mode: mode, Uid: uid, Gid: uid, ModTime: mtime, Format: tar.FormatPAX})
	}
	file := func(path string, mode int64, body []byte) error {
		if err := tw.WriteHeader(&tar.Header{Name: path, Typeflag: tar.TypeReg, Mode: mode, Size: int64(len(body)), ModTime: mtime, Format: tar.FormatPAX}); err != nil {
			return err
		}
		_, err := tw.Write(body)
		return err
	}
	passwd := fmt.Sprintf("root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:%d:%d:nonroot:%s:/sbin/nologin\n", imageUID, imageUID, imageHome)
	group := fmt.Sprintf("root:x:0:\nnonroot:x:%d:\n", imageUID)
	steps := []func() error{
		func() error { return dir("etc", 0o755, 0) },
		func() error { return file("etc/group", 0o644, []byte(group)) },
		func() error { return file("etc/passwd", 0o644, []byte(passwd)) },
		func() error { return dir("etc/ssl", 0o755, 0) },
		func() error { return dir("etc/ssl/certs", 0o755, 0) },
		func() error { return file("etc/ssl/certs/ca-certificates.crt", 0o644, certs) },
		func() error { return dir("home", 0o755, 0) },
		func() error { return dir(strings.TrimPrefix(imageHome, "/"), 0o700, imageUID) },
		func() error { return file("realdrift", 0o755, binary) },
		func() error { return dir("tmp", 0o1777, 0) },
		func() error { return dir(strings.TrimPrefix(imageWork, "/"), 0o755, imageUID) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Image is one platform's image: rootfs on an empty base, running
// /realdrift as the non-root user in /work.
func Image(t Target, binary, certs []byte, st Stamp) (v1.Image, error) {
	if t.OS != "linux" {
		return nil, fmt.Errorf("image: %s is not a linux target", t)
	}
	if !bytes.Contains(certs, []byte("BEGIN CERTIFICATE")) {
		return nil, fmt.Errorf("image: no CA certificates (install Debian's ca-certificates)")
	}
	mtime, err := time.Parse(time.RFC3339, st.Date)
	if err != nil {
		return nil, fmt.Errorf("image: stamp date: %w", err)
	}
	fs, err := rootfs(binary, certs, mtime)
	if err != nil {
		return nil, fmt.Errorf("image: layer: %w", err)
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(fs)), nil },
		tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, fmt.Errorf("image: layer: %w", err)
	}
	img := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	img, err = mutate.Append(img, mutate.Addendum{Layer: layer, Annotations: map[string]string{"org.opencontainers.image.title": "realdrift " + st.Version}, History: v1.History{Created: v1.Time{Time: mtime}, CreatedBy: "scripts/release image", Comment: "realdrift " + st.Version}})
	if err != nil {
		return nil, fmt.Errorf("image: %w", err)
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, fmt.Errorf("image: %w", err)
	}
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture = t.OS, t.Arch
	cfg.Created = v1.Time{Time: mtime}
	cfg.Config = v1.Config{
		Entrypoint: []string{"/realdrift"},
		User:       imageUser,
		WorkingDir: imageWork,
		Env:        []string{"HOME=" + imageHome, "PATH=/"},
		Labels: map[string]string{
			"org.opencontainers.image.title":    "realdrift",
			"org.opencontainers.image.version":  st.Version,
			"org.opencontainers.image.revision": st.Commit,
			"org.opencontainers.image.created":  st.Date,
		},
	}
	img, err = mutate.ConfigFile(img, cfg)
	if err != nil {
		return nil, fmt.Errorf("image: %w", err)
	}
	return img, nil
}

// WriteImages writes the images as an OCI layout in dir (an index with one
// manifest per platform, named realdrift:VERSION) and the host's image
// (else the first) as a docker-loadable tarball at tarPath. It returns the
// index's digest.
func WriteImages(dir, tarPath string, imgs map[Target]v1.Image, st Stamp) (v1.Hash, error) {
	idx := mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
	var first v1.Image
	for _, t := range sortedTargets(imgs) {
		img := imgs[t]
		if first == nil || t == Host() {
			first = img
		}
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{Add: img, Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: t.OS, Architecture: t.Arch}}})
	}
	if first == nil {
		return v1.Hash{}, fmt.Errorf("image: no platforms")
	}
	if err := os.RemoveAll(dir); err != nil {
		return v1.Hash{}, err
	}
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return v1.Hash{}, fmt.Errorf("image layout: %w", err)
	}
	ref := "realdrift:" + strings.TrimPrefix(st.Version, "v")
	if err := p.AppendIndex(idx, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": ref})); err != nil {
		return v1.Hash{}, fmt.Errorf("image layout: %w", err)
	}
	tag, err := name.NewTag(ref)
	if err != nil {
		return v1.Hash{}, fmt.Errorf("image tag: %w", err)
	}
	if err := tarball.WriteToFile(tarPath, tag, first); err != nil {
		return v1.Hash{}, fmt.Errorf("image tarball: %w", err)
	}
	return idx.Digest()
}

func sortedTargets(imgs map[Target]v1.Image) []Target {
	var out []Target
	for _, t := range []Target{{"linux", "amd64"}, {"linux", "arm64"}} {
		if _, ok := imgs[t]; ok {
			out = append(out, t)
		}
	}
	return out
}

// ImageFromDist builds the images from the snapshot's archives in dist
// and writes dist/image (OCI layout) and dist/image.tar.
func ImageFromDist(dist string, targets []Target, certFile string) (v1.Hash, error) {
	certs, err := os.ReadFile(certFile)
	if err != nil {
		return v1.Hash{}, fmt.Errorf("image: CA certificates: %w (install Debian's ca-certificates)", err)
	}
	b, err := os.ReadFile(filepath.Join(dist, "stamp.json"))
	if err != nil {
		return v1.Hash{}, fmt.Errorf("image: %w (run the snapshot first)", err)
	}
	st, err := parseStamp(b)
	if err != nil {
		return v1.Hash{}, err
	}
	imgs := map[Target]v1.Image{}
	for _, t := range targets {
		bin, err := unpack(filepath.Join(dist, archiveName(st, t)), t)
		if err != nil {
			return v1.Hash{}, fmt.Errorf("image: %w", err)
		}
		if imgs[t], err = Image(t, bin, certs, st); err != nil {
			return v1.Hash{}, err
		}
	}
	return WriteImages(filepath.Join(dist, "image"), filepath.Join(dist, "image.tar"), imgs, st)
}

// RunImage runs the image of platform t from the OCI layout in dir as a
// container runtime would, without one: it unpacks the image's files into
// a temporary root and runs its entrypoint with args, in its working
// directory and environment — chrooted into that root as the image's user
// when this process is root, else directly from the unpacked files. It
// returns the combined output.
func RunImage(dir string, t Target, args ...string) (string, error) {
	p, err := layout.FromPath(dir)
	if err != nil {
		return "", err
	}
	root, err := p.ImageIndex()
	if err != nil {
		return "", err
	}
	rm, err := root.IndexManifest()
	if err != nil || len(rm.Manifests) != 1 {
		return "", fmt.Errorf("%s: want one index in index.json (%v)", dir, err)
	}
	idx, err := root.ImageIndex(rm.Manifests[0].Digest)
	if err != nil {
		return "", err
	}
	im, err := idx.IndexManifest()
	if err != nil {
		return "", err
	}
	var img v1.Image
	for _, m := range im.Manifests {
		if m.Platform != nil && m.Platform.OS == t.OS && m.Platform.Architecture == t.Arch {
			if img, err = idx.Image(m.Digest); err != nil {
				return "", err
			}
		}
	}
	if img == nil {
		return "", fmt.Errorf("%s: no image for %s", dir, t)
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return "", err
	}
	rootDir, err := os.MkdirTemp("", "realdrift-image-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(rootDir)
	if err := os.Chmod(rootDir, 0o755); err != nil { // the image's / for its user
		return "", err
	}
	if err := extract(img, rootDir); err != nil {
		return "", err
	}
	cmd := exec.Command(cfg.Config.Entrypoint[0], append(cfg.Config.Entrypoint[1:], args...)...)
	cmd.Dir, cmd.Env = cfg.Config.WorkingDir, cfg.Config.Env
	if os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: rootDir, Credential: &syscall.Credential{Uid: imageUID, Gid: imageUID}}
	} else {
		cmd.Path = filepath.Join(rootDir, cfg.Config.Entrypoint[0])
		cmd.Dir = filepath.Join(rootDir, cfg.Config.WorkingDir)
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// extract writes the image's flattened filesystem into dir, with the
// modes it records and, when this process is root, its owners.
func extract(img v1.Image, dir string) error {
	rc := mutate.Extract(img)
	defer rc.Close()
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		path := filepath.Join(dir, filepath.Clean("/"+h.Name))
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(path, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			b, err := io.ReadAll(tr)
			if err != nil {
				return err
			}
			if err := os.WriteFile(path, b, 0o600); err != nil {
				return err
			}
		default:
			return fmt.Errorf("image: unexpected entry %s (type %c)", h.Name, h.Typeflag)
		}
		if err := os.Chmod(path, os.FileMode(h.Mode).Perm()); err != nil {
			return err
		}
		if os.Geteuid() == 0 {
			if err := os.Lchown(path, h.Uid, h.Gid); err != nil {
				return err
			}
		}
	}
}
