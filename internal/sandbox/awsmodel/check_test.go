package awsmodel_test

import (
	"net/url"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox/awsmodel"
)

func f(v float64) *float64 { return &v }

// table is a small model: one JSON and one query operation over the
// same shapes.
func table() *awsmodel.Table {
	shapes := map[string]*awsmodel.RawShape{
		"In": {Type: "structure", Required: []string{"Name", "Mode"}, Members: map[string]*awsmodel.Ref{
			"Name": {Shape: "Name"}, "Mode": {Shape: "Mode"}, "Count": {Shape: "Count"}, "Tags": {Shape: "Tags"}, "On": {Shape: "Bool"},
		}},
		"Name":  {Type: "string", Min: f(1), Max: f(8), Pattern: `[\w-]+`},
		"Mode":  {Type: "string", Enum: []string{"fast", "slow"}},
		"Count": {Type: "integer", Min: f(1), Max: f(10)},
		"Tags":  {Type: "list", Member: &awsmodel.Ref{Shape: "Tag"}, Max: f(2)},
		"Tag":   {Type: "structure", Required: []string{"Key"}, Members: map[string]*awsmodel.Ref{"Key": {Shape: "Name"}}},
		"Bool":  {Type: "boolean"},
	}
	return &awsmodel.Table{
		Ops: map[string]awsmodel.Op{
			"svc:Put":  {Model: "svc", Protocol: "json", Input: "In"},
			"svc:QPut": {Model: "svc", Protocol: "query", Input: "In"},
			"svc:NoIn": {Model: "svc", Protocol: "json"},
		},
		Shapes: map[string]map[string]*awsmodel.RawShape{"svc": shapes},
	}
}

func TestCheck(t *testing.T) {
	tab := table()
	for _, tc := range []struct {
		name, op string
		req      awsmodel.Request
		want     []string
	}{
		{"json conforms", "svc:Put", awsmodel.Request{Body: []byte(`{"Name":"a-b","Mode":"fast","Count":3,"Tags":[{"Key":"k"}],"On":true}`)}, nil},
		{"json required", "svc:Put", awsmodel.Request{Body: []byte(`{}`)}, []string{
			"Value null at 'name' failed to satisfy constraint: Member must not be null",
			"Value null at 'mode' failed to satisfy constraint: Member must not be null"}},
		{"json pattern matches the whole value", "svc:Put", awsmodel.Request{Body: []byte(`{"Name":"a b","Mode":"fast"}`)}, []string{
			`Value 'a b' at 'name' failed to satisfy constraint: Member must satisfy regular expression pattern: [\w-]+`}},
		{"json enum, range, count, nested", "svc:Put", awsmodel.Request{Body: []byte(`{"Name":"abc","Mode":"medium","Count":11,"Tags":[{},{"Key":"k"},{"Key":"k"}]}`)}, []string{
			"Value 'medium' at 'mode' failed to satisfy constraint: Member must satisfy enum value set: [fast, slow]",
			"Value '11' at 'count' failed to satisfy constraint: Member must have value less than or equal to 10",
			"Value '[map[] map[Key:k] map[Key:k]]' at 'tags' failed to satisfy constraint: Member must have length less than or equal to 2",
			"Value null at 'tags.1.member.key' failed to satisfy constraint: Member must not be null"}},
		{"json types", "svc:Put", awsmodel.Request{Body: []byte(`{"Name":"abc","Mode":"fast","Count":"x","On":"yes"}`)}, []string{
			"Value 'x' at 'count' failed to satisfy constraint: Member must be a number",
			"Value 'yes' at 'on' failed to satisfy constraint: Member must be a boolean"}},
		{"query conforms", "svc:QPut", awsmodel.Request{Form: url.Values{"Name": {"abc"}, "Mode": {"slow"}, "Tags.member.1.Key": {"k"}}}, nil},
		{"query list and length", "svc:QPut", awsmodel.Request{Form: url.Values{"Name": {"abcdefghi"}, "Mode": {"slow"}, "Tags.member.1.Key": {""}}}, []string{
			"Value 'abcdefghi' at 'name' failed to satisfy constraint: Member must have length less than or equal to 8",
			"Value '' at 'tags.1.member.key' failed to satisfy constraint: Member must have length greater than or equal to 1",
			"Value '' at 'tags.1.member.key' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w-]+"}},
		{"not in the table", "svc:Other", awsmodel.Request{Body: []byte(`{}`)}, nil},
		{"no input", "svc:NoIn", awsmodel.Request{Body: []byte(`{}`)}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tab.Check(tc.op, tc.req)
			if diff := cmp.Diff(sorted(got), sorted(tc.want)); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
		})
	}
	if got, want := awsmodel.Message([]string{"a", "b"}), "2 validation errors detected: a; b"; got != want {
		t.Errorf("Message: got %q, want %q", got, want)
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// TestEmbedded: the table built into the binary reads, and holds a write
// the sandbox serves.
func TestEmbedded(t *testing.T) {
	tab, err := awsmodel.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if o, ok := tab.Ops["iam:PutRolePolicy"]; !ok || o.Input == "" || o.Protocol != "query" {
		t.Errorf("iam:PutRolePolicy: %+v, %v", o, ok)
	}
}
