package conformance_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// shapes are the registry's structural schemas by type
// (testdata/registry-shapes.json.gz, written by scripts/gen-schema
// -shapes from the pinned registry-schema package).
func loadShapes(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	f, err := os.Open("testdata/registry-shapes.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]json.RawMessage
	if err := json.NewDecoder(zr).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// schemaConformance validates every model Cloud Control's GetResource
// returns, in every world, against its type's registry shape, and holds
// the non-conformances found equal to testdata/schema-gaps.txt (a list
// that only shrinks: a gap not listed fails, and so does a listed one
// that no longer occurs).
func schemaConformance(t *testing.T, worlds []*world) {
	start := time.Now()
	shapes := loadShapes(t)
	compiled := map[string]*jsonschema.Schema{}
	schemaOf := func(typ string) (*jsonschema.Schema, error) {
		if s, ok := compiled[typ]; ok {
			return s, nil
		}
		raw, ok := shapes[typ]
		if !ok {
			compiled[typ] = nil
			return nil, nil
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return nil, err
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft7)
		url := "mem:///" + strings.ReplaceAll(typ, "::", "-") + ".json"
		if err := c.AddResource(url, doc); err != nil {
			return nil, err
		}
		s, err := c.Compile(url)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", typ, err)
		}
		compiled[typ] = s
		return s, nil
	}
	c, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	found := map[string]bool{}
	newer := readNewer(t, "testdata/newer-than-schema.txt")
	returns := readReturns(t, "testdata/aws-returns.txt", schemaOf)
	used := map[string]bool{}
	models, valid := 0, 0
	for _, w := range worlds {
		for _, tg := range w.targets {
			if strings.HasPrefix(tg.typ, "@") {
				continue
			}
			tg.cfg = sdkConfig(w.url, w.key(tg.account), tg.region)
			out, err := cloudcontrol.NewFromConfig(tg.cfg).GetResource(c, &cloudcontrol.GetResourceInput{TypeName: aws.String(tg.typ), Identifier: aws.String(tg.id)})
			if err != nil {
				continue // unreadable here (a Cloud Control gap): the operation test checks the answer
			}
			sch, err := schemaOf(tg.typ)
			if err != nil {
				t.Errorf("%s: the registry shape does not compile: %v", tg.typ, err)
				compiled[tg.typ] = nil
				continue
			}
			models++
			if sch == nil {
				found[tg.typ+"\t(type)\tno registry schema"] = true
				continue
			}
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(aws.ToString(out.ResourceDescription.Properties)))
			if err != nil {
				t.Errorf("%s %s %s: the model is not JSON: %v", w.name, tg.typ, tg.id, err)
				continue
			}
			err = sch.Validate(v)
			var ve *jsonschema.ValidationError
			switch {
			case err == nil:
				valid++
			case errors.As(err, &ve):
				real := 0
				for _, g := range gapsOf(tg.typ, ve) {
					if g.unknown != "" && newer[tg.typ+"\t"+g.unknown] != "" {
						used[tg.typ+"\t"+g.unknown] = true
						continue
					}
					if returns[g.line] != "" {
						used[g.line] = true
						continue
					}
					real++
					if !found[g.line] {
						t.Logf("%s: %s %s: %s", w.name, tg.typ, tg.id, strings.ReplaceAll(g.line, "\t", " "))
					}
					found[g.line] = true
				}
				if real == 0 {
					valid++
				}
			default:
				t.Errorf("%s %s %s: %v", w.name, tg.typ, tg.id, err)
			}
		}
	}
	listed := readList(t, "testdata/schema-gaps.txt")
	var added, gone []string
	for g := range found {
		if !listed[g] {
			added = append(added, g)
		}
	}
	for g := range listed {
		if !found[g] {
			gone = append(gone, g)
		}
	}
	for k := range newer {
		if !used[k] {
			gone = append(gone, k+" (testdata/newer-than-schema.txt)")
		}
	}
	for k := range returns {
		if !used[k] {
			gone = append(gone, k+" (testdata/aws-returns.txt)")
		}
	}
	sort.Strings(added)
	sort.Strings(gone)
	if len(added) > 0 {
		t.Errorf("Cloud Control models that do not conform to their registry schema, not in testdata/schema-gaps.txt (fix the model; the list only shrinks):\n%s", strings.Join(added, "\n"))
	}
	if len(gone) > 0 {
		t.Errorf("conform now (or are no longer met), take them off testdata/schema-gaps.txt, newer-than-schema.txt or aws-returns.txt:\n%s", strings.Join(gone, "\n"))
	}
	t.Logf("Cloud Control models: %d read, %d valid against the registry schema; %d gaps (type, property, keyword) listed; %d properties newer than the schema; %d shapes AWS returns that the schema refuses; %s",
		models, valid, len(found), countIn(used, newer), countIn(used, returns), time.Since(start).Round(time.Millisecond))
}

// countIn counts the keys of set that m holds.
func countIn(set map[string]bool, m map[string]string) int {
	n := 0
	for k := range set {
		if _, ok := m[k]; ok {
			n++
		}
	}
	return n
}

// gap is one leaf failure of a validation: its line in
// schema-gaps.txt ("type\tproperty\tkeyword": the top-level property it
// is under, or for a failure at the model's root each property it names,
// and the failing keyword) and, for a property the schema does not know,
// its dotted path (list indices left out).
type gap struct{ line, unknown string }

