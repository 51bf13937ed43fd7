package live_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/schema"
)

const (
	vpcID   = "vpc-0a787ce59de137b49"
	aclID   = "acl-0b09fb918deeb6d6b"
	httpsIn = `{"NetworkAclId":"` + aclID + `","RuleNumber":100,"Egress":false,"RuleAction":"allow","Protocol":6,"CidrBlock":"0.0.0.0/0","PortRange":{"From":443,"To":443}}`
	icmpIn  = `{"NetworkAclId":"` + aclID + `","RuleNumber":120,"Egress":false,"RuleAction":"allow","Protocol":1,"CidrBlock":"0.0.0.0/0","Icmp":{"Code":-1,"Type":8}}`
)

// ec2World: a VPC with a declared subnet and ACL, an out-of-band subnet,
// security group and route table, a subnet another stack owns; the ACL has
// two declared entries.
func ec2World(extra ...*sandbox.Resource) *sandbox.World {
	w := worldOf(append([]*sandbox.Resource{
		liveOnly("AWS::EC2::VPC", vpcID, `{"VpcId":"`+vpcID+`","CidrBlock":"10.0.0.0/16"}`),
		liveOnly("AWS::EC2::NetworkAcl", aclID, `{"Id":"`+aclID+`","VpcId":"`+vpcID+`"}`),
		liveOnly("AWS::EC2::NetworkAclEntry", "Stack-InHttps-1", httpsIn),
		liveOnly("AWS::EC2::NetworkAclEntry", "Stack-InIcmp-1", icmpIn),
		liveOnly("AWS::EC2::Subnet", "subnet-0000000000000000a", `{"SubnetId":"subnet-0000000000000000a","VpcId":"`+vpcID+`","CidrBlock":"10.0.0.0/24"}`),
		liveOnly("AWS::EC2::Subnet", "subnet-0000000000000000b", `{"SubnetId":"subnet-0000000000000000b","VpcId":"`+vpcID+`","CidrBlock":"10.0.1.0/24"}`),
		liveOnly("AWS::EC2::SecurityGroup", "sg-0000000000000000c", `{"GroupId":"sg-0000000000000000c","GroupName":"console-made","GroupDescription":"x","VpcId":"`+vpcID+`"}`),
		liveOnly("AWS::EC2::RouteTable", "rtb-0000000000000000d", `{"RouteTableId":"rtb-0000000000000000d","VpcId":"`+vpcID+`"}`),
		liveOnly("AWS::EC2::Subnet", "subnet-0000000000000000f", `{"SubnetId":"subnet-0000000000000000f","VpcId":"vpc-elsewhere","CidrBlock":"10.9.0.0/24"}`),
	}, extra...)...)
	w.Accounts[0].Regions[0].Stacks = []*sandbox.Stack{{Name: "Network", TemplateBody: `{"Resources":{}}`, Resources: []*sandbox.Resource{
		{LogicalID: "Shared", Type: "AWS::EC2::Subnet", PhysicalID: "subnet-0000000000000000e", Properties: json.RawMessage(`{"SubnetId":"subnet-0000000000000000e","VpcId":"` + vpcID + `","CidrBlock":"10.0.2.0/24"}`)},
	}}}
	return w
}

