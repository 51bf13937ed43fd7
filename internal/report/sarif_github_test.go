package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/drift"
)

// githubProblems checks a SARIF log against what GitHub code scanning
// documents it needs to show results ("SARIF support for code scanning"):
// a tool name and version; rules with unique ids, a name, short and full
// descriptions, help, tags (at most 20), a precision and problem severity
// it knows, and a security-severity only on rules tagged security, as a
// number from 0.1 to 10; at most 20 runs and 25,000 results and rules per
// run; each result with a rule it names (ruleIndex pointing at it), a
// level it knows, a message, partialFingerprints, at most 10 locations and
// — when physical is true — a physical location with a relative URI and a
// startLine of at least 1 (related locations likewise, each with an id and
// a message).
func githubProblems(doc map[string]any, physical bool) []string {
	var out []string
	bad := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	str := func(m map[string]any, keys ...string) string {
		var cur any = m
		for _, k := range keys {
			mm, _ := cur.(map[string]any)
			cur = mm[k]
		}
		s, _ := cur.(string)
		return s
	}
	if doc["version"] != "2.1.0" || str(doc, "$schema") == "" {
		bad("version %v / $schema %v", doc["version"], doc["$schema"])
	}
	runs := asSlice(doc["runs"])
	if len(runs) == 0 || len(runs) > 20 {
		bad("%d runs", len(runs))
	}
	for ri, r := range runs {
		run, _ := r.(map[string]any)
		if str(run, "tool", "driver", "name") == "" || (str(run, "tool", "driver", "version") == "" && str(run, "tool", "driver", "semanticVersion") == "") {
			bad("run %d: tool name %q version %q", ri, str(run, "tool", "driver", "name"), str(run, "tool", "driver", "version"))
		}
		driver, _ := run["tool"].(map[string]any)["driver"].(map[string]any)
		if v := str(run, "tool", "driver", "version"); v != "" && (v[0] < '0' || v[0] > '9') {
			bad("run %d: tool version %q does not start with a number", ri, v)
		}
		rules := asSlice(driver["rules"])
		if len(rules) > 25000 {
			bad("run %d: %d rules", ri, len(rules))
		}
		ids := map[string]int{}
		for i, x := range rules {
			rule, _ := x.(map[string]any)
			id := str(rule, "id")
			if _, dup := ids[id]; dup || id == "" {
				bad("rule %d: id %q empty or repeated", i, id)
			}
			ids[id] = i
			for _, k := range [][]string{{"name"}, {"shortDescription", "text"}, {"fullDescription", "text"}, {"help", "text"}, {"help", "markdown"}} {
				if str(rule, k...) == "" {
					bad("rule %s: no %s", id, strings.Join(k, "."))
				}
			}
			props, _ := rule["properties"].(map[string]any)
			tags := asSlice(props["tags"])
			if len(tags) == 0 || len(tags) > 20 {
				bad("rule %s: %d tags", id, len(tags))
			}
			if p := str(props, "precision"); !strings.Contains(" very-high high medium low ", " "+p+" ") {
				bad("rule %s: precision %q", id, p)
			}
			if p := str(props, "problem.severity"); !strings.Contains(" error warning recommendation ", " "+p+" ") {
				bad("rule %s: problem.severity %q", id, p)
			}
			if sev, ok := props["security-severity"]; ok {
				s, _ := sev.(string)
				n, err := strconv.ParseFloat(s, 64)
				security := false
				for _, t := range tags {
					security = security || t == "security"
				}
				if err != nil || n < 0.1 || n > 10 || !security {
					bad("rule %s: security-severity %v (tags %v)", id, sev, tags)
				}
			}
		}
		results := asSlice(run["results"])
		if len(results) > 25000 {
			bad("run %d: %d results", ri, len(results))
		}
		for i, x := range results {
			res, _ := x.(map[string]any)
			id := str(res, "ruleId")
			idx, known := ids[id]
			if n, ok := res["ruleIndex"].(float64); !known || !ok || int(n) != idx {
				bad("result %d: rule %q index %v", i, id, res["ruleIndex"])
			}
			if l := str(res, "level"); !strings.Contains(" none note warning error ", " "+l+" ") {
				bad("result %d: level %q", i, l)
			}
			if str(res, "message", "text") == "" {
				bad("result %d: no message", i)
			}
			if fp, _ := res["partialFingerprints"].(map[string]any); len(fp) == 0 {
				bad("result %d: no partialFingerprints", i)
			}
			locs := asSlice(res["locations"])
			if len(locs) == 0 || len(locs) > 10 {
				bad("result %d: %d locations", i, len(locs))
			}
			check := func(what string, l map[string]any) {
				pl, ok := l["physicalLocation"].(map[string]any)
				if !ok {
					if physical {
						bad("result %d %s: no physical location", i, what)
					}
					return
				}
				uri := str(pl, "artifactLocation", "uri")
				if uri == "" || strings.HasPrefix(uri, "/") || strings.Contains(uri, "://") || strings.Contains(uri, `\`) {
					bad("result %d %s: uri %q is not relative", i, what, uri)
				}
				if n, _ := pl["region"].(map[string]any)["startLine"].(float64); n < 1 {
					bad("result %d %s: startLine %v", i, what, pl["region"])
				}
			}
			for _, l := range locs {
				m, _ := l.(map[string]any)
				check("location", m)
				if len(asSlice(m["logicalLocations"])) == 0 {
					bad("result %d: no logical location", i)
				}
			}
			for _, l := range asSlice(res["relatedLocations"]) {
				m, _ := l.(map[string]any)
				check("related location", m)
				if _, ok := m["id"]; !ok || str(m, "message", "text") == "" {
					bad("result %d: related location without id or message", i)
				}
			}
		}
	}
	return out
}

// TestSARIFGitHub: a log with templates (check --app) validates against
// the SARIF 2.1.0 schema and meets GitHub's requirements with no problem;
// rules carry help and, for security-relevant drift, a security-severity;
// without templates results are located logically only (no invented
// file); same-named stacks of two accounts stay apart; the checks reject
// what GitHub would.
func TestSARIFGitHub(t *testing.T) {
	raw, err := os.ReadFile(sarifSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	lines := map[string]int{"Fn9A1B": 12, "ApiRoleC0FFEE": 40}
	twin := drift.StackRef{Account: "333333333333", Region: "us-east-1", Name: "Prod"}
	stacks := []Stack{{Ref: prod, Findings: mixed()}, {Ref: twin, Findings: mixed()}}
	app := func(s Stack) Template {
		return Template{
			URI: "cdk.out/" + s.Ref.Name + "-" + s.Ref.Account + ".template.json", Lines: lines,
			Sources: map[string]Source{"Fn9A1B": {File: "lib/prod-stack.ts", Line: 21}},
		}
	}
	render := func(opt SARIFOptions) map[string]any {
		t.Helper()
		var buf bytes.Buffer
		if err := SARIF(&buf, stacks, opt); err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if errs := (validator{root: schema}).validate(schema, doc, "$"); len(errs) > 0 {
			t.Fatalf("SARIF does not validate against the 2.1.0 schema:\n%s", strings.Join(errs, "\n"))
		}
		return doc
	}

	doc := render(SARIFOptions{Templates: app, ToolVersion: "v1.2.3"})
	if p := githubProblems(doc, true); len(p) > 0 {
		t.Errorf("with templates, GitHub's requirements fail:\n%s", strings.Join(p, "\n"))
	}
	run := doc["runs"].([]any)[0].(map[string]any)
	if v := run["tool"].(map[string]any)["driver"].(map[string]any)["version"]; v != "1.2.3" {
		t.Errorf("tool version %v", v)
	}
	rules := map[string]map[string]any{}
	for _, r := range asSlice(run["tool"].(map[string]any)["driver"].(map[string]any)["rules"]) {
		rules[r.(map[string]any)["id"].(string)] = r.(map[string]any)
	}
	byRule := map[string]int{}
	fingerprints := map[string]bool{}
	related := 0
	for _, x := range asSlice(run["results"]) {
		res := x.(map[string]any)
		byRule[res["ruleId"].(string)]++
		for _, fp := range res["partialFingerprints"].(map[string]any) {
			fingerprints[fp.(string)] = true
		}
		loc := asSlice(res["locations"])[0].(map[string]any)
		fq := asSlice(loc["logicalLocations"])[0].(map[string]any)["fullyQualifiedName"].(string)
		if !regexp.MustCompile(`^(111111111111|333333333333)/us-east-1/Prod/`).MatchString(fq) {
			t.Errorf("logical location %q does not name account and region", fq)
		}
		related += len(asSlice(res["relatedLocations"]))
	}
	// The IAM role's policy is RD101 (policy drift), not general declared drift.
	if byRule["RD101"] != 2 || rules["RD101"]["properties"].(map[string]any)["security-severity"] != "8.0" {
		t.Errorf("policy drift: %d results, rule %v", byRule["RD101"], rules["RD101"])
	}
	if _, ok := rules["RD002"]["properties"].(map[string]any)["security-severity"]; ok {
		t.Errorf("general declared drift carries a security-severity")
	}
	if results := len(asSlice(run["results"])); len(fingerprints) != results {
		t.Errorf("%d distinct fingerprints for %d results (same-named stacks of two accounts must differ)", len(fingerprints), results)
	}
	if related == 0 {
		t.Errorf("no construct source as a related location")
	}

	// Without templates (no --app): logical locations only, no file.
	doc = render(SARIFOptions{})
	if p := githubProblems(doc, false); len(p) > 0 {
		t.Errorf("without templates: %s", strings.Join(p, "\n"))
	}
	for _, x := range asSlice(doc["runs"].([]any)[0].(map[string]any)["results"]) {
		if loc := asSlice(x.(map[string]any)["locations"])[0].(map[string]any); loc["physicalLocation"] != nil {
			t.Errorf("a physical location without a template file: %v", loc)
		}
	}
	if len(githubProblems(doc, true)) == 0 {
		t.Errorf("the GitHub checks accept results without a physical location")
	}
	// The checks reject what GitHub would: no help, a bad severity.
	doc = render(SARIFOptions{Templates: app, ToolVersion: "v1"})
	rule0 := asSlice(doc["runs"].([]any)[0].(map[string]any)["tool"].(map[string]any)["driver"].(map[string]any)["rules"])[0].(map[string]any)
	delete(rule0, "help")
	rule0["properties"].(map[string]any)["security-severity"] = "11"
	if p := githubProblems(doc, true); len(p) < 2 {
		t.Errorf("checks accept a rule without help and severity 11: %v", p)
	}
}

// TestSecurityCategory: security-relevant paths and types fall in their
// category; a tag named like a property does not.
func TestSecurityCategory(t *testing.T) {
	for _, tc := range []struct {
		f    drift.Finding
		want string
	}{
		{fnd(drift.Declared, "R", "AWS::IAM::Role", "Policies.0.PolicyDocument", nil, nil), "RD101"},
		{fnd(drift.Undeclared, "B", "AWS::S3::Bucket", "PublicAccessBlockConfiguration.BlockPublicAcls", nil, nil), "RD102"},
		{fnd(drift.Declared, "B", "AWS::S3::Bucket", "BucketEncryption.ServerSideEncryptionConfiguration", nil, nil), "RD103"},
		{fnd(drift.Declared, "SG", "AWS::EC2::SecurityGroup", "SecurityGroupIngress", nil, nil), "RD104"},
		{fnd(drift.Added, "B/Policy", "AWS::S3::BucketPolicy", "", nil, nil), "RD101"},
		{fnd(drift.Deleted, "SG", "AWS::EC2::SecurityGroup", "", nil, nil), "RD104"},
		{fnd(drift.Undeclared, "B", "AWS::S3::Bucket", "Tags.Policy", nil, nil), ""},
		{fnd(drift.Declared, "F", "AWS::Lambda::Function", "MemorySize", nil, nil), ""},
	} {
		c, _ := securityCategoryOf(tc.f)
		if c.id != tc.want {
			t.Errorf("%s %s: category %q, want %q", tc.f.ResourceType, tc.f.Path, c.id, tc.want)
		}
	}
}
