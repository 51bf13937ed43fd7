package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"debug/buildinfo"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// pkgPath is the package whose variables the release stamp sets.
const pkgPath = "github.com/realdrift/realdrift/internal/cli"

// machines is each target's executable format and machine, the one table
// the architecture check reads.
func machines() map[Target]string {
	return map[Target]string{
		{"linux", "amd64"}:   "elf/" + elf.EM_X86_64.String(),
		{"linux", "arm64"}:   "elf/" + elf.EM_AARCH64.String(),
		{"darwin", "amd64"}:  "macho/" + macho.CpuAmd64.String(),
		{"darwin", "arm64"}:  "macho/" + macho.CpuArm64.String(),
		{"windows", "amd64"}: fmt.Sprintf("pe/%#x", pe.IMAGE_FILE_MACHINE_AMD64),
		{"windows", "arm64"}: fmt.Sprintf("pe/%#x", pe.IMAGE_FILE_MACHINE_ARM64),
	}
}

// Artifact is one built archive.
type Artifact struct {
	Target  Target
	Archive string // file name in the output directory
	// Verified says what the check found: the format and machine, and
	// the version line for the host's binary.
	Verified string
}

// ldflags are the linker flags of a release build.
func ldflags(st Stamp) string {
	return fmt.Sprintf("-s -w -X %s.releaseVersion=%s -X %s.releaseCommit=%s -X %s.releaseDate=%s", pkgPath, st.Version, pkgPath, st.Commit, pkgPath, st.Date)
}

// binaryName is the executable's name on the target.
func binaryName(t Target) string {
	if t.OS == "windows" {
		return "realdrift.exe"
	}
	return "realdrift"
}

// archiveName is the archive's file name.
func archiveName(st Stamp, t Target) string {
	ext := ".tar.gz"
	if t.OS == "windows" {
		ext = ".zip"
	}
	return fmt.Sprintf("realdrift_%s_%s_%s%s", strings.TrimPrefix(st.Version, "v"), t.OS, t.Arch, ext)
}

// Snapshot builds, packs and checks every target from the module in src,
// writing into out (emptied first). A release builds with trimpath
// (-trimpath: no build machine paths in the binary); the tests build
// without it, so they reuse the compiled packages the rest of the suite
// left in the build cache (-trimpath compiles every dependency anew).
func Snapshot(ctx context.Context, src, out string, st Stamp, targets []Target, trimpath bool) ([]Artifact, error) {
	if err := os.RemoveAll(out); err != nil {
		return nil, err
	}
	bin := filepath.Join(out, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return nil, err
	}
	mtime, err := time.Parse(time.RFC3339, st.Date)
	if err != nil {
		return nil, fmt.Errorf("stamp date: %w", err)
	}
	extra := map[string][]byte{}
	for _, f := range []string{"README.md", "NOTICE", "report.schema.json"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			return nil, err
		}
		extra[f] = b
	}
	var arts []Artifact
	var sums []string
	for _, t := range targets {
		exe := filepath.Join(bin, t.OS+"_"+t.Arch, binaryName(t))
		args := []string{"build", "-buildvcs=false", "-ldflags", ldflags(st), "-o", exe, "./cmd/realdrift"}
		if trimpath {
			args = append(args[:1], append([]string{"-trimpath"}, args[1:]...)...)
		}
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "GOOS="+t.OS, "GOARCH="+t.Arch, "CGO_ENABLED=0")
		if b, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("build %s: %w\n%s", t, err, b)
		}
		body, err := os.ReadFile(exe)
		if err != nil {
			return nil, err
		}
		files := map[string][]byte{binaryName(t): body}
		for k, v := range extra {
			files[k] = v
		}
		name := archiveName(st, t)
		packed, err := pack(t, files, mtime)
		if err != nil {
			return nil, fmt.Errorf("pack %s: %w", t, err)
		}
		if err := os.WriteFile(filepath.Join(out, name), packed, 0o644); err != nil {
			return nil, err
		}
		sum := sha256.Sum256(packed)
		sums = append(sums, hex.EncodeToString(sum[:])+"  "+name)
		arts = append(arts, Artifact{Target: t, Archive: name})
	}
	sort.Strings(sums)
	stamp, err := json.Marshal(st)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(out, "stamp.json"), append(stamp, '\n'), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(out, "checksums.txt"), []byte(strings.Join(sums, "\n")+"\n"), 0o644); err != nil {
		return nil, err
	}
	if err := writeSBOM(filepath.Join(out, "sbom.cdx.json"), filepath.Join(bin, arts[0].Target.OS+"_"+arts[0].Target.Arch, binaryName(arts[0].Target)), st); err != nil {
		return nil, err
	}
	for i := range arts {
		v, err := Verify(ctx, filepath.Join(out, arts[i].Archive), arts[i].Target, st.Version)
		if err != nil {
			return nil, err
		}
		arts[i].Verified = v
	}
	return arts, nil
}

