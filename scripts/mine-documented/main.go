// Command mine-documented mines the defaults AWS itself documents and
// writes them as the classifier's documented table,
// internal/classify/documented.json, in the imported-table form
// (classify.Imported), each row naming its source. Only derived facts are
// written; neither the schemas nor the API models are copied.
//
// Usage (through go generate ./internal/classify/):
//
//	go run ./scripts/mine-documented -schemas DIR/schemas.ndjson.gz [-botocore DIR] [-out FILE]
//
// The schemas are the pinned registry-schema package scripts/gen-schema
// uses (npm install @propulsionworks/cfn-resource-schemas@0.1.71);
// -botocore is botocore's data directory
// (python3 -c 'import botocore,os;print(os.path.dirname(botocore.__file__))'
// plus /data; $BOTOCORE_DATA under go generate).
//
// Sources, per property (top-level or nested, "*" for array items):
//   - the schema's "default" keyword;
//   - description sentences of the schema and of every API member the
//     property maps to — the input of the resource's Create, Put, Update
//     and Modify operations, matched by name ("Default: X", "The default
//     is X", "defaults to X", "X is the default", "X (default)", "if you
//     don't specify ..., ... is X", "by default, ... is X");
//   - an enum (schema, or API when the schema has none) that allows one
//     value only;
//   - a name/value list ("TargetGroupAttributes") whose API element's Key
//     documents each name it supports (Modify<Res>Attributes): a row per
//     name at Path[name], the value as the string the API passes;
//   - AWS's naming rules for default objects (namingRules: default
//     parameter and option groups, the default event bus) on a property
//     whose documentation says the default one is used: a pattern row.
//
// Rules:
//   - a description value counts only when it fits the property: a
//     boolean for a boolean, a number for a number (not one in another
//     unit: "1 day"), and for a string a member of its enum or a value
//     the text quotes (“X“);
//   - a property is kept only when its candidates agree on one value;
//   - read-only properties are skipped (the read strips them anyway), and
//     so are empty defaults (false, ""), which the classifier drops.
//
// Every row is an equality- or pattern-gated fold: the live value folds
// only when it equals the documented value or has the whole shape of the
// named default object. The output depends only on the input.
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
		in := apis.inputs(typ)
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

func (w *walker) walk(path string, v any, depth int, seen map[string]bool, api apiShapes) {
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
	if val, src, ok := documentedFrom(n, api); ok && !normalize.TriviallyEmpty(val) {
		for _, kp := range keyPaths(path) {
			w.rows = append(w.rows, classify.ImportedValue{Type: w.typ, Path: kp, Tier: "atDefault", Value: normalize.Canonical(val), Source: src})
		}
	} else if rule, src, ok := namingRule(n, api, path); ok {
		for _, kp := range keyPaths(path) {
			w.rows = append(w.rows, classify.ImportedValue{Type: w.typ, Path: kp, Tier: "atDefault", Pattern: rule, Source: src})
		}
	}
	if props, ok := n["properties"].(node); ok {
		for _, k := range sortedKeys(props) {
			w.walk(path+"."+k, props[k], depth+1, seen, api.member(k))
		}
	}
	if items, ok := n["items"]; ok {
		w.walk(path+".*", items, depth+1, seen, api.items())
		if !strings.Contains(path, "*") {
			w.rows = append(w.rows, keyedDefaults(w.typ, path, api.items())...)
		}
	}
}

var (
	reQuoted = regexp.MustCompile("(?i)(?:default(?: value)?(?: setting)?(?: for [a-z ]{1,40}?)? is|defaults to|default:)\\s*``([^`]{1,64})``")
	rePlain  = regexp.MustCompile(`(?i)(?:default(?: value)?(?: setting)?(?: for [a-z ]{1,40}?)? is|defaults to|default:)\s*([A-Za-z0-9_.:/+-]{1,64})(\s+(?:days?|weeks?|hours?|minutes?|months?|years?)\b)?`)
	// One candidate value a sentence states as the default, quoted:
	// "``X`` is the default", "``X`` (default)", "if you don't specify
	// ..., ... is set to ``X``", "by default, ... is ``X``".
	reQuotedIs       = regexp.MustCompile("``([^`]{1,64})``\\s*(?:is the default|\\(default\\))")
	reUnspecified    = regexp.MustCompile("(?i)(?:if (?:you )?(?:do not|don't|omit)|if not|when (?:you )?(?:do not|don't))[^.]{0,100}?(?:is set to|defaults to|is|uses|use)\\s+``([^`]{1,64})``")
	reByDefault      = regexp.MustCompile("(?i)by default,?[^.]{0,60}?(?:is|are) (?:set to )?``([^`]{1,64})``")
	sentencePatterns = []*regexp.Regexp{reQuotedIs, reUnspecified, reByDefault}
)

// documented returns the one default a schema node states, if any, with
// the API documentation text of the members it maps to.
func documented(n node, apiDoc string) (any, bool) {
	v, _, ok := documentedFrom(n, apiShapes{{doc: apiDoc, path: "api"}})
	return v, ok
}

// candidate is one value a source states, with the source.
type candidate struct {
	v   any
	src string
}

