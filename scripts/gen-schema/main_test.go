package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/schema"
)

const (
	bucket = `{"typeName":"AWS::S3::Bucket","properties":{"BucketName":{"type":"string"}},"primaryIdentifier":["/properties/BucketName"],"handlers":{"read":{}}}`
	role   = `{"typeName":"AWS::IAM::Role","properties":{"Path":{"type":"string","default":"/"}}}`
)

// fakePrefix lays out what npm install leaves in a prefix.
func fakePrefix(t *testing.T, lockVersion string, lines ...string) string {
	t.Helper()
	prefix := t.TempDir()
	pkg := filepath.Join(prefix, "node_modules", pkgName)
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	lock := `{"name":"x","lockfileVersion":3,"packages":{"node_modules/` + pkgName +
		`":{"version":"` + lockVersion + `","integrity":"sha512-test"}}}`
	if err := os.WriteFile(filepath.Join(prefix, "node_modules", ".package-lock.json"), []byte(lock), 0o644); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(strings.Join(lines, "\n") + "\n"))
	zw.Close()
	if err := os.WriteFile(filepath.Join(pkg, schemaFile), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return prefix
}

func TestRunIsDeterministic(t *testing.T) {
	prefix := fakePrefix(t, pkgVersion, bucket, role)
	dir := t.TempDir()
	var outs, headers [2][]byte
	for i := range 2 {
		out, header := filepath.Join(dir, "s.json.gz"), filepath.Join(dir, "h.go")
		if err := run(out, header, prefix, ""); err != nil {
			t.Fatal(err)
		}
		outs[i], _ = os.ReadFile(out)
		headers[i], _ = os.ReadFile(header)
	}
	if !bytes.Equal(outs[0], outs[1]) || !bytes.Equal(headers[0], headers[1]) {
		t.Error("two runs wrote different bytes")
	}
	snap, err := schema.ReadSnapshot(bytes.NewReader(outs[0]))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(snap.Types(), ","); got != "AWS::IAM::Role,AWS::S3::Bucket" {
		t.Errorf("types %s", got)
	}
	if src := snap.Source(); src.Version != pkgVersion || src.Integrity != "sha512-test" || src.Package != pkgName {
		t.Errorf("source %+v", src)
	}
	h := string(headers[0])
	for _, want := range []string{"DO NOT EDIT", `snapshotVersion   = "` + pkgVersion + `"`, `snapshotIntegrity = "sha512-test"`, "snapshotTypes     = 2", "snapshotSHA256"} {
		if !strings.Contains(h, want) {
			t.Errorf("header lacks %q:\n%s", want, h)
		}
	}
}

func TestRunRejects(t *testing.T) {
	cases := []struct {
		name    string
		prefix  string
		wantErr string
	}{
		{"other version", fakePrefix(t, "0.0.1", bucket), "want " + pkgVersion},
		{"duplicate type", fakePrefix(t, pkgVersion, bucket, bucket), "duplicate type"},
		{"bad schema", fakePrefix(t, pkgVersion, `{"typeName":"X"}`), "line 1"},
		{"no schemas", fakePrefix(t, pkgVersion), "no schemas"},
		{"no install", t.TempDir(), ".package-lock.json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			err := run(filepath.Join(dir, "s"), filepath.Join(dir, "h"), c.prefix, "")
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("error %v, want one mentioning %q", err, c.wantErr)
			}
		})
	}
}