// pack writes files (sorted, one mtime, mode 0755 for the binary) as the
// target's archive: zip for windows, tar.gz elsewhere.
func pack(t Target, files map[string][]byte, mtime time.Time) ([]byte, error) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	mode := func(n string) int64 {
		if n == binaryName(t) {
			return 0o755
		}
		return 0o644
	}
	var buf bytes.Buffer
	if t.OS == "windows" {
		zw := zip.NewWriter(&buf)
		for _, n := range names {
			h := &zip.FileHeader{Name: n, Method: zip.Deflate, Modified: mtime}
			h.SetMode(os.FileMode(mode(n)))
			f, err := zw.CreateHeader(h)
			if err != nil {
				return nil, err
			}
			if _, err := f.Write(files[n]); err != nil {
				return nil, err
			}
		}
		if err := zw.Close(); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	}
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, n := range names {
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: mode(n), Size: int64(len(files[n])), ModTime: mtime, Typeflag: tar.TypeReg, Format: tar.FormatPAX}); err != nil {
			return nil, err
		}
		if _, err := tw.Write(files[n]); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// unpack returns the target's binary from an archive.
func unpack(path string, t Target) ([]byte, error) {
	want := binaryName(t)
	if t.OS == "windows" {
		zr, err := zip.OpenReader(path)
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		for _, f := range zr.File {
			if f.Name == want {
				r, err := f.Open()
				if err != nil {
					return nil, err
				}
				defer r.Close()
				return io.ReadAll(r)
			}
		}
		return nil, fmt.Errorf("%s: no %s", path, want)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil, fmt.Errorf("%s: no %s", path, want)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if h.Name == want {
			if h.Mode&0o111 == 0 {
				return nil, fmt.Errorf("%s: %s is not executable (mode %o)", path, want, h.Mode)
			}
			return io.ReadAll(tr)
		}
	}
}

// Machine names a binary's executable format and machine, as machines
// spells them.
func Machine(b []byte) (string, error) {
	r := bytes.NewReader(b)
	if f, err := elf.NewFile(r); err == nil {
		return "elf/" + f.Machine.String(), nil
	}
	if f, err := macho.NewFile(r); err == nil {
		return "macho/" + f.Cpu.String(), nil
	}
	if f, err := pe.NewFile(r); err == nil {
		return fmt.Sprintf("pe/%#x", f.Machine), nil
	}
	return "", fmt.Errorf("not an ELF, Mach-O or PE executable")
}

// Verify checks an archive's binary: its format and machine are the
// target's, and on the host it runs `version` and prints version.
func Verify(ctx context.Context, archive string, t Target, version string) (string, error) {
	body, err := unpack(archive, t)
	if err != nil {
		return "", err
	}
	got, err := Machine(body)
	if err != nil {
		return "", fmt.Errorf("%s: %w", archive, err)
	}
	if want := machines()[t]; got != want {
		return "", fmt.Errorf("%s: binary is %s, want %s for %s", archive, got, want, t)
	}
	if t != Host() {
		return got, nil
	}
	dir, err := os.MkdirTemp("", "realdrift-verify-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	exe := filepath.Join(dir, binaryName(t))
	if err := os.WriteFile(exe, body, 0o755); err != nil {
		return "", err
	}
	out, err := exec.CommandContext(ctx, exe, "version").Output()
	if err != nil {
		return "", fmt.Errorf("%s: version: %w", archive, err)
	}
	line := strings.TrimSpace(string(out))
	if !strings.HasPrefix(line, "realdrift "+version+" (commit ") {
		return "", fmt.Errorf("%s: version printed %q, want realdrift %s (commit …)", archive, line, version)
	}
	return got + "; runs: " + line, nil
}

// writeSBOM writes a CycloneDX 1.5 SBOM of the modules linked into exe,
// read from the binary's own build information (no network).
func writeSBOM(path, exe string, st Stamp) error {
	info, err := buildinfo.ReadFile(exe)
	if err != nil {
		return fmt.Errorf("sbom: %w", err)
	}
	type component struct {
		Type    string `json:"type"`
		Name    string `json:"name"`
		Version string `json:"version"`
		PURL    string `json:"purl"`
	}
	purl := func(p, v string) string { return "pkg:golang/" + p + "@" + v }
	comps := []component{}
	for _, d := range info.Deps {
		if d.Replace != nil {
			d = d.Replace
		}
		c := component{Type: "library", Name: d.Path, Version: d.Version, PURL: purl(d.Path, d.Version)}
		comps = append(comps, c)
	}
	sort.Slice(comps, func(i, j int) bool { return comps[i].Name < comps[j].Name })
	doc := map[string]any{
		"bomFormat":   "CycloneDX",
		"specVersion": "1.5",
		"version":     1,
		"metadata": map[string]any{
			"timestamp":  st.Date,
			"component":  component{Type: "application", Name: "realdrift", Version: st.Version, PURL: purl(info.Main.Path, st.Version)},
			"properties": []map[string]string{{"name": "go", "value": info.GoVersion}, {"name": "commit", "value": st.Commit}},
		},
		"components": comps,
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// parseStamp reads the stamp.json a snapshot wrote.
func parseStamp(b []byte) (Stamp, error) {
	var st Stamp
	if err := json.Unmarshal(b, &st); err != nil || st.Version == "" || st.Date == "" {
		return Stamp{}, fmt.Errorf("stamp.json: not a release stamp (%v)", err)
	}
	return st, nil
}
