package schema_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/schema"
)

// doc builds a minimal registry schema around properties and definitions.
func doc(props, defs string, extra ...string) string {
	if defs == "" {
		defs = "{}"
	}
	s := `{"typeName":"Test::Type::Thing","properties":` + props + `,"definitions":` + defs
	for _, e := range extra {
		s += "," + e
	}
	return s + "}"
}

func TestFromRegistryRules(t *testing.T) {
	cases := []struct {
		name string
		doc  string
		want func(f *schema.Facts) any
		exp  any
	}{
		{
			name: "pointer paths, escapes and top-level names",
			doc: doc(`{}`, "",
				`"readOnlyProperties":["/properties/Arn","/properties/A/B/*/C","/properties/X~1Y","/definitions/Z/properties/Q"]`),
			want: func(f *schema.Facts) any { return [][]string{f.ReadOnlyPaths, f.ReadOnly} },
			exp:  [][]string{{"A.B.*.C", "Arn", "X/Y"}, {"Arn", "X/Y"}},
		},
		{
			name: "conditional create-only kept apart",
			doc: doc(`{}`, "", `"createOnlyProperties":["/properties/Name"]`,
				`"conditionalCreateOnlyProperties":["/properties/Mode","/properties/Cfg/Size"]`),
			want: func(f *schema.Facts) any { return [][]string{f.CreateOnly, f.ConditionalCreateOnlyPaths} },
			exp:  [][]string{{"Name"}, {"Cfg.Size", "Mode"}},
		},
		{
			name: "defaults at any depth through refs and array items",
			doc: doc(`{"Top":{"type":"string","default":"x"},"Cfg":{"$ref":"#/definitions/Cfg"},
				"Items":{"type":"array","items":{"$ref":"#/definitions/Item"}}}`,
				`{"Cfg":{"type":"object","properties":{"Port":{"type":"integer","default":80}}},
				  "Item":{"type":"object","properties":{"On":{"type":"boolean","default":false}}}}`),
			want: func(f *schema.Facts) any { return []any{f.Defaults, f.DefaultPaths} },
			exp: []any{map[string]any{"Top": "x"},
				map[string]any{"Top": "x", "Cfg.Port": 80.0, "Items.*.On": false}},
		},
		{
			name: "wrong-typed defaults coerced or dropped",
			doc: doc(`{"B":{"type":"boolean","default":"true"},"N":{"type":"integer","default":"7"},
				"F":{"type":"number","default":"1.5"},"Bad":{"type":"integer","default":"seven"},
				"Obj":{"type":"boolean","default":{"x":1}},"Null":{"type":"array","default":null},
				"Untyped":{"default":"kept"},"Either":{"type":["string","integer"],"default":3}}`, ""),
			want: func(f *schema.Facts) any { return f.DefaultPaths },
			exp: map[string]any{"B": true, "N": 7.0, "F": 1.5, "Null": nil, "Untyped": "kept",
				"Either": 3.0},
		},
		{
			name: "a default beside a $ref is not taken",
			doc: doc(`{"Mode":{"$ref":"#/definitions/Mode","default":{"Kind":"A"}},"Plain":{"$ref":"#/definitions/P"}}`,
				`{"Mode":{"type":"object","properties":{"Kind":{"type":"string"}}},"P":{"type":"string","default":"p"}}`),
			want: func(f *schema.Facts) any { return f.DefaultPaths },
			exp:  map[string]any{"Plain": "p"},
		},
		{
			name: "cyclic references end",
			doc: doc(`{"Stmt":{"$ref":"#/definitions/Stmt"}}`,
				`{"Stmt":{"type":"object","properties":{"Size":{"type":"integer","default":1},
				  "And":{"type":"object","properties":{"Stmts":{"type":"array","items":{"$ref":"#/definitions/Stmt"}}}},
				  "Not":{"$ref":"#/definitions/Stmt"}}}}`),
			want: func(f *schema.Facts) any { return f.DefaultPaths },
			exp:  map[string]any{"Stmt.Size": 1.0},
		},
		{
			name: "combinator members are walked at the node's path",
			doc: doc(`{"Target":{"oneOf":[{"$ref":"#/definitions/A"},{"$ref":"#/definitions/B"}]},
				"Any":{"anyOf":[{"type":"object","properties":{"K":{"type":"string","default":"k"}}}]},
				"All":{"allOf":[{"type":"object","properties":{"M":{"type":"object","patternProperties":{".*":{"type":"string"}}}}}]}}`,
				`{"A":{"type":"object","properties":{"Port":{"type":"integer","default":1}}},
				  "B":{"type":"object","properties":{"Ids":{"type":"array","insertionOrder":false,"items":{"type":"string"}}}}}`),
			want: func(f *schema.Facts) any {
				return []any{f.DefaultPaths, f.UnorderedScalarPaths, f.FreeFormMapPaths}
			},
			exp: []any{map[string]any{"Target.Port": 1.0, "Any.K": "k"}, []string{"Target.Ids"}, []string{"All.M"}},
		},
		{
			name: "unordered arrays split by item shape",
			doc: doc(`{"Ids":{"type":"array","insertionOrder":false,"items":{"type":"string"}},
				"Enums":{"type":"array","insertionOrder":false,"items":{"enum":["a","b"]}},
				"Ordered":{"type":"array","insertionOrder":true,"items":{"type":"string"}},
				"Unsaid":{"type":"array","items":{"type":"string"}},
				"Rules":{"type":"array","insertionOrder":false,"items":{"$ref":"#/definitions/Rule"}},
				"Named":{"type":"array","insertionOrder":false,"items":{"type":"object","properties":{"Name":{"type":"string"},"V":{"type":"string"}}}},
				"Tags":{"type":"array","insertionOrder":false,"items":{"$ref":"#/definitions/TagMap"}},
				"Outer":{"type":"array","items":{"type":"object","properties":{
				   "Inner":{"type":"array","insertionOrder":false,"items":{"type":"string"}}}}},
				"Opaque":{"type":"array","insertionOrder":false,"items":{}}}`,
				`{"Rule":{"type":"object","properties":{"Port":{"type":"integer"}}},
				  "TagMap":{"type":"object","patternProperties":{".*":{"type":"string"}}}}`),
			want: func(f *schema.Facts) any { return [][]string{f.UnorderedScalarPaths, f.UnorderedObjectArrayPaths} },
			exp:  [][]string{{"Enums", "Ids"}, {"Rules"}},
		},
		{
			name: "free-form maps",
			doc: doc(`{"Env":{"type":"object","properties":{"Variables":{"type":"object","additionalProperties":false,"patternProperties":{"[a-z]+":{"type":"string"}}}}},
				"Params":{"type":"object","additionalProperties":{"type":"string"}},
				"Doc":{"type":["object","string"],"patternProperties":{".*":{"type":"string"}}},
				"Blob":{"type":"object"},
				"Closed":{"type":"object","additionalProperties":false},
				"Tags":{"type":"object","patternProperties":{".*":{"type":"string"}}},
				"List":{"type":"array","items":{"type":"object","properties":{"Labels":{"type":"object","additionalProperties":{"type":"string"}}}}}}`, ""),
			want: func(f *schema.Facts) any { return f.FreeFormMapPaths },
			exp:  []string{"Env.Variables", "List.*.Labels", "Params"},
		},
		{
			name: "identifiers keep their order",
			doc: doc(`{}`, "", `"primaryIdentifier":["/properties/Zone","/properties/Id"]`,
				`"additionalIdentifiers":[["/properties/Arn"],["/properties/Name","/properties/Account"]]`),
			want: func(f *schema.Facts) any { return []any{f.PrimaryIdentifier, f.AdditionalIdentifiers} },
			exp:  []any{[]string{"Zone", "Id"}, [][]string{{"Arn"}, {"Name", "Account"}}},
		},
		{
			name: "property transforms",
			doc:  doc(`{}`, "", `"propertyTransform":{"/properties/Name":"$lowercase(Name)","properties/Days":"Days*1000","/definitions/X":"x"}`),
			want: func(f *schema.Facts) any { return f.PropertyTransforms },
			exp:  map[string]string{"Name": "$lowercase(Name)", "Days": "Days*1000"},
		},
		{
			name: "handlers in canonical order",
			doc:  doc(`{}`, "", `"handlers":{"list":{},"update":{},"read":{}}`),
			want: func(f *schema.Facts) any { return []any{f.Handlers, f.Readable(), f.Updatable(), f.Provisionable()} },
			exp:  []any{[]string{"read", "update", "list"}, true, true, false},
		},
		{
			name: "handler permissions sorted, without duplicates",
			doc:  doc(`{}`, "", `"handlers":{"read":{"permissions":["sqs:ListQueueTags","sqs:GetQueueAttributes","sqs:ListQueueTags"]},"delete":{}}`),
			want: func(f *schema.Facts) any { return f.HandlerPermissions },
			exp:  map[string][]string{"read": {"sqs:GetQueueAttributes", "sqs:ListQueueTags"}},
		},
		{
			name: "no handlers",
			doc:  doc(`{}`, ""),
			want: func(f *schema.Facts) any { return []any{f.Handlers, f.Readable()} },
			exp:  []any{[]string(nil), false},
		},
		{
			name: "tagging",
			doc:  doc(`{"Labels":{"type":"array"}}`, "", `"tagging":{"taggable":true,"tagProperty":"/properties/Labels"}`),
			want: func(f *schema.Facts) any { return []any{f.Taggable, f.TagProperty} },
			exp:  []any{true, "Labels"},
		},
		{
			name: "not taggable",
			doc:  doc(`{"Tags":{"type":"array"}}`, "", `"tagging":{"taggable":false}`),
			want: func(f *schema.Facts) any { return []any{f.Taggable, f.TagProperty} },
			exp:  []any{false, ""},
		},
		{
			name: "legacy top-level taggable",
			doc:  doc(`{"Tags":{"type":"array"}}`, "", `"taggable":false`),
			want: func(f *schema.Facts) any { return []any{f.Taggable, f.TagProperty} },
			exp:  []any{false, ""},
		},
		{
			name: "taggable when unsaid",
			doc:  doc(`{"Tags":{"type":"array"}}`, ""),
			want: func(f *schema.Facts) any { return []any{f.Taggable, f.TagProperty} },
			exp:  []any{true, "Tags"},
		},
		{
			name: "empty lists are empty, not absent",
			doc:  doc(`{}`, ""),
			want: func(f *schema.Facts) any {
				return []any{f.ReadOnly, f.WriteOnlyPaths, f.CreateOnlyPaths, f.Defaults, f.DefaultPaths}
			},
			exp: []any{[]string{}, []string{}, []string{}, map[string]any{}, map[string]any(nil)},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := schema.FromRegistry([]byte(c.doc))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want(&f), c.exp); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
		})
	}
}

