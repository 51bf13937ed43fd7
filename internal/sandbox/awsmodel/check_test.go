package awsmodel_test

import (
	"net/http"
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
		"RIn": {Type: "structure", Required: []string{"Id", "Batch"}, Members: map[string]*awsmodel.Ref{
			"Id": {Shape: "Name", Location: "uri", LocationName: "Id"}, "Key": {Shape: "Name", Location: "uri", LocationName: "Key"},
			"Mode": {Shape: "Mode", Location: "header", LocationName: "x-mode"}, "Count": {Shape: "Count", Location: "querystring", LocationName: "count"},
			"Batch": {Shape: "Batch"},
		}},
		"Batch": {Type: "structure", Members: map[string]*awsmodel.Ref{"Items": {Shape: "Items"}, "TTL": {Shape: "Count"}}},
		"Items": {Type: "list", Member: &awsmodel.Ref{Shape: "Tag", LocationName: "Item"}, Min: f(1)},
	}
	return &awsmodel.Table{
		Ops: map[string]awsmodel.Op{
			"svc:Put":  {Model: "svc", Protocol: "json", Input: "In"},
			"svc:QPut": {Model: "svc", Protocol: "query", Input: "In"},
			"svc:NoIn": {Model: "svc", Protocol: "json"},
			"svc:XPut": {Model: "svc", Protocol: "rest-xml", Input: "RIn", URI: "/v1/{Id}/obj/{Key+}?x"},
			"svc:RPut": {Model: "svc", Protocol: "rest-json", Input: "RIn", URI: "/v1/{Id}/obj/{Key+}"},
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
		{"rest-xml conforms", "svc:XPut", awsmodel.Request{Path: "/v1/abc/obj/ab", Header: http.Header{"X-Mode": {"fast"}},
			Body: []byte(`<RIn xmlns="x"><Batch><Items><Item><Key>k</Key></Item></Items><TTL>3</TTL></Batch></RIn>`)}, nil},
		{"rest-xml body, URI, greedy label, header, query string", "svc:XPut", awsmodel.Request{Path: "/v1/a%20b/obj/a/b/c/d/e/f/g", Header: http.Header{"X-Mode": {"medium"}},
			Form: url.Values{"count": {"0"}}, Body: []byte(`<RIn><Batch><Items><Item><Key></Key></Item></Items><TTL>300-oob</TTL></Batch></RIn>`)}, []string{
			`Value 'a b' at 'id' failed to satisfy constraint: Member must satisfy regular expression pattern: [\w-]+`,
			`Value 'a/b/c/d/e/f/g' at 'key' failed to satisfy constraint: Member must have length less than or equal to 8`,
			`Value 'a/b/c/d/e/f/g' at 'key' failed to satisfy constraint: Member must satisfy regular expression pattern: [\w-]+`,
			"Value 'medium' at 'mode' failed to satisfy constraint: Member must satisfy enum value set: [fast, slow]",
			"Value '0' at 'count' failed to satisfy constraint: Member must have value greater than or equal to 1",
			"Value '' at 'batch.items.1.member.key' failed to satisfy constraint: Member must have length greater than or equal to 1",
			`Value '' at 'batch.items.1.member.key' failed to satisfy constraint: Member must satisfy regular expression pattern: [\w-]+`,
			"Value '300-oob' at 'batch.tTL' failed to satisfy constraint: Member must be a number"}},
		{"rest-xml required body member, empty list", "svc:XPut", awsmodel.Request{Path: "/v1/abc/obj/k", Body: []byte(`<RIn><Batch><Items></Items></Batch></RIn>`)}, []string{
			"Value '[]' at 'batch.items' failed to satisfy constraint: Member must have length greater than or equal to 1"}},
		{"rest-xml no body", "svc:XPut", awsmodel.Request{Path: "/v1/abc/obj/k"}, []string{
			"Value null at 'batch' failed to satisfy constraint: Member must not be null"}},
		{"rest-xml a body that is not XML is the handler's", "svc:XPut", awsmodel.Request{Path: "/v1/abc/obj/k", Body: []byte(`<RIn>`)}, nil},
		{"rest-json URI and body", "svc:RPut", awsmodel.Request{Path: "/v1/bad%21/obj/k", Body: []byte(`{"Batch":{"TTL":11}}`)}, []string{
			`Value 'bad!' at 'id' failed to satisfy constraint: Member must satisfy regular expression pattern: [\w-]+`,
			"Value '11' at 'batch.tTL' failed to satisfy constraint: Member must have value less than or equal to 10"}},
		{"rest-json a path off the template is not read", "svc:RPut", awsmodel.Request{Path: "/v2/bad%21", Body: []byte(`{"Batch":{}}`)}, nil},
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
