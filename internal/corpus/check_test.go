package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// goodCase is a minimal case with every required field.
const goodCase = `{"corpusVersion":1,
 "resource":{"logicalId":"Q","resourceType":"AWS::SQS::Queue","physicalId":"https://sqs/q","declared":{}},
 "liveRaw":{"QueueName":"q"},
 "schema":{"readOnly":[],"writeOnly":[],"createOnly":[],"readOnlyPaths":[],"writeOnlyPaths":[],"createOnlyPaths":[],"defaults":{}},
 "opts":{"accountId":"111111111111","region":"us-east-1"},
 "expected":[{"tier":"undeclared","logicalId":"Q","resourceType":"AWS::SQS::Queue","physicalId":"https://sqs/q","path":"QueueName","actual":"q"}]}`

// edit returns goodCase with old replaced by new (once; the test fails when
// old is not there).
func edit(t *testing.T, old, new string) string {
	t.Helper()
	if !strings.Contains(goodCase, old) {
		t.Fatalf("goodCase has no %q", old)
	}
	return strings.Replace(goodCase, old, new, 1)
}

func TestParseReportsEveryProblem(t *testing.T) {
	tests := []struct {
		name, data string
		want       []Problem
	}{
		{"accountId as a number", edit(t, `"accountId":"111111111111"`, `"accountId":111111111111`),
			[]Problem{{"opts.accountId", "got a number, want a string"}}},
		{"a list where a map is expected", edit(t, `"region":"us-east-1"`, `"region":"us-east-1","kmsAliasTargets":["alias/aws/s3"]`),
			[]Problem{{"opts.kmsAliasTargets", "got an array, want an object"}}},
		{"unknown corpusVersion", edit(t, `"corpusVersion":1`, `"corpusVersion":2`),
			[]Problem{{"corpusVersion", "unknown version 2 (this realdrift reads [1])"}}},
		{"missing liveRaw", edit(t, `"liveRaw":{"QueueName":"q"},`, ``),
			[]Problem{{"liveRaw", "missing"}}},
		{"liveRaw as a list", edit(t, `"liveRaw":{"QueueName":"q"}`, `"liveRaw":[]`),
			[]Problem{{"liveRaw", "got an array, want an object"}}},
		{"null resource", edit(t, `"resource":{"logicalId":"Q","resourceType":"AWS::SQS::Queue","physicalId":"https://sqs/q","declared":{}}`, `"resource":null`),
			[]Problem{{"resource", "got null, want an object"}}},
		{"several problems, all named", edit(t, `"resourceType":"AWS::SQS::Queue","physicalId":"https://sqs/q","declared":{}}`, `"resourceType":"","declared":[]}`),
			[]Problem{{"resource.resourceType", "empty"}, {"resource.physicalId", "missing"}, {"resource.declared", "got an array, want an object"}}},
		{"bad tier and type in a finding", edit(t, `"tier":"undeclared","logicalId":"Q"`, `"tier":"bogus","logicalId":5`),
			[]Problem{{"expected[0].tier", `unknown tier "bogus"`}, {"expected[0].logicalId", "got a number, want a string"}}},
		{"missing expected", edit(t, `,
 "expected":[{"tier":"undeclared","logicalId":"Q","resourceType":"AWS::SQS::Queue","physicalId":"https://sqs/q","path":"QueueName","actual":"q"}]`, ``),
			[]Problem{{"expected", "missing"}}},
		{"duplicate tier and path", edit(t, `"actual":"q"}]`, `"actual":"q"},{"tier":"undeclared","logicalId":"Q","resourceType":"AWS::SQS::Queue","physicalId":"https://sqs/q","path":"QueueName","actual":"r"}]`),
			[]Problem{{"expected[1]", "same tier and path as expected[0] (undeclared QueueName)"}}},
		{"stack tag not a string", edit(t, `"region":"us-east-1"`, `"region":"us-east-1","stackTags":{"team":1}`),
			[]Problem{{"opts.stackTags.team", "got a number, want a string"}}},
		{"not JSON", "{\n\"corpusVersion\": 1,\n}", []Problem{{"", "invalid JSON at 3:1: invalid character '}' looking for beginning of object key string"}}},
		{"not an object", `[]`, []Problem{{"", "got an array, want an object"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("dir/bad.json", []byte(tt.data))
			var ce *CaseError
			if !errors.As(err, &ce) || !errors.Is(err, ErrBadCase) {
				t.Fatalf("err = %v, want a *CaseError", err)
			}
			if ce.Path != "dir/bad.json" {
				t.Errorf("path %q, want dir/bad.json", ce.Path)
			}
			if diff := cmp.Diff(ce.Problems, tt.want); diff != "" {
				t.Errorf("problems (-got +want):\n%s", diff)
			}
		})
	}
}

// Keys the format does not list, and fields of the right type the dev
// corpus happens not to use, are read.
func TestParseLenient(t *testing.T) {
	data := edit(t, `"actual":"q"}]`, `"actual":"q","freeFormKey":true,"newField":{"x":1}}],"recordedBy":"v9"`)
	data = strings.Replace(data, `"region":"us-east-1"`, `"region":"us-east-1","someNewFact":[1,2]`, 1)
	data = strings.Replace(data, `"defaults":{}`, `"defaults":{},"newSchemaFact":"x"`, 1)
	c, err := Parse("x.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Expected[0].FreeFormKey {
		t.Errorf("freeFormKey = false, want true")
	}
	if string(c.Extra["recordedBy"]) != `"v9"` {
		t.Errorf("extra = %v", c.Extra)
	}
}

// LoadDirs reads every good case of a directory, reports every bad one with
// its path and field, and goes on.
func TestLoadDirsGoesOnPastBadCases(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a_good.json":       goodCase,
		"b_account.json":    edit(t, `"accountId":"111111111111"`, `"accountId":1`),
		"c_version.json":    edit(t, `"corpusVersion":1`, `"corpusVersion":"1"`),
		"d_good.json":       edit(t, `"logicalId":"Q"`, `"logicalId":"Q2"`),
		"e_noliveraw.json":  edit(t, `"liveRaw":{"QueueName":"q"},`, ``),
		"f_truncated.json":  goodCase[:40],
		"g_declaredls.json": edit(t, `"declared":{}`, `"declared":[]`),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases, err := LoadDirs(dir, filepath.Join(dir, "missing"))
	var got []string
	for _, c := range cases {
		got = append(got, c.File)
	}
	if diff := cmp.Diff(got, []string{"a_good.json", "d_good.json"}); diff != "" {
		t.Errorf("cases (-got +want):\n%s", diff)
	}
	if err == nil {
		t.Fatal("no error for the bad cases")
	}
	msg := err.Error()
	for _, want := range []string{
		filepath.Join(dir, "b_account.json") + ": opts.accountId: got a number, want a string",
		filepath.Join(dir, "c_version.json") + ": corpusVersion: got a string, want a number",
		filepath.Join(dir, "e_noliveraw.json") + ": liveRaw: missing",
		filepath.Join(dir, "f_truncated.json") + ": (document): invalid JSON",
		filepath.Join(dir, "g_declaredls.json") + ": resource.declared: got an array, want an object",
		"missing: no such file or directory",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	bad := 0
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		if errors.Is(e, ErrBadCase) {
			bad++
		}
	}
	if bad != 5 {
		t.Errorf("%d bad cases reported, want 5", bad)
	}
}
