// Command mine-documented mines the defaults AWS itself documents in the
// CloudFormation registry schemas — a property's "default" keyword and the
// default its description states ("Default: X", "The default is X",
// "defaults to X") — and writes them as the classifier's documented table,
// internal/classify/documented.json, in the imported-table form
// (classify.Imported). Only derived facts are written; the schemas are
// never copied.
//
// Usage (through go generate ./internal/classify/):
//
//	go run ./scripts/mine-documented -schemas DIR/schemas.ndjson.gz [-out FILE]
//
// The schemas are the pinned registry-schema package scripts/gen-schema
// uses (npm install @propulsionworks/cfn-resource-schemas@0.1.71).
//
// Rules, per property (top-level or nested, "*" for array items):
//   - a description value counts only when it fits the property: a
//     boolean for a boolean, a number for a number, and for a string a
//     member of its enum or a value the description quotes (“X“);
//   - a property is kept only when its candidates agree on one value;
//   - read-only properties are skipped (the read strips them anyway), and
//     so are empty defaults (false, ""), which the classifier drops.
//
// Every row is an equality-gated fold: the live value folds only when it
// equals the documented value. The output depends only on the input.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/normalize"
)

func main() {
	in := flag.String("schemas", "", "schemas.ndjson.gz of the registry-schema package")
	out := flag.String("out", "documented.json", "table to write")
	boto := flag.String("botocore", "", "botocore's data directory (service API documentation), optional")
	flag.Parse()
	if *in == "" {
		fmt.Fprintln(os.Stderr, "usage: mine-documented -schemas FILE [-out FILE]")
		os.Exit(2)
	}
	if err := run(*in, *out, *boto); err != nil {
		fmt.Fprintln(os.Stderr, "mine-documented:", err)
		os.Exit(1)
	}
}

type node = map[string]any

func run(in, out, boto string) error {
	apis, err := loadBotocore(boto)
	if err != nil {
		return err
	}
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(in, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return err
		}
		r = gz
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	t := &classify.Imported{Source: map[string]string{"package": "@propulsionworks/cfn-resource-schemas", "version": "0.1.71"}, Types: map[string]*classify.ImportedFacts{}}
	types := 0
	for sc.Scan() {
		var s node
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		typ, _ := s["typeName"].(string)
		if typ == "" {
			continue
		}
		ro := map[string]bool{}
		for _, p := range strings2(s["readOnlyProperties"]) {
			ro[strings.ReplaceAll(strings.TrimPrefix(p, "/properties/"), "/", ".")] = true
		}
		defs, _ := s["definitions"].(node)
		props, _ := s["properties"].(node)
		before := len(t.Values)
		w := walker{typ: typ, defs: defs, readOnly: ro}
		in := apis.input(typ)
		for _, k := range sortedKeys(props) {
			w.walk(k, props[k], 0, map[string]bool{}, in.member(k))
		}
		t.Values = append(t.Values, w.rows...)
		if len(t.Values) > before {
			types++
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	sort.SliceStable(t.Values, func(i, j int) bool {
		a, b := t.Values[i], t.Values[j]
		if a.Type != b.Type {
			return a.Type < b.Type
		}
		return a.Path < b.Path
	})
	fmt.Fprintf(os.Stderr, "mine-documented: %d rows, %d types with at least one default\n", len(t.Values), types)
	var buf bytes.Buffer
	buf.WriteString("{\"source\":")
	enc(&buf, t.Source)
	buf.WriteString(",\n\"types\":{},\n\"values\":[")
	for i, v := range t.Values {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString("\n")
		enc(&buf, v)
	}
	buf.WriteString("\n]}\n")
	return os.WriteFile(out, buf.Bytes(), 0o644)
}

func enc(buf *bytes.Buffer, v any) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	_ = e.Encode(v)
	buf.Write(bytes.TrimRight(b.Bytes(), "\n"))
}

type walker struct {
	typ      string
	defs     node
	readOnly map[string]bool
	rows     []classify.ImportedValue
}

const maxDepth = 6

func (w *walker) walk(path string, v any, depth int, seen map[string]bool, api apiShape) {
	n, _ := v.(node)
	if n == nil || depth > maxDepth || w.readOnly[strings.ReplaceAll(path, ".*", "")] {
		return
	}
	if ref, ok := n["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/definitions/")
		if seen[name] {
			return
		}
		d, _ := w.defs[name].(node)
		if d == nil {
			return
		}
		merged := node{}
		for k, x := range d {
			merged[k] = x
		}
		if desc, ok := n["description"]; ok {
			merged["description"] = desc
		}
		next := copySet(seen)
		next[name] = true
		w.walk(path, merged, depth, next, api)
		return
	}
	// An empty default (false, "") is the service's "off": the classifier
	// drops such a value before any lookup, so no row is written for it.
	if val, ok := documented(n, api.doc); ok && !normalize.TriviallyEmpty(val) {
		for _, kp := range keyPaths(path) {
			w.rows = append(w.rows, classify.ImportedValue{Type: w.typ, Path: kp, Tier: "atDefault", Value: normalize.Canonical(val)})
		}
	}
	if props, ok := n["properties"].(node); ok {
		for _, k := range sortedKeys(props) {
			w.walk(path+"."+k, props[k], depth+1, seen, api.member(k))
		}
	}
	if items, ok := n["items"]; ok {
		w.walk(path+".*", items, depth+1, seen, api.items())
	}
}

