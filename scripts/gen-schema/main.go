// Command gen-schema regenerates internal/schema's embedded snapshot of
// registry schema facts.
//
// It installs the pinned registry-schema package with npm into a temporary
// directory (or reads an already-installed one with -prefix), extracts the
// facts of every raw provider schema with schema.ParseRegistry, and writes
// the gzipped snapshot plus a small Go header recording the package name,
// version, integrity and the snapshot's SHA-256. With -shapes it also
// writes each type's structural JSON Schema (schema.Shape: types,
// members, enumerations, ranges; no descriptions or patterns), which the
// sandbox conformance test validates Cloud Control models against. Only
// derived facts and shapes are written; the package's own files are never
// copied.
//
// Run it through go generate ./internal/schema/. The output depends only
// on the package contents, so two runs give the same bytes.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/realdrift/realdrift/internal/schema"
)

const (
	pkgName    = "@propulsionworks/cfn-resource-schemas"
	pkgVersion = "0.1.71"
	schemaFile = "schemas.ndjson.gz"
)

func main() {
	out := flag.String("out", "snapshot.json.gz", "snapshot file to write")
	header := flag.String("header", "snapshot_gen.go", "Go header file to write")
	prefix := flag.String("prefix", "", "an npm prefix where the package is already installed (default: install into a temporary directory)")
	shapes := flag.String("shapes", "", "also write the structural JSON Schema of every type (schema.Shape) to this gzipped file")
	flag.Parse()
	if err := run(*out, *header, *prefix, *shapes); err != nil {
		fmt.Fprintln(os.Stderr, "gen-schema:", err)
		os.Exit(1)
	}
}

func run(out, header, prefix, shapes string) error {
	if prefix == "" {
		tmp, err := os.MkdirTemp("", "gen-schema-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		if err := install(tmp); err != nil {
			return err
		}
		prefix = tmp
	}
	src, err := lockedSource(prefix)
	if err != nil {
		return err
	}
	types, err := readSchemas(filepath.Join(prefix, "node_modules", pkgName, schemaFile))
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := schema.WriteSnapshot(&buf, src, types); err != nil {
		return err
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	sum := sha256.Sum256(buf.Bytes())
	code, err := headerSource(src, len(types), hex.EncodeToString(sum[:]))
	if err != nil {
		return err
	}
	if err := os.WriteFile(header, code, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gen-schema: %d types from %s@%s, %d bytes\n", len(types), src.Package, src.Version, buf.Len())
	if shapes != "" {
		n, err := writeShapes(filepath.Join(prefix, "node_modules", pkgName, schemaFile), shapes)
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "gen-schema: %d shapes to %s\n", n, shapes)
	}
	return nil
}

func install(prefix string) error {
	cmd := exec.Command("npm", "install", "--prefix", prefix,
		"--no-audit", "--no-fund", "--ignore-scripts",
		pkgName+"@"+pkgVersion)
	cmd.Stdout = os.Stderr
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm install %s@%s: %w", pkgName, pkgVersion, err)
	}
	return nil
}

// lockedSource reads the version and integrity npm recorded for the package.
func lockedSource(prefix string) (schema.Source, error) {
	path := filepath.Join(prefix, "node_modules", ".package-lock.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return schema.Source{}, err
	}
	var lock struct {
		Packages map[string]struct {
			Version   string `json:"version"`
			Integrity string `json:"integrity"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(b, &lock); err != nil {
		return schema.Source{}, fmt.Errorf("%s: %w", path, err)
	}
	p, ok := lock.Packages["node_modules/"+pkgName]
	if !ok {
		return schema.Source{}, fmt.Errorf("%s: no entry for %s", path, pkgName)
	}
	if p.Version != pkgVersion {
		return schema.Source{}, fmt.Errorf("%s: %s is %s, want %s", path, pkgName, p.Version, pkgVersion)
	}
	if p.Integrity == "" {
		return schema.Source{}, fmt.Errorf("%s: no integrity for %s", path, pkgName)
	}
	return schema.Source{Package: pkgName, Version: p.Version, Integrity: p.Integrity}, nil
}

// readSchemas extracts the facts of every schema in the ndjson.gz file.
func readSchemas(path string) (map[string]schema.Facts, error) {
	types := map[string]schema.Facts{}
	err := eachSchema(path, func(line []byte) error {
		name, facts, err := schema.ParseRegistry(line)
		if err != nil {
			return err
		}
		if _, dup := types[name]; dup {
			return fmt.Errorf("duplicate type %s", name)
		}
		types[name] = facts
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(types) == 0 {
		return nil, fmt.Errorf("%s: no schemas", path)
	}
	return types, nil
}

// writeShapes writes the structural JSON Schema (schema.Shape) of every
// schema in the ndjson.gz file as one gzipped JSON object by type name.
func writeShapes(path, out string) (int, error) {
	shapes := map[string]json.RawMessage{}
	err := eachSchema(path, func(line []byte) error {
		name, shape, err := schema.Shape(line)
		if err != nil {
			return err
		}
		shapes[name] = shape
		return nil
	})
	if err != nil {
		return 0, err
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	enc := json.NewEncoder(zw)
	if err := enc.Encode(shapes); err != nil {
		return 0, err
	}
	if err := zw.Close(); err != nil {
		return 0, err
	}
	return len(shapes), os.WriteFile(out, buf.Bytes(), 0o644)
}

// eachSchema calls fn with every schema document (one a line) of the
// ndjson.gz file.
func eachSchema(path string, fn func(line []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	r := bufio.NewReaderSize(zr, 1<<20)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if ferr := fn(line); ferr != nil {
				return fmt.Errorf("%s line %d: %w", path, n, ferr)
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
}

func headerSource(src schema.Source, n int, sum string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by scripts/gen-schema; DO NOT EDIT.\n\n")
	fmt.Fprintf(&b, "package schema\n\n")
	fmt.Fprintf(&b, "// The embedded snapshot.json.gz holds the facts of %d resource types\n", n)
	fmt.Fprintf(&b, "// derived from this registry-schema package.\n")
	fmt.Fprintf(&b, "const (\n")
	fmt.Fprintf(&b, "snapshotPackage = %q\n", src.Package)
	fmt.Fprintf(&b, "snapshotVersion = %q\n", src.Version)
	fmt.Fprintf(&b, "snapshotIntegrity = %q\n", src.Integrity)
	fmt.Fprintf(&b, "snapshotTypes = %d\n", n)
	fmt.Fprintf(&b, "snapshotSHA256 = %q\n", sum)
	fmt.Fprintf(&b, ")\n")
	return format.Source(b.Bytes())
}