func entryDeclared(t *testing.T, model string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(model), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestNetworkAclEntryRoundTrip: deployed → read → classify clean; an
// out-of-band change of the entry surfaces as declared drift.
func TestNetworkAclEntryRoundTrip(t *testing.T) {
	srv, url := serve(t, ec2World())
	c := live.NewClients(config(url))
	declared := entryDeclared(t, httpsIn)
	req := live.Request{Type: "AWS::EC2::NetworkAclEntry", LogicalID: "InHttps", PhysicalID: "Stack-InHttps-1", Declared: declared}
	got := live.Read(ctx(t), c, req)
	if got.Status != live.Found || got.Route != live.RouteOverride {
		t.Fatalf("read: %+v", got)
	}
	if diff := cmp.Diff(got.Model, declared); diff != "" {
		t.Errorf("model (-got +want):\n%s", diff)
	}
	if fs := classifyEntry(t, req, got.Model); len(fs) != 0 {
		t.Errorf("clean read classified as %+v", fs)
	}

	// Out of band: the rule now opens every port range to 8443.
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: "AWS::EC2::NetworkAclEntry", Identifier: "Stack-InHttps-1", Path: "PortRange", Value: json.RawMessage(`{"From":8443,"To":8443}`)}); err != nil {
		t.Fatal(err)
	}
	got = live.Read(ctx(t), c, req)
	fs := classifyEntry(t, req, got.Model)
	if len(fs) == 0 {
		t.Fatalf("out-of-band port change not surfaced; model %v", got.Model)
	}
	for _, f := range fs {
		if f.Tier != drift.Declared {
			t.Errorf("finding %+v, want declared drift", f)
		}
	}

	// The entry deleted: not found.
	gone := live.Read(ctx(t), c, live.Request{Type: "AWS::EC2::NetworkAclEntry", PhysicalID: "Stack-X", Declared: map[string]any{"NetworkAclId": aclID, "RuleNumber": 200.0}})
	if gone.Status != live.NotFound {
		t.Errorf("missing rule: %+v, want notFound", gone)
	}
	noACL := live.Read(ctx(t), c, live.Request{Type: "AWS::EC2::NetworkAclEntry", PhysicalID: "Stack-X", Declared: map[string]any{"NetworkAclId": "acl-00000000000000000", "RuleNumber": 100.0}})
	if noACL.Status != live.NotFound {
		t.Errorf("missing ACL: %+v, want notFound", noACL)
	}
	wait := live.Read(ctx(t), c, live.Request{Type: "AWS::EC2::NetworkAclEntry", PhysicalID: "Stack-X", Declared: map[string]any{"NetworkAclId": drift.Unknown{Reason: "Ref"}, "RuleNumber": 100.0}})
	if wait.Status != live.Skipped || !wait.Waiting {
		t.Errorf("unresolved ACL: %+v, want skipped waiting", wait)
	}
}

func classifyEntry(t *testing.T, r live.Request, model map[string]any) []drift.Finding {
	t.Helper()
	return classifyWithSiblings(t, r, model, nil)
}

// classifyWithSiblings is classifyEntry with the stack's sibling facts
// (classify.Options.Sibling, as scan.SiblingFacts derives them).
func classifyWithSiblings(t *testing.T, r live.Request, model map[string]any, sibling map[string]any) []drift.Finding {
	subj := classify.Subject{Ref: drift.ResourceRef{LogicalID: r.LogicalID, Type: r.Type, PhysicalID: r.PhysicalID}, Declared: r.Declared}
	t.Helper()
	snap, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	facts, _ := snap.Lookup(r.Type)
	fs := classify.Resource(subj, model, facts, classify.Options{AccountID: acct, Region: region, Sibling: sibling})
	var out []drift.Finding
	for _, f := range fs {
		if f.Tier == drift.Declared || f.Tier == drift.Undeclared {
			out = append(out, f)
		}
	}
	return out
}

func TestNetworkAclEntryFailuresAreSkipped(t *testing.T) {
	srv, url := serve(t, ec2World())
	c := live.NewClients(config(url))
	req := live.Request{Type: "AWS::EC2::NetworkAclEntry", PhysicalID: "Stack-InHttps-1", Declared: entryDeclared(t, httpsIn)}
	for _, f := range []sandbox.FaultRule{
		{Service: "ec2", Action: "DescribeNetworkAcls", Code: "UnauthorizedOperation", Status: 403},
		{Service: "ec2", Action: "DescribeNetworkAcls", Code: "RequestLimitExceeded", Status: 503},
	} {
		t.Run(f.Code, func(t *testing.T) {
			if err := srv.SetFaults([]sandbox.FaultRule{f}); err != nil {
				t.Fatal(err)
			}
			got := live.Read(ctx(t), c, req)
			if want := "EC2 DescribeNetworkAcls: " + f.Code; got.Status != live.Skipped || len(got.Reason) < len(want) || got.Reason[:len(want)] != want {
				t.Errorf("got %+v, want skipped with reason %q...", got, want)
			}
		})
	}
}