var (
	reQuoted = regexp.MustCompile("(?i)(?:default(?: value)?(?: setting)? is|defaults to|default:)\\s*``([^`]{1,64})``")
	rePlain  = regexp.MustCompile(`(?i)(?:default(?: value)?(?: setting)? is|defaults to|default:)\s*([A-Za-z0-9_.:/+-]{1,64})`)
)

// documented returns the one default a schema node states, if any.
func documented(n node, apiDoc string) (any, bool) {
	typ := schemaType(n)
	if typ == "" || typ == "object" || typ == "array" {
		return nil, false
	}
	var cands []any
	if d, ok := n["default"]; ok {
		if c, ok := coerce(d, typ, n, true); ok {
			cands = append(cands, c)
		}
	}
	desc, _ := n["description"].(string)
	desc += " " + apiDoc
	for _, m := range reQuoted.FindAllStringSubmatch(desc, -1) {
		if c, ok := coerce(strings.Trim(m[1], `'"`), typ, n, true); ok {
			cands = append(cands, c)
		}
	}
	for _, m := range rePlain.FindAllStringSubmatch(desc, -1) {
		if c, ok := coerce(strings.TrimRight(m[1], ".,;:"), typ, n, false); ok {
			cands = append(cands, c)
		}
	}
	if len(cands) == 0 {
		return nil, false
	}
	for _, c := range cands[1:] {
		if normalize.Canonical(c) != normalize.Canonical(cands[0]) {
			return nil, false
		}
	}
	return cands[0], true
}

func schemaType(n node) string {
	switch t := n["type"].(type) {
	case string:
		return t
	case []any:
		if len(t) == 1 {
			s, _ := t[0].(string)
			return s
		}
	}
	return ""
}

// coerce fits a candidate to the property's type; quoted says the
// description quotes it (or it is the schema's own default keyword).
func coerce(v any, typ string, n node, quoted bool) (any, bool) {
	s, isStr := v.(string)
	switch typ {
	case "boolean":
		if b, ok := v.(bool); ok {
			return b, true
		}
		switch strings.ToLower(s) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	case "integer", "number":
		if f, ok := v.(float64); ok {
			return f, true
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && isStr {
			return f, true
		}
	case "string":
		if !isStr || s == "" {
			return nil, false
		}
		if enum, ok := n["enum"].([]any); ok {
			for _, e := range enum {
				if e == s {
					return s, true
				}
			}
			return nil, false
		}
		if quoted {
			return s, true
		}
	}
	return nil, false
}

func keyPaths(p string) []string {
	segs := strings.Split(p, ".")
	out := []string{""}
	for i, s := range segs {
		var next []string
		for _, o := range out {
			if s == "*" {
				next = append(next, join(o, "*"))
				if o != "" && !strings.HasSuffix(o, "*") && i < len(segs)-1 {
					next = append(next, o+"[*]")
				}
				continue
			}
			next = append(next, join(o, s))
		}
		out = next
	}
	return out
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

func strings2(v any) []string {
	a, _ := v.([]any)
	out := make([]string, 0, len(a))
	for _, e := range a {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func sortedKeys(m node) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func copySet(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}
