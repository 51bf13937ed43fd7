package normalize

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStripPaths(t *testing.T) {
	model := map[string]any{
		"Arn": "arn:x",
		"Rules": []any{
			map[string]any{"Id": "a", "Secret": "s"},
			map[string]any{"Id": "b", "Secret": "t"},
		},
		"Keep": "k",
	}
	StripPaths(model, []string{"Arn", "Rules.*.Secret", "Missing.Path"})
	want := map[string]any{
		"Rules": []any{map[string]any{"Id": "a"}, map[string]any{"Id": "b"}},
		"Keep":  "k",
	}
	if d := cmp.Diff(model, want); d != "" {
		t.Errorf("StripPaths (-got +want):\n%s", d)
	}
}

func TestStripManaged(t *testing.T) {
	model := map[string]any{
		"LoggingConfiguration": map[string]any{"Level": "OFF", "CreatedAt": "2026-06-12"},
		"Environment":          map[string]any{"Variables": map[string]any{"CreatedAt": "user value"}},
		"Level":                "x",
	}
	StripManaged(model, nil, []string{"Environment.Variables"})
	want := map[string]any{
		"LoggingConfiguration": map[string]any{"Level": "OFF"},
		"Environment":          map[string]any{"Variables": map[string]any{"CreatedAt": "user value"}},
		"Level":                "x",
	}
	if d := cmp.Diff(model, want); d != "" {
		t.Errorf("StripManaged (-got +want):\n%s", d)
	}
}

func TestCanonicalPolicy(t *testing.T) {
	a := map[string]any{"Version": "2012-10-17", "Statement": []any{
		map[string]any{"Effect": "Allow", "Action": []any{"s3:PutObject", "s3:GetObject"}, "Resource": "*",
			"Principal": map[string]any{"AWS": "arn:aws:iam::111111111111:root"}},
		map[string]any{"Effect": "Deny", "Action": "sqs:*", "Resource": "*"},
	}}
	b := map[string]any{"Version": "2012-10-17", "Statement": []any{
		map[string]any{"Effect": "Deny", "Action": []any{"sqs:*"}, "Resource": []any{"*"}},
		map[string]any{"Effect": "Allow", "Action": []any{"s3:GetObject", "s3:PutObject"}, "Resource": []any{"*"},
			"Principal": map[string]any{"AWS": []any{"111111111111"}}},
	}}
	if d := cmp.Diff(CanonicalPolicy(a, ""), CanonicalPolicy(b, "")); d != "" {
		t.Errorf("representations of one policy differ:\n%s", d)
	}
	changed := Clone(b).(map[string]any)
	changed["Statement"].([]any)[1].(map[string]any)["Action"] = []any{"s3:*"}
	if Equal(CanonicalPolicy(a, ""), CanonicalPolicy(changed, "")) {
		t.Error("a widened action must still differ")
	}
	// The shorthand forms of one statement: a string or a one-element
	// list, an S3 bucket and its objects in either order.
	short := map[string]any{"Statement": map[string]any{"Effect": "Allow", "Action": "s3:GetObject",
		"Resource": []any{"arn:aws:s3:::b/*", "arn:aws:s3:::b"}}}
	long := map[string]any{"Statement": []any{map[string]any{"Effect": "Allow", "Action": []any{"s3:GetObject"},
		"Resource": []any{"arn:aws:s3:::b", "arn:aws:s3:::b/*"}}}}
	if d := cmp.Diff(CanonicalPolicy(short, ""), CanonicalPolicy(long, "")); d != "" {
		t.Errorf("shorthand forms of one statement differ:\n%s", d)
	}
	wider := Clone(long).(map[string]any)
	wider["Statement"].([]any)[0].(map[string]any)["Resource"] = []any{"arn:aws:s3:::b", "arn:aws:s3:::b*"}
	if Equal(CanonicalPolicy(short, ""), CanonicalPolicy(wider, "")) {
		t.Error("an object ARN widened to a bucket prefix must still differ")
	}
	waf := map[string]any{"Statement": map[string]any{"ByteMatchStatement": map[string]any{}}}
	if isPolicyDoc(waf) {
		t.Error("a WAF rule statement is not a policy document")
	}
}

