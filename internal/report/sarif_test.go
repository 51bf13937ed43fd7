package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/drift"
)

// The SARIF 2.1.0 schema under testdata is sarif-2.1.0-rtm.5.json as the
// npm package @microsoft/jest-sarif 1.0.0-beta.0 (MIT) ships it.
const sarifSchemaFile = "testdata/sarif-2.1.0-rtm.5.json"

// TestSARIFValidates: the SARIF log of every case validates against the
// SARIF 2.1.0 JSON schema, and each result sits on the template line that
// declares its resource.
func TestSARIFValidates(t *testing.T) {
	raw, err := os.ReadFile(sarifSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	lines := map[string]int{}
	for _, f := range mixed() {
		lines[f.LogicalID] = 10 + len(lines)
	}
	tpl := func(s Stack) Template { return Template{URI: "cdk.out/" + s.Ref.Name + ".template.json", Lines: lines} }
	for name, stacks := range cases() {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := SARIF(&buf, stacks, SARIFOptions{Templates: tpl, ToolVersion: "v1.2.3"}); err != nil {
				t.Fatal(err)
			}
			var doc any
			if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			v := validator{root: schema}
			if errs := v.validate(schema, doc, "$"); len(errs) > 0 {
				t.Fatalf("SARIF does not validate:\n%s\n%s", strings.Join(errs, "\n"), buf.String())
			}
			// The validator does reject: no version, a bad level.
			m := doc.(map[string]any)
			delete(m, "version")
			m["runs"].([]any)[0].(map[string]any)["results"] = []any{map[string]any{"level": "fatal", "message": map[string]any{"text": "x"}}}
			if errs := v.validate(schema, doc, "$"); len(errs) < 2 {
				t.Errorf("validator accepts a broken log: %v", errs)
			}
		})
	}
	var buf bytes.Buffer
	if err := SARIF(&buf, []Stack{{Ref: prod, Findings: mixed()}}, SARIFOptions{Templates: tpl}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }    `json:"artifactLocation"`
						Region           struct{ StartLine int } `json:"region"`
					} `json:"physicalLocation"`
					LogicalLocations []struct{ Name string } `json:"logicalLocations"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 {
		t.Fatalf("log: %+v", log)
	}
	for _, r := range log.Runs[0].Results {
		loc := r.Locations[0]
		id := loc.LogicalLocations[0].Name
		if loc.PhysicalLocation.Region.StartLine != lines[id] || loc.PhysicalLocation.ArtifactLocation.URI != "cdk.out/"+prod.Name+".template.json" {
			t.Errorf("%s %s: at %s:%d, want line %d", r.RuleID, id, loc.PhysicalLocation.ArtifactLocation.URI, loc.PhysicalLocation.Region.StartLine, lines[id])
		}
	}
}

// TestJUnitParses: the JUnit report parses with encoding/xml into the
// testsuites shape CI dashboards read, failures and errors counted.
func TestJUnitParses(t *testing.T) {
	stacks := []Stack{{Ref: prod, Findings: mixed()}, {Ref: dev, Err: errors.New("GetTemplate: AccessDenied")}, {Ref: drift.StackRef{Account: "1", Region: "r", Name: "Clean"}}}
	var buf bytes.Buffer
	if err := JUnit(&buf, stacks); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Errors   int      `xml:"errors,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Tests int    `xml:"tests,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
				Error *struct{} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	sum := Summarize(stacks[0])
	failures := 0
	for _, c := range doc.Suites[0].Cases {
		if c.Failure != nil {
			failures++
		}
	}
	if len(doc.Suites) != 3 || doc.Errors != 1 || doc.Failures != failures || failures == 0 || sum.Drifted == 0 {
		t.Errorf("suites %d errors %d failures %d (counted %d):\n%s", len(doc.Suites), doc.Errors, doc.Failures, failures, buf.String())
	}
	if n := len(doc.Suites[2].Cases); n != 1 || doc.Suites[2].Cases[0].Failure != nil {
		t.Errorf("clean stack: %d cases, want one passing", n)
	}
}