func TestEnumerateEC2(t *testing.T) {
	oob := liveOnly("AWS::EC2::NetworkAclEntry", "console-entry", `{"NetworkAclId":"`+aclID+`","RuleNumber":90,"Egress":true,"RuleAction":"deny","Protocol":-1,"CidrBlock":"203.0.113.0/24"}`)
	_, url := serve(t, ec2World(oob))
	c := live.NewClients(config(url))
	stack := []live.StackResource{
		{LogicalID: "Vpc", Type: "AWS::EC2::VPC", PhysicalID: vpcID},
		{LogicalID: "Nacl", Type: "AWS::EC2::NetworkAcl", PhysicalID: aclID},
		{LogicalID: "InHttps", Type: "AWS::EC2::NetworkAclEntry", PhysicalID: "Stack-InHttps-1", Declared: entryDeclared(t, httpsIn)},
		{LogicalID: "InIcmp", Type: "AWS::EC2::NetworkAclEntry", PhysicalID: "Stack-InIcmp-1", Declared: entryDeclared(t, icmpIn)},
		{LogicalID: "Public", Type: "AWS::EC2::Subnet", PhysicalID: "subnet-0000000000000000a"},
	}
	tests := []struct {
		name   string
		parent live.StackResource
		stack  []live.StackResource
		want   []live.Child
	}{
		{"acl: an out-of-band entry is added; declared ones and AWS's deny-all rules are not", stack[1], stack, []live.Child{
			{Type: "AWS::EC2::NetworkAclEntry", Identifier: aclID + "|egress|90", Model: map[string]any{"NetworkAclId": aclID, "RuleNumber": 90.0, "Egress": true, "RuleAction": "deny", "Protocol": -1.0, "CidrBlock": "203.0.113.0/24"}},
		}},
		{"acl: an unresolved declared entry may be any entry", stack[1], append(stack[:len(stack):len(stack)],
			live.StackResource{LogicalID: "Open", Type: "AWS::EC2::NetworkAclEntry", PhysicalID: "x", Declared: map[string]any{"NetworkAclId": aclID, "RuleNumber": drift.Unknown{}}}), nil},
		{"vpc: out-of-band subnet, security group and route table; declared, default and other-stack ones are not", stack[0], stack, []live.Child{
			{Type: "AWS::EC2::RouteTable", Identifier: "rtb-0000000000000000d", Model: map[string]any{"RouteTableId": "rtb-0000000000000000d", "VpcId": vpcID}},
			{Type: "AWS::EC2::SecurityGroup", Identifier: "sg-0000000000000000c", Model: map[string]any{"GroupId": "sg-0000000000000000c", "GroupName": "console-made", "GroupDescription": "x", "VpcId": vpcID}},
			{Type: "AWS::EC2::Subnet", Identifier: "subnet-0000000000000000b", Model: map[string]any{"SubnetId": "subnet-0000000000000000b", "VpcId": vpcID, "CidrBlock": "10.0.1.0/24"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := live.Enumerate(ctx(t), c, tt.parent, tt.stack)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("children (-got +want):\n%s", diff)
			}
		})
	}
}

func TestEIPRoundTrip(t *testing.T) {
	const ip = "35.171.223.35"
	srv, url := serve(t, ec2World(liveOnly("AWS::EC2::EIP", ip, `{"Domain":"vpc","NetworkBorderGroup":"us-east-1","PublicIp":"`+ip+`","Tags":[{"Key":"Name","Value":"Public2"}]}`)))
	c := live.NewClients(config(url))
	declared := map[string]any{"Domain": "vpc", "Tags": []any{map[string]any{"Key": "Name", "Value": "Public2"}}}
	req := live.Request{Type: "AWS::EC2::EIP", LogicalID: "Eip", PhysicalID: ip, Declared: declared}
	got := live.Read(ctx(t), c, req)
	want := map[string]any{"Domain": "vpc", "NetworkBorderGroup": "us-east-1", "PublicIp": ip, "Tags": []any{map[string]any{"Key": "Name", "Value": "Public2"}}}
	if got.Status != live.Found || got.Route != live.RouteOverride {
		t.Fatalf("read: %+v", got)
	}
	if diff := cmp.Diff(got.Model, want); diff != "" {
		t.Errorf("model (-got +want):\n%s", diff)
	}
	if fs := classifyEntry(t, req, got.Model); len(fs) != 0 {
		t.Errorf("clean read classified as %+v", fs)
	}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: "AWS::EC2::EIP", Identifier: ip, Path: "Tags", Value: json.RawMessage(`[{"Key":"Name","Value":"renamed"}]`)}); err != nil {
		t.Fatal(err)
	}
	if fs := classifyEntry(t, req, live.Read(ctx(t), c, req).Model); len(fs) == 0 {
		t.Error("out-of-band tag change not surfaced")
	}
	if gone := live.Read(ctx(t), c, live.Request{Type: "AWS::EC2::EIP", PhysicalID: "203.0.113.9"}); gone.Status != live.NotFound {
		t.Errorf("released address: %+v, want notFound", gone)
	}
}