// TestStatementProperty: a property that is one policy statement (an
// event bus policy's Statement) folds its shorthand; a changed action
// still differs.
func TestStatementProperty(t *testing.T) {
	p := Pass{}
	decl := p.Copy(map[string]any{"Statement": map[string]any{"Effect": "Allow", "Action": "events:PutEvents",
		"Principal": map[string]any{"AWS": "111111111111"}, "Resource": "arn:aws:events:us-east-1:111111111111:event-bus/b"}})
	live := p.Copy(map[string]any{"Statement": map[string]any{"Effect": "Allow", "Action": []any{"events:PutEvents"},
		"Principal": map[string]any{"AWS": []any{"arn:aws:iam::111111111111:root"}}, "Resource": []any{"arn:aws:events:us-east-1:111111111111:event-bus/b"}}})
	if d := cmp.Diff(decl, live); d != "" {
		t.Errorf("shorthand statement differs:\n%s", d)
	}
	changed := p.Copy(map[string]any{"Statement": map[string]any{"Effect": "Allow", "Action": []any{"events:*"},
		"Principal": map[string]any{"AWS": "111111111111"}, "Resource": "arn:aws:events:us-east-1:111111111111:event-bus/b"}})
	if Equal(decl, changed) {
		t.Error("a widened action must still differ")
	}
	waf := p.Copy(map[string]any{"Statement": map[string]any{"ByteMatchStatement": map[string]any{"SearchString": "a"}}})
	if _, ok := waf["Statement"].(map[string]any)["ByteMatchStatement"]; !ok {
		t.Error("a WAF statement must be left alone")
	}
}

func TestStripSystemTags(t *testing.T) {
	live := []any{
		map[string]any{"Key": "aws:cloudformation:stack-name", "Value": "S"},
		map[string]any{"Key": "team", "Value": "a"},
		map[string]any{"Key": "env", "Value": "prod"},
	}
	got := StripSystemTags(live, map[string]string{"env": "prod"}, nil)
	want := []any{map[string]any{"Key": "team", "Value": "a"}}
	if d := cmp.Diff(got, want); d != "" {
		t.Errorf("StripSystemTags (-got +want):\n%s", d)
	}
	// A stack tag whose value changed is not the stack's tag any more.
	live2 := []any{map[string]any{"Key": "env", "Value": "dev"}}
	if got := StripSystemTags(live2, map[string]string{"env": "prod"}, nil); len(got.([]any)) != 1 {
		t.Error("a stack tag with another value must stay")
	}
	// IAM condition keys are not tags.
	model := map[string]any{"Condition": map[string]any{"Bool": map[string]any{"aws:SecureTransport": "false"}}}
	StripSystemTagsDeep(model, nil)
	if _, ok := model["Condition"].(map[string]any)["Bool"].(map[string]any)["aws:SecureTransport"]; !ok {
		t.Error("an IAM condition key was stripped")
	}
}

func TestOrderSteps(t *testing.T) {
	ids := []any{"subnet-0bbbbbbbbbbbbbbbb", "subnet-0aaaaaaaaaaaaaaaa"}
	SortIDArrays(map[string]any{"S": ids})
	if ids[0] != "subnet-0aaaaaaaaaaaaaaaa" {
		t.Errorf("id set not sorted: %v", ids)
	}
	layers := []any{"arn:aws:lambda:us-east-1:1:layer:b:1", "arn:aws:lambda:us-east-1:1:layer:a:1"}
	SortIDArrays(map[string]any{"Layers": layers})
	if layers[0] != "arn:aws:lambda:us-east-1:1:layer:b:1" {
		t.Error("a layer list must keep its order")
	}
	plain := []any{"b", "a"}
	SortIDArrays(map[string]any{"P": plain})
	if plain[0] != "b" {
		t.Error("a plain scalar list must keep its order")
	}
	tags := []any{map[string]any{"Key": "b"}, map[string]any{"Key": "a"}}
	SortIdentityArrays(map[string]any{"Tags": tags})
	if tags[0].(map[string]any)["Key"] != "a" {
		t.Error("identity-keyed set not sorted")
	}
	model := map[string]any{"Set": []any{"z", "a"}, "Rules": []any{map[string]any{"p": 2.0}, map[string]any{"p": 1.0}}}
	SortUnordered(model, []string{"Set"}, []string{"Rules"})
	want := map[string]any{"Set": []any{"a", "z"}, "Rules": []any{map[string]any{"p": 1.0}, map[string]any{"p": 2.0}}}
	if d := cmp.Diff(model, want); d != "" {
		t.Errorf("SortUnordered (-got +want):\n%s", d)
	}
}