func gapsOf(typ string, ve *jsonschema.ValidationError) []gap {
	var out []gap
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		kw := "?"
		if p := e.ErrorKind.KeywordPath(); len(p) > 0 {
			kw = p[0]
		}
		var at []string
		for _, s := range e.InstanceLocation {
			if _, err := strconv.Atoi(s); err != nil {
				at = append(at, s)
			}
		}
		if len(e.InstanceLocation) > 0 {
			if k, ok := e.ErrorKind.(*kind.AdditionalProperties); ok {
				for _, p := range k.Properties {
					out = append(out, gap{typ + "\t" + e.InstanceLocation[0] + "\t" + kw, strings.Join(append(at, p), ".")})
				}
				return
			}
			out = append(out, gap{line: typ + "\t" + e.InstanceLocation[0] + "\t" + kw})
			return
		}
		switch k := e.ErrorKind.(type) {
		case *kind.AdditionalProperties:
			for _, p := range k.Properties {
				out = append(out, gap{typ + "\t" + p + "\tadditionalProperties (not in the schema)", p})
			}
		case *kind.Required:
			for _, p := range k.Missing {
				out = append(out, gap{line: typ + "\t" + p + "\trequired (missing)"})
			}
		default:
			out = append(out, gap{line: typ + "\t(root)\t" + kw})
		}
	}
	walk(ve)
	return out
}

// readNewer reads testdata/newer-than-schema.txt: the properties AWS
// returns that the pinned registry schema (0.1.71) does not know yet, as
// "type\tdotted.property\tsource", the source being a corpus recording
// (a path under testdata/shared/corpus) whose live model holds it. A
// listed property is accepted only when that recording holds it at that
// path; the map is keyed "type\tproperty".
func readNewer(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for line := range readList(t, path) {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("%s: %q is not type, property and source", path, line)
		}
		typ, models, err := recorded(f[2])
		if err != nil {
			t.Errorf("%s: %s %s: the source recording: %v", path, f[0], f[1], err)
			continue
		}
		held := false
		for _, m := range models {
			held = held || holds(m, strings.Split(f[1], "."))
		}
		if (typ != "" && typ != f[0]) || !held {
			t.Errorf("%s: %s, a %s, does not record %s: only what AWS returned is newer than the schema", path, f[2], typ, f[1])
			continue
		}
		out[f[0]+"\t"+f[1]] = f[2]
	}
	return out
}

// recorded reads a source: a corpus recording (a path under
// testdata/shared/corpus), optionally followed by "#" and the dotted path
// of the models in it ("*" stands for every member of an object). The
// default path is liveRaw, the model Cloud Control returned for the
// recording's resource, whose type typ is then; with an explicit path
// (opts.clusterEchoModel.*: the cluster model AWS returned beside an
// instance) typ is "".
func recorded(source string) (typ string, models []any, err error) {
	file, at, explicit := strings.Cut(source, "#")
	b, err := os.ReadFile("../../../testdata/shared/corpus/" + file)
	if err != nil {
		return "", nil, err
	}
	var rec map[string]any
	if err := json.Unmarshal(b, &rec); err != nil {
		return "", nil, fmt.Errorf("%s: %w", file, err)
	}
	if !explicit {
		at = "liveRaw"
		res, _ := rec["resource"].(map[string]any)
		typ, _ = res["resourceType"].(string)
	}
	vs := []any{rec}
	for _, k := range strings.Split(at, ".") {
		var next []any
		for _, v := range vs {
			m, _ := v.(map[string]any)
			for name, x := range m {
				if (k == "*" || k == name) && x != nil {
					next = append(next, x)
				}
			}
		}
		vs = next
	}
	if len(vs) == 0 {
		return "", nil, fmt.Errorf("%s holds nothing at %s", file, at)
	}
	return typ, vs, nil
}

// readReturns reads testdata/aws-returns.txt: the shapes AWS returns
// that the pinned registry schema refuses, as "type\tproperty\tkeyword
// \tsource" (the first three a schema-gaps.txt line, the source a
// recording as recorded reads it). A listed gap is accepted only when
// the source's model, validated against the same registry shape, fails
// with exactly that gap: what AWS itself returned. The map is keyed by
// the gap line.
func readReturns(t *testing.T, path string, schemaOf func(string) (*jsonschema.Schema, error)) map[string]string {
	t.Helper()
	out := map[string]string{}
	for line := range readList(t, path) {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			t.Fatalf("%s: %q is not type, property, keyword and source", path, line)
		}
		gapLine := strings.Join(f[:3], "\t")
		typ, models, err := recorded(f[3])
		if err != nil {
			t.Errorf("%s: %s: the source recording: %v", path, gapLine, err)
			continue
		}
		if typ != "" && typ != f[0] {
			t.Errorf("%s: %s: %s records a %s", path, gapLine, f[3], typ)
			continue
		}
		sch, err := schemaOf(f[0])
		if err != nil || sch == nil {
			t.Errorf("%s: %s: no registry shape to check the recording with (%v)", path, gapLine, err)
			continue
		}
		held := false
		for _, m := range models {
			b, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			var ve *jsonschema.ValidationError
			if errors.As(sch.Validate(v), &ve) {
				for _, g := range gapsOf(f[0], ve) {
					held = held || g.line == gapLine
				}
			}
		}
		if !held {
			t.Errorf("%s: %s: the model %s recorded from AWS does not fail so: only what AWS returned goes here", path, gapLine, f[3])
			continue
		}
		out[gapLine] = f[3]
	}
	return out
}

// holds reports whether v has a value at path (through any element of a
// list).
func holds(v any, path []string) bool {
	if len(path) == 0 {
		return v != nil
	}
	switch x := v.(type) {
	case map[string]any:
		return holds(x[path[0]], path[1:])
	case []any:
		for _, e := range x {
			if holds(e, path) {
				return true
			}
		}
	}
	return false
}

// readList reads a list file: one entry a line, # comments and blank
// lines ignored.
func readList(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "#") {
			out[line] = true
		}
	}
	return out
}