// validator checks a JSON value against the draft-04 keywords the SARIF
// schema uses: $ref (local), type, properties, additionalProperties,
// required, items, minItems, uniqueItems, enum, minimum, pattern, anyOf.
// format and default are annotations here.
type validator struct{ root map[string]any }

func (v validator) validate(s map[string]any, x any, at string) []string {
	if ref, ok := s["$ref"].(string); ok {
		def, err := v.resolve(ref)
		if err != nil {
			return []string{at + ": " + err.Error()}
		}
		return v.validate(def, x, at)
	}
	var errs []string
	bad := func(format string, a ...any) { errs = append(errs, at+": "+fmt.Sprintf(format, a...)) }
	if ty, ok := s["type"]; ok && !typeMatches(ty, x) {
		bad("type %v, got %T", ty, x)
		return errs
	}
	if en, ok := s["enum"].([]any); ok {
		found := false
		for _, e := range en {
			if fmt.Sprint(e) == fmt.Sprint(x) {
				found = true
			}
		}
		if !found {
			bad("%v not in enum %v", x, en)
		}
	}
	if alts, ok := s["anyOf"].([]any); ok {
		okOne := false
		for _, alt := range alts {
			if len(v.validate(alt.(map[string]any), x, at)) == 0 {
				okOne = true
				break
			}
		}
		if !okOne {
			bad("matches no anyOf alternative")
		}
	}
	switch x := x.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		for _, r := range asSlice(s["required"]) {
			if _, ok := x[r.(string)]; !ok {
				bad("required %q missing", r)
			}
		}
		for k, val := range x {
			if ps, ok := props[k].(map[string]any); ok {
				errs = append(errs, v.validate(ps, val, at+"."+k)...)
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					bad("property %q not allowed", k)
				}
			case map[string]any:
				errs = append(errs, v.validate(ap, val, at+"."+k)...)
			}
		}
	case []any:
		if m, ok := s["minItems"].(float64); ok && float64(len(x)) < m {
			bad("%d items, want at least %v", len(x), m)
		}
		if u, _ := s["uniqueItems"].(bool); u {
			seen := map[string]bool{}
			for _, it := range x {
				b, _ := json.Marshal(it)
				if seen[string(b)] {
					bad("items not unique")
				}
				seen[string(b)] = true
			}
		}
		if is, ok := s["items"].(map[string]any); ok {
			for i, it := range x {
				errs = append(errs, v.validate(is, it, fmt.Sprintf("%s[%d]", at, i))...)
			}
		}
	case float64:
		if m, ok := s["minimum"].(float64); ok && x < m {
			bad("%v below minimum %v", x, m)
		}
	case string:
		if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(x) {
			bad("%q does not match %s", x, p)
		}
	}
	return errs
}

func (v validator) resolve(ref string) (map[string]any, error) {
	name, ok := strings.CutPrefix(ref, "#/definitions/")
	if !ok {
		return nil, fmt.Errorf("unsupported $ref %s", ref)
	}
	defs, _ := v.root["definitions"].(map[string]any)
	d, ok := defs[name].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("no definition %s", name)
	}
	return d, nil
}

func asSlice(v any) []any { s, _ := v.([]any); return s }

func typeMatches(ty, x any) bool {
	if list, ok := ty.([]any); ok {
		for _, t := range list {
			if typeMatches(t, x) {
				return true
			}
		}
		return false
	}
	switch ty {
	case "object":
		_, ok := x.(map[string]any)
		return ok
	case "array":
		_, ok := x.([]any)
		return ok
	case "string":
		_, ok := x.(string)
		return ok
	case "boolean":
		_, ok := x.(bool)
		return ok
	case "number":
		_, ok := x.(float64)
		return ok
	case "integer":
		f, ok := x.(float64)
		return ok && f == float64(int64(f))
	case "null":
		return x == nil
	}
	return false
}
