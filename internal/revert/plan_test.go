package revert

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/baseline"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

var stack = drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: "App"}

func queueFacts() *schema.Facts {
	return &schema.Facts{ReadOnly: []string{"Arn", "QueueUrl"}, CreateOnly: []string{"FifoQueue", "QueueName"}, Handlers: []string{"create", "read", "update", "delete", "list"}}
}

func facts(t string) (*schema.Facts, bool) {
	switch t {
	case "AWS::SQS::Queue":
		return queueFacts(), true
	case "AWS::Logs::LogGroup":
		return &schema.Facts{Handlers: []string{"create", "read", "delete", "list"}}, true
	}
	return nil, false
}

func f(tier drift.Tier, lid, typ, path string, actual, desired any) drift.Finding {
	return drift.Finding{Tier: tier, LogicalID: lid, ResourceType: typ, PhysicalID: lid + "-phys", Path: path, Actual: actual, Desired: desired}
}

func with(x drift.Finding, mod func(*drift.Finding)) drift.Finding { mod(&x); return x }

func TestBuild(t *testing.T) {
	const q = "AWS::SQS::Queue"
	const lb = "AWS::ElasticLoadBalancingV2::LoadBalancer"
	base := &baseline.Baseline{Stack: stack}
	doc := map[string]any{"Version": "2012-10-17", "Statement": []any{map[string]any{"Effect": "Allow", "Action": "sqs:SendMessage", "Resource": "*"}}}
	tests := []struct {
		name     string
		findings []drift.Finding
		base     *baseline.Baseline
		opt      Options
	}{
		{name: "declared", base: base, findings: []drift.Finding{
			f(drift.Declared, "Queue", q, "VisibilityTimeout", 60, 30),
			f(drift.Declared, "Queue", q, "RedrivePolicy.maxReceiveCount", 9, 3),
			f(drift.Declared, "Queue", q, "QueueName", "b", "a"),
			f(drift.Declared, "Queue", q, "Tags[env].Value", "x", "y"),
			f(drift.Declared, "Logs", "AWS::Logs::LogGroup", "RetentionInDays", 1, 7),
			f(drift.Deleted, "Gone", q, "", nil, nil),
			f(drift.Declared, "Secretive", q, "KmsMasterKeyId", "k", drift.Unknown{Reason: "x"}),
		}},
		{name: "undeclared", base: base, findings: []drift.Finding{
			with(f(drift.Undeclared, "Queue", q, "DelaySeconds", 5, 0), func(x *drift.Finding) { x.Note = baseline.NoteChanged }),
			with(f(drift.Undeclared, "Queue", q, "KmsDataKeyReusePeriodSeconds", 600, nil), func(x *drift.Finding) { x.Note = baseline.NoteAppeared }),
			with(f(drift.Undeclared, "Queue", q, "MaximumMessageSize", nil, 1024), func(x *drift.Finding) { x.Note = baseline.NoteRemoved }),
			with(f(drift.Undeclared, "Queue", q, "ReceiveMessageWaitTimeSeconds", 20, nil), func(x *drift.Finding) { x.Unrecorded = true }),
			with(f(drift.Undeclared, "Bucket", "AWS::S3::Bucket", "AccelerateConfiguration", map[string]any{"AccelerationStatus": "Enabled"}, nil), func(x *drift.Finding) { x.Note = baseline.NoteAppeared }),
			with(f(drift.Undeclared, "Role", "AWS::IAM::Role", "Policies", []any{map[string]any{"PolicyName": "rogue", "PolicyDocument": doc}}, nil), func(x *drift.Finding) { x.Note = baseline.NoteAppeared }),
		}},
		{name: "no-baseline", findings: []drift.Finding{
			f(drift.Declared, "Queue", q, "VisibilityTimeout", 60, 30),
			f(drift.Undeclared, "Queue", q, "DelaySeconds", 5, nil),
			with(f(drift.Added, "Topic/Subscription", "AWS::SNS::Subscription", "", map[string]any{"Protocol": "email"}, nil), func(x *drift.Finding) { x.Unrecorded = true }),
		}},
		{name: "sdk-writers-and-children", base: base, findings: []drift.Finding{
			f(drift.Declared, "BucketPolicy", "AWS::S3::BucketPolicy", "PolicyDocument", map[string]any{}, doc),
			f(drift.Declared, "QueuePolicy", "AWS::SQS::QueuePolicy", "Queues", []any{}, []any{"https://q"}),
			f(drift.Declared, "Managed", "AWS::IAM::ManagedPolicy", "PolicyDocument", map[string]any{}, doc),
			f(drift.Declared, "Managed", "AWS::IAM::ManagedPolicy", "Roles", []any{}, []any{"r"}),
			f(drift.Declared, "Perm", "AWS::Lambda::Permission", "Principal", "123456789012", "s3.amazonaws.com"),
			f(drift.Declared, "Role", "AWS::IAM::Role", "ManagedPolicyArns", []any{"arn:aws:iam::111111111111:policy/rogue"}, []any{"arn:aws:iam::aws:policy/ReadOnlyAccess"}),
			with(f(drift.Undeclared, "User", "AWS::IAM::User", "ManagedPolicyArns", []any{"arn:aws:iam::111111111111:policy/rogue"}, nil), func(x *drift.Finding) { x.Note = baseline.NoteAppeared }),
			with(f(drift.Added, "Topic/Subscription", "AWS::SNS::Subscription", "", map[string]any{"Protocol": "email"}, nil), func(x *drift.Finding) {
				x.Note, x.PhysicalID = baseline.NoteAppeared, "arn:aws:sns:us-east-1:111111111111:t:abc"
			}),
			with(f(drift.Added, "Fn/Permission", "AWS::Lambda::Permission", "", map[string]any{"FunctionName": "fn"}, nil), func(x *drift.Finding) {
				x.Note, x.PhysicalID = baseline.NoteAppeared, "oob"
			}),
			with(f(drift.Added, "Fn/Url", "AWS::Lambda::Url", "", map[string]any{}, map[string]any{}), func(x *drift.Finding) { x.Note = baseline.NoteChanged }),
		}},
		// A type Cloud Control has no handlers for: written by its SDK
		// writer (Route 53), else not revertable, never a Cloud Control
		// update that fails.
		{name: "cloud-control-gap", base: base, findings: []drift.Finding{
			f(drift.Declared, "Record", "AWS::Route53::RecordSet", "TTL", "60", "300"),
			f(drift.Declared, "Filter", "AWS::Logs::MetricFilter", "FilterPattern", "ERROR", "WARN"),
		}},
		// ELB attribute bags: each drifted key is its own item, written
		// per key by the bag's writer; a key that appeared since record
		// has no absent state.
		{name: "attribute-bags", base: base, findings: []drift.Finding{
			with(f(drift.Declared, "Edge", lb, "LoadBalancerAttributes", "300", "120"), func(x *drift.Finding) { x.AttributeKey = "idle_timeout.timeout_seconds" }),
			with(f(drift.Declared, "Edge", lb, "LoadBalancerAttributes", "true", "false"), func(x *drift.Finding) { x.AttributeKey = "deletion_protection.enabled" }),
			with(f(drift.Undeclared, "Edge", lb, "LoadBalancerAttributes[routing.http2.enabled]", "false", "true"), func(x *drift.Finding) { x.Note = baseline.NoteChanged }),
			with(f(drift.Undeclared, "Pool", "AWS::ElasticLoadBalancingV2::TargetGroup", "TargetGroupAttributes[stickiness.enabled]", "true", nil), func(x *drift.Finding) { x.Note = baseline.NoteAppeared }),
		}},
		// --remove-unrecorded: an unrecorded value is removed, an
		// unrecorded toggle stays (no absent state), an unrecorded child
		// is deleted; without a baseline the same.
		{name: "remove-unrecorded", opt: Options{RemoveUnrecorded: true}, findings: []drift.Finding{
			f(drift.Declared, "Queue", q, "VisibilityTimeout", 60, 30),
			with(f(drift.Undeclared, "Queue", q, "DelaySeconds", 5, nil), func(x *drift.Finding) { x.Unrecorded = true }),
			with(f(drift.Undeclared, "Bucket", "AWS::S3::Bucket", "AccelerateConfiguration", map[string]any{"AccelerationStatus": "Enabled"}, nil), func(x *drift.Finding) { x.Unrecorded = true }),
			with(f(drift.Added, "Topic/Subscription", "AWS::SNS::Subscription", "", map[string]any{"Protocol": "email"}, nil), func(x *drift.Finding) {
				x.Unrecorded, x.PhysicalID = true, "arn:aws:sns:us-east-1:111111111111:t:abc"
			}),
		}},
		// The service's revert role is granted Cloud Control writes of the
		// bucket only: the queue's patch and the subscription's Cloud
		// Control delete are ungranted, the bucket's patch is planned, and
		// the SDK deleter of the Lambda permission needs no grant.
		{name: "ungranted", base: base, opt: Options{CloudControlTypes: []string{"AWS::S3::Bucket"}, RemoveUnrecorded: true}, findings: []drift.Finding{
			f(drift.Declared, "Queue", q, "VisibilityTimeout", 60, 30),
			f(drift.Declared, "Bucket", "AWS::S3::Bucket", "VersioningConfiguration.Status", "Suspended", "Enabled"),
			with(f(drift.Added, "Topic/Subscription", "AWS::SNS::Subscription", "", map[string]any{"Protocol": "email"}, nil), func(x *drift.Finding) {
				x.Unrecorded, x.PhysicalID = true, "arn:aws:sns:us-east-1:111111111111:t:abc"
			}),
			with(f(drift.Added, "Fn/Permission", "AWS::Lambda::Permission", "", map[string]any{"Principal": "s3.amazonaws.com"}, nil), func(x *drift.Finding) {
				x.Unrecorded, x.PhysicalID = true, "fn|oob-statement"
			}),
		}},
		{name: "scoped", base: base, opt: Options{UndeclaredOnly: true, Only: []string{"Queue.*"}}, findings: []drift.Finding{
			f(drift.Declared, "Queue", q, "VisibilityTimeout", 60, 30),
			with(f(drift.Undeclared, "Queue", q, "DelaySeconds", 5, 0), func(x *drift.Finding) { x.Note = baseline.NoteChanged }),
			with(f(drift.Undeclared, "Other", q, "DelaySeconds", 5, 0), func(x *drift.Finding) { x.Note = baseline.NoteChanged }),
			f(drift.AtDefault, "Queue", q, "SqsManagedSseEnabled", true, nil),
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Stack: stack, Findings: tc.findings, Baseline: tc.base, Facts: facts,
				Resources: []Resource{{LogicalID: "Queue", Type: q, PhysicalID: "Queue-phys", Identifier: "Queue-cc"}}}
			p, err := Build(in, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(p, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			file := filepath.Join("testdata", tc.name+".golden.json")
			if *update {
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if diff := cmp.Diff(string(got), string(want)); diff != "" {
				t.Errorf("plan (-got +want):\n%s", diff)
			}
			// Deterministic: the same input plans the same bytes.
			again, _ := Build(in, tc.opt)
			b, _ := json.MarshalIndent(again, "", "  ")
			if string(b)+"\n" != string(got) {
				t.Error("two builds differ")
			}
			// Every drift finding chosen is an item or not revertable.
			var back Plan
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatalf("the plan does not read back: %v", err)
			}
		})
	}
}

// TestBagKeysShareOneWrite: the keys of one resource's attribute bag are
// one write; an IAM role's inline policies stay one write per entry.
func TestBagKeysShareOneWrite(t *testing.T) {
	const lb = "AWS::ElasticLoadBalancingV2::LoadBalancer"
	base := &baseline.Baseline{Stack: stack}
	p, err := Build(Input{Stack: stack, Baseline: base, Findings: []drift.Finding{
		with(f(drift.Declared, "Edge", lb, "LoadBalancerAttributes", "300", "120"), func(x *drift.Finding) { x.AttributeKey = "idle_timeout.timeout_seconds" }),
		with(f(drift.Declared, "Edge", lb, "LoadBalancerAttributes", "true", "false"), func(x *drift.Finding) { x.AttributeKey = "deletion_protection.enabled" }),
	}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 2 || p.Items[0].ID == p.Items[1].ID {
		t.Fatalf("items: %+v", p.Items)
	}
	if g := groups(p); len(g) != 1 || len(g[0].items) != 2 {
		t.Errorf("groups: %+v", g)
	}
	// The re-check names each key apart: one still drifted, one not.
	after := []drift.Finding{with(f(drift.Declared, "Edge", lb, "LoadBalancerAttributes", "301", "120"), func(x *drift.Finding) { x.AttributeKey = "idle_timeout.timeout_seconds" })}
	out := Converge(p, []Write{{ID: p.Items[0].ID, Attempts: 1}, {ID: p.Items[1].ID, Attempts: 1}}, after, nil)
	got := map[string]Status{}
	for _, o := range out {
		got[o.ID] = o.Status
	}
	want := map[string]Status{"Edge LoadBalancerAttributes[deletion_protection.enabled]": Reverted, "Edge LoadBalancerAttributes[idle_timeout.timeout_seconds]": StillDrifted}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outcomes (-want +got):\n%s", diff)
	}
}

// TestAttachmentMembersByName: a detached member of an attachment list
// (a role's managed policy ARN) is named by its keyed path, as check
// prints it and ignore matches it: --only picks one member, and its item
// writes the whole list with the member back.
func TestAttachmentMembersByName(t *testing.T) {
	const role = "AWS::IAM::Role"
	const a, b, c = "arn:aws:iam::aws:policy/ReadOnlyAccess", "arn:aws:iam::111111111111:policy/app-write", "arn:aws:iam::111111111111:policy/app-read"
	live := []any{a}
	member := func(arn string) drift.Finding {
		return with(f(drift.Declared, "AppRole", role, "ManagedPolicyArns", nil, arn), func(x *drift.Finding) {
			x.AttributeKey, x.ConstructPath = arn, "App/AppRole/Resource"
			x.WholeArrayRevert = &drift.WholeArrayRevert{Path: "ManagedPolicyArns", Value: append(append([]any{}, live...), b, c)}
		})
	}
	findings := []drift.Finding{member(b), member(c)}
	for _, g := range []string{"AppRole.ManagedPolicyArns[" + b + "]", "App/AppRole.ManagedPolicyArns[" + b + "]"} {
		var named []string
		for _, x := range findings {
			if OnlyMatches(stack, x, g) {
				named = append(named, x.AttributeKey)
			}
		}
		if diff := cmp.Diff(named, []string{b}); diff != "" {
			t.Errorf("--only %s names (-got +want):\n%s", g, diff)
		}
	}
	p, err := Build(Input{Stack: stack, Baseline: &baseline.Baseline{Stack: stack}, Findings: findings},
		Options{Only: []string{"AppRole.ManagedPolicyArns[" + b + "]"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 1 {
		t.Fatalf("items: %+v (not revertable %+v)", p.Items, p.NotRevertable)
	}
	it := p.Items[0]
	if it.ID != "AppRole ManagedPolicyArns["+b+"]" || it.Path != "ManagedPolicyArns["+b+"]" {
		t.Errorf("item named %q at %q", it.ID, it.Path)
	}
	// The list is written whole: the live list and the chosen member, not
	// the member --only left out.
	want := []Op{{Op: "replace", Path: "/ManagedPolicyArns", Value: []any{a, b}}}
	if diff := cmp.Diff(it.Patch, want); diff != "" {
		t.Errorf("patch (-got +want):\n%s", diff)
	}
}

// TestAttachmentListOneWrite: a rogue managed policy attached to a role
// out of band (undeclared, ManagedPolicyArns[rogue]) is revertable: the
// plan writes the role's list as read less the rogue ARN plus the
// detached declared one, one write for both members; a member not chosen
// stays as read; a member whose live list the plan was not given is not
// revertable, never written blind.
func TestAttachmentListOneWrite(t *testing.T) {
	const role, mp = "AWS::IAM::Role", "AWS::IAM::ManagedPolicy"
	const kept, declared, rogue, other = "arn:aws:iam::aws:policy/ReadOnlyAccess", "arn:aws:iam::111111111111:policy/app",
		"arn:aws:iam::aws:policy/AdministratorAccess", "arn:aws:iam::aws:policy/IAMFullAccess"
	read := []any{kept, rogue, other}
	missing := with(f(drift.Declared, "AppRole", role, "ManagedPolicyArns", nil, declared), func(x *drift.Finding) {
		x.AttributeKey = declared
		x.WholeArrayRevert = &drift.WholeArrayRevert{Path: "ManagedPolicyArns", Value: append(append([]any{}, read...), declared)}
	})
	appeared := func(arn string) drift.Finding {
		return with(f(drift.Undeclared, "AppRole", role, "ManagedPolicyArns["+arn+"]", arn, nil), func(x *drift.Finding) { x.Note = baseline.NoteAppeared })
	}
	roleRes := Resource{LogicalID: "AppRole", Type: role, PhysicalID: "AppRole-phys", Live: map[string]any{"RoleName": "AppRole-phys", "ManagedPolicyArns": read}}
	// A managed policy's Roles: a rogue role attached to it out of band.
	polRes := Resource{LogicalID: "Pol", Type: mp, PhysicalID: "Pol-phys", Live: map[string]any{"Roles": []any{"app", "rogue-role"}}}
	rogueRole := with(f(drift.Undeclared, "Pol", mp, "Roles[rogue-role]", "rogue-role", nil), func(x *drift.Finding) { x.Note = baseline.NoteAppeared })
	base := &baseline.Baseline{Stack: stack}
	tests := []struct {
		name      string
		findings  []drift.Finding
		resources []Resource
		only      []string
		want      map[string][]Op // item path → patch
		notRev    map[string]Reason
	}{
		{name: "rogue and detached", findings: []drift.Finding{missing, appeared(rogue)}, resources: []Resource{roleRes},
			want: map[string][]Op{
				"ManagedPolicyArns[" + declared + "]": {{Op: "replace", Path: "/ManagedPolicyArns", Value: []any{kept, other, declared}}},
				"ManagedPolicyArns[" + rogue + "]":    {{Op: "replace", Path: "/ManagedPolicyArns", Value: []any{kept, other, declared}}},
			}},
		{name: "only the rogue", findings: []drift.Finding{missing, appeared(rogue), appeared(other)}, resources: []Resource{roleRes},
			only: []string{"AppRole.ManagedPolicyArns[" + rogue + "]"},
			want: map[string][]Op{"ManagedPolicyArns[" + rogue + "]": {{Op: "replace", Path: "/ManagedPolicyArns", Value: []any{kept, other}}}}},
		{name: "managed policy roles", findings: []drift.Finding{rogueRole}, resources: []Resource{polRes},
			want: map[string][]Op{"Roles[rogue-role]": {{Op: "replace", Path: "/Roles", Value: []any{"app"}}}}},
		{name: "live list not given", findings: []drift.Finding{appeared(rogue)}, resources: []Resource{{LogicalID: "AppRole", Type: role, PhysicalID: "AppRole-phys"}},
			want: map[string][]Op{}, notRev: map[string]Reason{"ManagedPolicyArns[" + rogue + "]": ArrayElement}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Build(Input{Stack: stack, Baseline: base, Findings: tc.findings, Resources: tc.resources}, Options{Only: tc.only})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string][]Op{}
			for _, it := range p.Items {
				got[it.Path] = it.Patch
			}
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("patches (-got +want):\n%s", diff)
			}
			gotNR := map[string]Reason{}
			for _, u := range p.NotRevertable {
				gotNR[u.Path] = u.Reason
			}
			if tc.notRev == nil {
				tc.notRev = map[string]Reason{}
			}
			if diff := cmp.Diff(gotNR, tc.notRev); diff != "" {
				t.Errorf("not revertable (-got +want):\n%s", diff)
			}
			if g := groups(p); len(p.Items) > 0 && len(g) != 1 {
				t.Errorf("%d writes for the members of one list, want 1", len(g))
			}
			for _, it := range p.Items {
				if !cmp.Equal(it.Prior, tc.resources[0].Live[it.List]) {
					t.Errorf("item %s writes from %v, want the list as read", it.ID, it.Prior)
				}
			}
		})
	}
}

func TestBuildRejectsBadGlob(t *testing.T) {
	if _, err := Build(Input{}, Options{Only: []string{"["}}); err == nil {
		t.Error("a malformed --only glob was accepted")
	}
}
