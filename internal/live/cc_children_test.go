package live_test

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// ccParent is one parent whose children Cloud Control lists: the parent's
// type and physical id, and per child kind the child type, the property
// naming the parent, and an id maker for the children's own part.
type ccParent struct {
	typ, physical, id string // id: the parent's Cloud Control identifier
	kinds             []ccKind
}

type ccKind struct {
	typ, key string
	// implicit is the model of a child AWS creates with the parent, when
	// the kind has one: never an added resource.
	implicit map[string]any
	// props are the other properties of the kind's children.
	props map[string]any
}

func ccParents() []ccParent {
	appsyncArn := "arn:aws:appsync:us-east-1:111111111111:apis/gqlapi1"
	lb := "arn:aws:elasticloadbalancing:us-east-1:111111111111:loadbalancer/app/web/1a2b"
	listener := "arn:aws:elasticloadbalancing:us-east-1:111111111111:listener/app/web/1a2b/3c4d"
	return []ccParent{
		{"AWS::ApiGateway::RestApi", "rest1", "rest1", []ccKind{
			{"AWS::ApiGateway::Resource", "RestApiId", map[string]any{"Path": "/"}, map[string]any{"ParentId": "root", "PathPart": "orders"}},
			{"AWS::ApiGateway::Model", "RestApiId", map[string]any{"Name": "Empty"}, nil},
			{typ: "AWS::ApiGateway::Authorizer", key: "RestApiId"},
			{typ: "AWS::ApiGateway::RequestValidator", key: "RestApiId"},
		}},
		{"AWS::ApiGatewayV2::Api", "api1", "api1", []ccKind{
			{typ: "AWS::ApiGatewayV2::Route", key: "ApiId"}, {typ: "AWS::ApiGatewayV2::Integration", key: "ApiId"}, {typ: "AWS::ApiGatewayV2::Authorizer", key: "ApiId"},
		}},
		{"AWS::AppConfig::Application", "app1", "app1", []ccKind{
			{typ: "AWS::AppConfig::Environment", key: "ApplicationId"}, {typ: "AWS::AppConfig::ConfigurationProfile", key: "ApplicationId"},
		}},
		{"AWS::AppSync::GraphQLApi", appsyncArn, "gqlapi1", []ccKind{
			{typ: "AWS::AppSync::DataSource", key: "ApiId"}, {typ: "AWS::AppSync::FunctionConfiguration", key: "ApiId"},
		}},
		{"AWS::EFS::FileSystem", "fs-1", "fs-1", []ccKind{
			{typ: "AWS::EFS::MountTarget", key: "FileSystemId"}, {typ: "AWS::EFS::AccessPoint", key: "FileSystemId"},
		}},
		{"AWS::ElasticBeanstalk::Application", "shop", "shop", []ccKind{
			{typ: "AWS::ElasticBeanstalk::ConfigurationTemplate", key: "ApplicationName"}, {typ: "AWS::ElasticBeanstalk::Environment", key: "ApplicationName"},
		}},
		{"AWS::ElasticLoadBalancingV2::LoadBalancer", lb, lb, []ccKind{{typ: "AWS::ElasticLoadBalancingV2::Listener", key: "LoadBalancerArn"}}},
		{"AWS::ElasticLoadBalancingV2::Listener", listener, listener, []ccKind{{"AWS::ElasticLoadBalancingV2::ListenerRule", "ListenerArn", map[string]any{"IsDefault": true}, map[string]any{"IsDefault": false, "Priority": 10}}}},
		{"AWS::GuardDuty::Detector", "det1", "det1", []ccKind{
			{typ: "AWS::GuardDuty::Filter", key: "DetectorId"}, {typ: "AWS::GuardDuty::IPSet", key: "DetectorId"}, {typ: "AWS::GuardDuty::ThreatIntelSet", key: "DetectorId"},
		}},
	}
}

// ccChild is a child resource of kind k under the parent with Cloud
// Control identifier parentID, physical id pid.
func ccChild(t *testing.T, k ccKind, parentID, pid string, extra map[string]any) *sandbox.Resource {
	t.Helper()
	model := map[string]any{k.key: parentID, "Tag": pid}
	if extra == nil {
		extra = k.props
	}
	for key, v := range extra {
		model[key] = v
	}
	id, err := live.Identifier(k.typ, pid, model)
	if err != nil {
		t.Fatalf("%s: %v", k.typ, err)
	}
	b, _ := json.Marshal(model)
	r := &sandbox.Resource{Type: k.typ, PhysicalID: pid, Properties: b}
	if id != pid {
		r.Identifier = id
	}
	return r
}

