package valuediff

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func render(ls []Line) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.String() + "\n")
	}
	return b.String()
}

func TestLines(t *testing.T) {
	policy := func(actions ...any) any {
		return map[string]any{"Version": "2012-10-17", "Statement": []any{
			map[string]any{"Effect": "Allow", "Action": actions, "Resource": "*"},
		}}
	}
	for _, tc := range []struct {
		name     string
		old, new any
		want     string
	}{
		{"an added list element is added lines only", policy("s3:GetObject", "s3:ListBucket"), policy("s3:GetObject", "s3:ListBucket", "s3:PutObject"),
			"@@ -3,7 +3,8 @@\n[ ]     {\n[ ]       \"Action\": [\n[ ]         \"s3:GetObject\",\n[-]         \"s3:ListBucket\"\n[+]         \"s3:ListBucket\",\n[+]         \"s3:PutObject\"\n[ ]       ],\n[ ]       \"Effect\": \"Allow\",\n[ ]       \"Resource\": \"*\"\n"},
		{"a changed scalar is its line removed and added", map[string]any{"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0, "e": 5.0, "f": 6.0, "g": 7.0, "h": 8.0, "i": 9.0}, map[string]any{"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0, "e": 50.0, "f": 6.0, "g": 7.0, "h": 8.0, "i": 9.0},
			"@@ -3,7 +3,7 @@\n[ ]   \"b\": 2,\n[ ]   \"c\": 3,\n[ ]   \"d\": 4,\n[-]   \"e\": 5,\n[+]   \"e\": 50,\n[ ]   \"f\": 6,\n[ ]   \"g\": 7,\n[ ]   \"h\": 8,\n"},
		{"equal values give nothing", policy("a"), policy("a"), ""},
		{"a multi-line string diffs by its lines", "one\ntwo\nthree\n", "one\n2\nthree\n", "@@ -1,3 +1,3 @@\n[ ] one\n[-] two\n[+] 2\n[ ] three\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Lines(tc.old, tc.new)
			if !ok {
				t.Fatal("not aligned")
			}
			if d := cmp.Diff(render(got), tc.want); d != "" {
				t.Errorf("(-got +want):\n%s", d)
			}
		})
	}
}

func TestLinesBounded(t *testing.T) {
	big := make([]any, MaxLines+1)
	for i := range big {
		big[i] = i
	}
	if _, ok := Lines(big, []any{1}); ok {
		t.Error("a value over MaxLines lines was aligned")
	}
}

func TestLong(t *testing.T) {
	if Long("short", "also short", 80) || Long(1.0, 2.0, 80) {
		t.Error("scalars are not long")
	}
	if !Long(map[string]any{"k": strings.Repeat("x", 100)}, nil, 80) {
		t.Error("a 100-char map is long at width 80")
	}
}