// documentedFrom returns the one default a schema node and the API members
// it maps to state, if any, and the sources that state it: the schema's
// default keyword and description sentences, the API documentation, and
// an enum (schema or API) that allows one value only.
func documentedFrom(n node, api apiShapes) (any, string, bool) {
	typ := schemaType(n)
	if typ == "" || typ == "object" || typ == "array" {
		return nil, "", false
	}
	var cands []candidate
	add := func(v any, src string, quoted bool) {
		if c, ok := coerce(v, typ, n, quoted); ok {
			cands = append(cands, candidate{c, src})
		}
	}
	if d, ok := n["default"]; ok {
		add(d, "schema default", true)
	}
	texts := []struct{ text, src string }{{str(n["description"]), "schema description"}}
	if d := api.doc(); d != "" {
		texts = append(texts, struct{ text, src string }{d, "API documentation " + api.source()})
	}
	for _, t := range texts {
		for _, m := range reQuoted.FindAllStringSubmatch(t.text, -1) {
			add(strings.Trim(m[1], `'"`), t.src, true)
		}
		for _, m := range rePlain.FindAllStringSubmatch(t.text, -1) {
			if m[2] != "" {
				continue // a number in a unit other than the property's own
			}
			add(strings.TrimRight(m[1], ".,;:"), t.src, false)
		}
		for _, re := range sentencePatterns {
			for _, m := range re.FindAllStringSubmatch(t.text, -1) {
				add(strings.Trim(m[1], `'"`), t.src, true)
			}
		}
	}
	if typ == "string" {
		if enum, ok := n["enum"].([]any); ok && len(enum) == 1 {
			add(enum[0], "schema enum of one value", true)
		} else if e := api.enum(); len(e) == 1 && !ok {
			add(e[0], "API enum of one value "+api.source(), true)
		}
	}
	if len(cands) == 0 {
		return nil, "", false
	}
	var srcs []string
	for _, c := range cands {
		if normalize.Canonical(c.v) != normalize.Canonical(cands[0].v) {
			return nil, "", false
		}
		if !contains(srcs, c.src) {
			srcs = append(srcs, c.src)
		}
	}
	return cands[0].v, strings.Join(srcs, "; "), true
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func str(v any) string {
	s, _ := v.(string)
	return s
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

// namingRules are AWS's naming rules for the default objects a service
// uses when a resource names none, as the user guides state them; a rule
// applies to a string property whose name ends in suffix when its schema
// description or API documentation says the default object is used
// (phrase). Each becomes a pattern row: only a name of that whole shape
// folds.
var namingRules = []struct {
	suffix  string
	phrase  *regexp.Regexp
	pattern string
	source  string
}{
	{"ParameterGroupName", regexp.MustCompile(`(?i)default (?:DB |DB cluster |cluster |cache |Amazon Redshift cluster )?parameter group`),
		`^default\.[a-z][a-z0-9-]*[0-9]+(\.[0-9]+)*(\.cluster\.on)?$`,
		"naming rule: default parameter groups are named default.<parameter group family> (RDS, ElastiCache, Redshift, Neptune, DocumentDB, MemoryDB user guides)"},
	{"OptionGroupName", regexp.MustCompile(`(?i)default option group`),
		`^default:[a-z][a-z0-9-]*-[0-9]+(-[0-9]+)*$`,
		"naming rule: default option groups are named default:<engine>-<major version> (RDS user guide, working with option groups)"},
	{"EventBusName", regexp.MustCompile(`(?i)default (?:event )?bus`),
		`^default$`,
		"naming rule: the account's default event bus is named default (EventBridge user guide)"},
}

// namingRule returns the pattern of the default object a string property
// names when the documentation says a default one is used.
func namingRule(n node, api apiShapes, path string) (string, string, bool) {
	if schemaType(n) != "string" {
		return "", "", false
	}
	name := path[strings.LastIndexByte(path, '.')+1:]
	text := str(n["description"]) + "\n" + api.doc()
	for _, r := range namingRules {
		if name != "" && strings.HasSuffix(name, r.suffix) && r.phrase.MatchString(text) {
			src := r.source + "; stated in the schema description"
			if a := api.source(); a != "" {
				src = r.source + "; stated in " + a
			}
			return r.pattern, src, true
		}
	}
	return "", "", false
}

var (
	reListItem  = regexp.MustCompile(`(?s)<li>\s*<p>\s*<code>([a-z0-9_.:-]{1,128})</code>\s*-\s*(.*?)</p>\s*</li>`)
	reItemValue = regexp.MustCompile("(?i)the default(?: value)? is\\s+(?:``([^`]{1,64})``|([0-9]+|true|false)(?:\\s+seconds?)?(?:[.,;]|\\s*$))")
)

// keyedDefaults mines the defaults of a name/value list the API documents
// per name: the Key member of the list's element lists each name it
// supports ("<code>name</code> - ... The default is X."), and a name
// whose text states exactly one default gives a row at Path[name] (the
// element's value, a string as the API passes every value).
func keyedDefaults(typ, path string, items apiShapes) []classify.ImportedValue {
	var out []classify.ImportedValue
	found := map[string][]string{}
	var order []string
	srcs := map[string]string{}
	for _, it := range items {
		key := it.member("Key")
		if key.def == nil || key.doc == "" {
			continue
		}
		var raw string
		for k, m := range it.def.Members {
			if strings.EqualFold(k, "Key") {
				raw = m.Documentation
			}
		}
		for _, li := range reListItem.FindAllStringSubmatch(raw, -1) {
			name, text := li[1], plain(li[2])
			for _, m := range reItemValue.FindAllStringSubmatch(text, -1) {
				v := m[1] + m[2]
				if _, ok := found[name]; !ok {
					order = append(order, name)
				}
				found[name] = append(found[name], v)
				srcs[name] = key.path
			}
		}
	}
	for _, name := range order {
		vs := found[name]
		one := true
		for _, v := range vs[1:] {
			one = one && v == vs[0]
		}
		if !one || vs[0] == "" {
			continue
		}
		out = append(out, classify.ImportedValue{Type: typ, Path: path + "[" + name + "]", Tier: "atDefault",
			Value: normalize.Canonical(vs[0]), Source: "API documentation " + srcs[name] + " (" + name + ")"})
	}
	return out
}