func TestEnumerateRouteTable(t *testing.T) {
	const rtb = "rtb-0000000000000000d"
	route := func(dest, target string) *sandbox.Resource {
		return liveOnly("AWS::EC2::Route", rtb+"|"+dest, `{"RouteTableId":"`+rtb+`","DestinationCidrBlock":"`+dest+`","CidrBlock":"`+dest+`",`+target+`}`)
	}
	_, url := serve(t, ec2World(
		route("0.0.0.0/0", `"GatewayId":"igw-0000000000000000a"`),
		route("192.168.0.0/16", `"VpcPeeringConnectionId":"pcx-0000000000000000b"`),
	))
	c := live.NewClients(config(url))
	parent := live.StackResource{LogicalID: "Rt", Type: "AWS::EC2::RouteTable", PhysicalID: rtb}
	stack := []live.StackResource{parent,
		{LogicalID: "Default", Type: "AWS::EC2::Route", PhysicalID: "Stack-Default-1", Declared: map[string]any{"RouteTableId": rtb, "DestinationCidrBlock": "0.0.0.0/0", "GatewayId": "igw-0000000000000000a"}},
	}
	got, err := live.Enumerate(ctx(t), c, parent, stack)
	if err != nil {
		t.Fatal(err)
	}
	want := []live.Child{{Type: "AWS::EC2::Route", Identifier: rtb + "|192.168.0.0/16", Model: map[string]any{
		"RouteTableId": rtb, "DestinationCidrBlock": "192.168.0.0/16", "CidrBlock": "192.168.0.0/16", "VpcPeeringConnectionId": "pcx-0000000000000000b"}}}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("children (-got +want):\n%s", diff)
	}
	open := append(stack[:len(stack):len(stack)], live.StackResource{LogicalID: "Any", Type: "AWS::EC2::Route", PhysicalID: "x", Declared: map[string]any{"RouteTableId": rtb, "DestinationCidrBlock": drift.Unknown{}}})
	if got, err := live.Enumerate(ctx(t), c, parent, open); err != nil || got != nil {
		t.Errorf("an unresolved declared route: %v, %v; want nothing added", got, err)
	}
}

// TestNetworkAclEntryRevert: an out-of-band change reverted through
// ReplaceNetworkAclEntry reads back as declared.
func TestNetworkAclEntryRevert(t *testing.T) {
	srv, url := serve(t, ec2World())
	c := live.NewClients(config(url))
	w := live.NewWriters(config(url), c)
	declared := entryDeclared(t, httpsIn)
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: "AWS::EC2::NetworkAclEntry", Identifier: "Stack-InHttps-1", Path: "CidrBlock", Value: json.RawMessage(`"10.9.0.0/16"`)}); err != nil {
		t.Fatal(err)
	}
	target := live.Target{Type: "AWS::EC2::NetworkAclEntry", LogicalID: "InHttps", PhysicalID: "Stack-InHttps-1", Declared: declared}
	if err := w.WriteSDK(ctx(t), target, []byte(`[{"op":"replace","path":"/CidrBlock","value":"0.0.0.0/0"}]`), "10.9.0.0/16"); err != nil {
		t.Fatal(err)
	}
	got := live.Read(ctx(t), c, live.Request{Type: target.Type, PhysicalID: target.PhysicalID, Declared: declared})
	if diff := cmp.Diff(got.Model, declared); diff != "" {
		t.Errorf("after the revert (-got +want):\n%s", diff)
	}
}