func TestFromRegistryBadInput(t *testing.T) {
	cases := []struct {
		name string
		doc  string
		is   error
	}{
		{"not JSON", `{"typeName":`, nil},
		{"wrong shape", `{"typeName":"A::B::C","properties":[]}`, nil},
		{"no typeName", `{"properties":{}}`, schema.ErrNotRegistrySchema},
		{"no properties", `{"typeName":"A::B::C"}`, schema.ErrNotRegistrySchema},
		{"an array", `[]`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := schema.FromRegistry([]byte(c.doc))
			if err == nil {
				t.Fatal("no error")
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("error %v, want %v", err, c.is)
			}
		})
	}
}

// TestFromRegistryTooComplex builds a schema whose distinct references fan
// out combinatorially: each level refers to the next level twice.
func TestFromRegistryTooComplex(t *testing.T) {
	var defs []string
	const levels = 30
	for i := 0; i < levels; i++ {
		defs = append(defs, fmt.Sprintf(`"L%d":{"type":"object","properties":{"A":{"$ref":"#/definitions/L%d"},"B":{"$ref":"#/definitions/L%d"}}}`, i, i+1, i+1))
	}
	defs = append(defs, fmt.Sprintf(`"L%d":{"type":"string"}`, levels))
	d := doc(`{"Root":{"$ref":"#/definitions/L0"}}`, "{"+strings.Join(defs, ",")+"}")
	_, err := schema.FromRegistry([]byte(d))
	if !errors.Is(err, schema.ErrTooComplex) {
		t.Errorf("error %v, want ErrTooComplex", err)
	}
}

