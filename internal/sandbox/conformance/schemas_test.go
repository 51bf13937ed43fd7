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
				for _, g := range gapsOf(tg.typ, ve) {
					if !found[g] {
						t.Logf("%s: %s %s: %s", w.name, tg.typ, tg.id, strings.ReplaceAll(g, "\t", " "))
					}
					found[g] = true
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
	sort.Strings(added)
	sort.Strings(gone)
	if len(added) > 0 {
		t.Errorf("Cloud Control models that do not conform to their registry schema, not in testdata/schema-gaps.txt (fix the model; the list only shrinks):\n%s", strings.Join(added, "\n"))
	}
	if len(gone) > 0 {
		t.Errorf("conform now, take them off testdata/schema-gaps.txt:\n%s", strings.Join(gone, "\n"))
	}
	t.Logf("Cloud Control models: %d read, %d valid against the registry schema; %d gaps (type, property, keyword) listed; %s", models, valid, len(found), time.Since(start).Round(time.Millisecond))
}

// gapsOf names each leaf failure of a validation as "type\tproperty\tkeyword":
// the top-level property it is under (for a failure at the model's root,
// each property it names) and the failing keyword.
func gapsOf(typ string, ve *jsonschema.ValidationError) []string {
	var out []string
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
		if len(e.InstanceLocation) > 0 {
			out = append(out, typ+"\t"+e.InstanceLocation[0]+"\t"+kw)
			return
		}
		switch k := e.ErrorKind.(type) {
		case *kind.AdditionalProperties:
			for _, p := range k.Properties {
				out = append(out, typ+"\t"+p+"\tadditionalProperties (not in the schema)")
			}
		case *kind.Required:
			for _, p := range k.Missing {
				out = append(out, typ+"\t"+p+"\trequired (missing)")
			}
		default:
			out = append(out, typ+"\t(root)\t"+kw)
		}
	}
	walk(ve)
	return out
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