// TestEnumerateCloudControlChildren: for every parent whose children Cloud
// Control lists, per child kind: an out-of-band child is added; a declared
// one, one owned by another stack, a child of another parent of the same
// type and a child AWS created with the parent (a REST API's root resource
// and Empty model) are not.
func TestEnumerateCloudControlChildren(t *testing.T) {
	for _, p := range ccParents() {
		t.Run(p.typ, func(t *testing.T) {
			w := worldOf()
			reg := w.Accounts[0].Regions[0]
			app := &sandbox.Stack{Name: "App", TemplateBody: `{"Resources":{}}`}
			sibling := &sandbox.Stack{Name: "Sibling", TemplateBody: `{"Resources":{}}`}
			stack := []live.StackResource{{LogicalID: "Parent", Type: p.typ, PhysicalID: p.physical}}
			var want []string
			for i, k := range p.kinds {
				declared := ccChild(t, k, p.id, "declared"+string(rune('a'+i)), nil)
				declared.LogicalID = "Declared" + string(rune('A'+i))
				app.Resources = append(app.Resources, declared)
				stack = append(stack, live.StackResource{LogicalID: declared.LogicalID, Type: k.typ, PhysicalID: declared.PhysicalID})
				owned := ccChild(t, k, p.id, "owned"+string(rune('a'+i)), nil)
				owned.LogicalID = "Owned" + string(rune('A'+i))
				sibling.Resources = append(sibling.Resources, owned)
				added := ccChild(t, k, p.id, "added"+string(rune('a'+i)), nil)
				other := ccChild(t, k, p.id+"-other", "other"+string(rune('a'+i)), nil)
				reg.Resources = append(reg.Resources, added, other)
				if k.implicit != nil {
					reg.Resources = append(reg.Resources, ccChild(t, k, p.id, "implicit"+string(rune('a'+i)), k.implicit))
				}
				id := added.PhysicalID
				if added.Identifier != "" {
					id = added.Identifier
				}
				want = append(want, k.typ+" "+id)
			}
			reg.Stacks = []*sandbox.Stack{app, sibling}
			_, url := serve(t, w)
			got, err := live.Enumerate(ctx(t), live.NewClients(config(url)), stack[0], stack)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, ch := range got {
				names = append(names, ch.Type+" "+ch.Identifier)
				if ch.Model == nil || ch.Model["Tag"] == nil || !strings.HasPrefix(ch.Model["Tag"].(string), "added") {
					t.Errorf("%s %s: model %v, want the added child's full model", ch.Type, ch.Identifier, ch.Model)
				}
			}
			sort.Strings(want)
			if diff := cmp.Diff(names, want); diff != "" {
				t.Errorf("added children (-got +want):\n%s", diff)
			}
		})
	}
}

// TestEnumerateDefinedByParent: an API whose children AWS made from its
// declaration — quick-created from a Target, imported from an OpenAPI body
// (inline or in S3), cloned — has its children not listed at all; the
// same API declared without them has its out-of-band child.
func TestEnumerateDefinedByParent(t *testing.T) {
	for _, tt := range []struct {
		typ, id, prop string
		kind          ccKind
	}{
		{"AWS::ApiGatewayV2::Api", "api1", "Target", ccKind{typ: "AWS::ApiGatewayV2::Route", key: "ApiId"}},
		{"AWS::ApiGatewayV2::Api", "api1", "Body", ccKind{typ: "AWS::ApiGatewayV2::Route", key: "ApiId"}},
		{"AWS::ApiGateway::RestApi", "rest1", "BodyS3Location", ccKind{typ: "AWS::ApiGateway::Authorizer", key: "RestApiId"}},
		{"AWS::ApiGateway::RestApi", "rest1", "CloneFrom", ccKind{typ: "AWS::ApiGateway::Authorizer", key: "RestApiId"}},
	} {
		w := worldOf()
		w.Accounts[0].Regions[0].Resources = append(w.Accounts[0].Regions[0].Resources, ccChild(t, tt.kind, tt.id, "made", nil))
		_, url := serve(t, w)
		parent := live.StackResource{LogicalID: "Api", Type: tt.typ, PhysicalID: tt.id, Declared: map[string]any{tt.prop: "x"}}
		got, err := live.Enumerate(ctx(t), live.NewClients(config(url)), parent, []live.StackResource{parent})
		if err != nil || len(got) != 0 {
			t.Errorf("%s declaring %s: %v %v, want no children", tt.typ, tt.prop, got, err)
		}
		parent.Declared = nil
		if got, err := live.Enumerate(ctx(t), live.NewClients(config(url)), parent, []live.StackResource{parent}); err != nil || len(got) != 1 {
			t.Errorf("%s without %s: %v %v, want its out-of-band child", tt.typ, tt.prop, got, err)
		}
	}
}