func FuzzFromRegistry(f *testing.F) {
	f.Add([]byte(doc(`{"A":{"$ref":"#/definitions/A"}}`, `{"A":{"type":"object","properties":{"B":{"$ref":"#/definitions/A"}}}}`)))
	f.Add([]byte(doc(`{"A":{"type":"array","insertionOrder":false,"items":{"oneOf":[{"$ref":"#/x"},{}]}}}`, "")))
	f.Add([]byte(`{"typeName":"A::B::C","properties":{"A":{"$ref":"#/definitions"}},"definitions":{"x":1}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		f, err := schema.FromRegistry(b)
		if err != nil {
			return
		}
		if f.ReadOnlyPaths == nil || f.Defaults == nil {
			t.Errorf("nil lists in %+v", f)
		}
	})
}

// TestIAMAction: handler permissions that are real actions pass; the
// names notactions.txt lists, wildcards and malformed strings do not.
func TestIAMAction(t *testing.T) {
	for perm, want := range map[string]bool{
		"sqs:SetQueueAttributes": true, "iam:PassRole": true,
		"apigateway:TagResource": false, "APIGATEWAY:tagresource": false,
		"ec2:Describe*": false, "sqs": false, ":Get": false, "": false,
	} {
		if got := schema.IAMAction(perm); got != want {
			t.Errorf("IAMAction(%q) = %v, want %v", perm, got, want)
		}
	}
}