func TestFilterSiblingPolicies(t *testing.T) {
	live := func() map[string]any {
		return map[string]any{"Policies": []any{
			map[string]any{"PolicyName": "RoleDefaultPolicy"},
			map[string]any{"PolicyName": "rogue"},
		}}
	}
	m := live()
	FilterSiblingPolicies(m, []string{"RoleDefaultPolicy"})
	if d := cmp.Diff(m, map[string]any{"Policies": []any{map[string]any{"PolicyName": "rogue"}}}); d != "" {
		t.Errorf("sibling filter (-got +want):\n%s", d)
	}
	m = live()
	FilterSiblingPolicies(m, []string{""})
	if len(m["Policies"].([]any)) != 2 {
		t.Error("an unresolvable sibling name must fail open")
	}
}

func TestCanonicalJSONTextAndNulls(t *testing.T) {
	model := map[string]any{"Doc": "{\n  \"b\": 1,\n  \"a\": [\"x\"]\n}", "Plain": "{not json", "L": []any{nil, "x"}}
	CanonicalJSONText(model)
	DropNullItems(model)
	want := map[string]any{"Doc": `{"a":["x"],"b":1}`, "Plain": "{not json", "L": []any{"x"}}
	if d := cmp.Diff(model, want); d != "" {
		t.Errorf("(-got +want):\n%s", d)
	}
}

func TestPassLeavesInputAlone(t *testing.T) {
	in := map[string]any{"Tags": []any{map[string]any{"Key": "aws:x", "Value": "1"}}, "CreationTime": "t", "S": []any{"sg-0bbbbbbbbbbbbbbbb", "sg-0aaaaaaaaaaaaaaaa"}}
	before := Clone(in)
	p := Pass{Live: true}
	got := p.Copy(in)
	if d := cmp.Diff(in, before); d != "" {
		t.Errorf("input modified:\n%s", d)
	}
	want := map[string]any{"Tags": []any{}, "S": []any{"sg-0aaaaaaaaaaaaaaaa", "sg-0bbbbbbbbbbbbbbbb"}}
	if d := cmp.Diff(got, want); d != "" {
		t.Errorf("Pass.Copy (-got +want):\n%s", d)
	}
}

func TestOwn(t *testing.T) {
	shared := map[string]any{"A": []any{map[string]any{"B": []any{"z", "a"}, "C": "x"}}}
	before := Clone(shared)
	root := map[string]any{"A": shared["A"]}
	Own(root, "A.*.B")
	SortUnordered(root, []string{"A.*.B"}, nil)
	Own(root, "A.*")
	StripPaths(root, []string{"A.*.C"})
	if d := cmp.Diff(shared, before); d != "" {
		t.Errorf("shared data modified:\n%s", d)
	}
	want := map[string]any{"A": []any{map[string]any{"B": []any{"a", "z"}}}}
	if d := cmp.Diff(root, want); d != "" {
		t.Errorf("owned result (-got +want):\n%s", d)
	}
}

func TestOAIPrincipals(t *testing.T) {
	ids := map[string]string{"E2OAI": "canon123"}
	doc := func(p map[string]any) map[string]any {
		return CanonicalPolicy(map[string]any{"Statement": []any{map[string]any{"Effect": "Allow", "Action": "s3:GetObject", "Resource": "*", "Principal": p}}}, "")
	}
	declared := doc(map[string]any{"CanonicalUser": "canon123"})
	live := doc(map[string]any{"AWS": oaiARNPrefix + "E2OAI"})
	OAIPrincipals(declared, ids)
	OAIPrincipals(live, ids)
	if d := cmp.Diff(declared, live); d != "" {
		t.Errorf("OAI written two ways differs:\n%s", d)
	}
	other := doc(map[string]any{"CanonicalUser": "canon999"})
	OAIPrincipals(other, ids)
	if Equal(other, live) {
		t.Error("another canonical user must still differ")
	}
}
