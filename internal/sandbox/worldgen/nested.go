package worldgen

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// The nested world: one account and region holding one stack tree as a
// CDK app with nested stacks deploys it — a parent, two nested stacks and
// a nested stack of the first — linked only by the parent's
// AWS::CloudFormation::Stack resources (physical id: the nested stack's
// ARN), with parameters passed down and outputs passed up. Live models
// are the declared values plus the identity AWS assigns, so a check of an
// untouched world finds no drift at all.

// Nested world facts the tests address.
const (
	NestedAccount = "111111111111"
	NestedRegion  = "us-east-1"
	// NestedRoot is the top stack's name; NestedStackNames lists the whole
	// tree in depth-first order.
	NestedRoot = "NestedShop"
)

// NestedWebToken is the value the nested world's root passes to its Web
// nested stack's NoEcho ApiToken parameter: no report may show it.
const NestedWebToken = "web-token-5f1e2d"

// NestedAccessKey is the access key id the nested world maps to its account.
const NestedAccessKey = "AKIANESTED" + NestedAccount

// nestedSpec is one stack of the tree: its template parts and its nested
// stacks by the logical id of their stack resource.
type nestedSpec struct {
	params    obj // template Parameters
	resources []nestedRes
	outputs   obj
	children  map[string]*nestedSpec
	// passed are the Parameters the parent's stack resource passes.
	passed obj
}

// nestedRes is one non-stack resource: its type and declared properties.
type nestedRes struct {
	logical, typ string
	props        obj
}

func nestedTree() *nestedSpec {
	alarms := &nestedSpec{
		params: obj{"QueueArn": obj{"Type": "String"}},
		resources: []nestedRes{
			{"AlarmTopic", "AWS::SNS::Topic", obj{"DisplayName": sub("alarms for ${QueueArn}")}},
		},
		outputs: obj{"AlarmTopicArn": obj{"Value": ref("AlarmTopic")}},
		passed:  obj{"QueueArn": getAtt("WorkQueue", "Arn")},
	}
	queues := &nestedSpec{
		params: obj{"AlertsTopicArn": obj{"Type": "String"}, "Stage": obj{"Type": "String", "Default": "dev"}},
		resources: []nestedRes{
			{"WorkQueue", "AWS::SQS::Queue", obj{"VisibilityTimeout": 60.0, "Tags": list(obj{"Key": "stage", "Value": ref("Stage")})}},
		},
		outputs:  obj{"WorkQueueUrl": obj{"Value": ref("WorkQueue")}, "WorkQueueArn": obj{"Value": getAtt("WorkQueue", "Arn")}},
		children: map[string]*nestedSpec{"AlarmsStack": alarms},
		passed:   obj{"AlertsTopicArn": ref("AlertsTopic"), "Stage": "prod"},
	}
	web := &nestedSpec{
		// The parent passes no Mode: the nested stack takes its default.
		// It passes ApiToken, a NoEcho parameter: the stack resource's
		// live Parameters show it masked.
		params: obj{"Mode": obj{"Type": "String", "Default": "blue"}, "ApiToken": obj{"Type": "String", "NoEcho": true}},
		resources: []nestedRes{
			{"WebTopic", "AWS::SNS::Topic", obj{"DisplayName": "web events"}},
		},
		passed: obj{"ApiToken": NestedWebToken},
	}
	return &nestedSpec{
		resources: []nestedRes{
			{"AlertsTopic", "AWS::SNS::Topic", obj{"DisplayName": "Shop alerts"}},
		},
		outputs:  obj{"WorkQueueUrl": obj{"Value": getAtt("QueuesStack", "Outputs.WorkQueueUrl")}},
		children: map[string]*nestedSpec{"QueuesStack": queues, "WebStack": web},
	}
}

// Nested builds the nested world. Output is deterministic.
func Nested() (*sandbox.World, error) {
	stacks, err := NestedStacks(NestedAccount, NestedRegion)
	if err != nil {
		return nil, err
	}
	return &sandbox.World{
		DefaultAccount: NestedAccount,
		Accounts: []*sandbox.Account{{
			ID: NestedAccount, Name: "nested",
			AccessKeys: []sandbox.AccessKey{{ID: NestedAccessKey, UserName: "nested"}},
			Regions:    []*sandbox.Region{{Name: NestedRegion, Stacks: stacks}},
		}},
	}, nil
}

// NestedStacks deploys the nested world's stack tree (NestedRoot and its
// nested stacks, named as NestedStackNames) in an account and region:
// parents first, as they were created. A test adds them to another
// world's region to sweep a tree beside other stacks.
func NestedStacks(account, region string) ([]*sandbox.Stack, error) {
	var built []*sandbox.Stack
	if _, err := deployNested(nestedSite{account, region}, NestedRoot, nestedTree(), nil, &built); err != nil {
		return nil, err
	}
	byName := map[string]*sandbox.Stack{}
	for _, s := range built {
		byName[s.Name] = s
	}
	var stacks []*sandbox.Stack
	for _, n := range NestedStackNames() {
		stacks = append(stacks, byName[n])
	}
	return stacks, nil
}

// NestedStackNames are the nested world's stacks, depth first.
func NestedStackNames() []string {
	var out []string
	var walk func(name string, s *nestedSpec)
	walk = func(name string, s *nestedSpec) {
		out = append(out, name)
		for _, id := range sortedIDs(s.children) {
			walk(nestedName(name, id), s.children[id])
		}
	}
	walk(NestedRoot, nestedTree())
	return out
}

// nestedName is the name CloudFormation gives a nested stack:
// parent-logicalId-SUFFIX.
func nestedName(parent, logical string) string {
	return parent + "-" + logical + "-" + suffix(parent+"/"+logical, 12, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
}

func sortedIDs(m map[string]*nestedSpec) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// nestedSite is the account and region a stack tree is deployed in.
type nestedSite struct{ account, region string }

// deployNested deploys spec as stack name in site with the parameter
// values params, its nested stacks first (their outputs are its
// attributes), appending every stack to out (parents after their
// children). It returns the stack.
func deployNested(site nestedSite, name string, spec *nestedSpec, params map[string]string, out *[]*sandbox.Stack) (*sandbox.Stack, error) {
	e := &env{account: site.account, region: site.region, stackName: name, stackID: sandbox.StackID(site.region, site.account, name),
		refs: map[string]string{}, attrs: map[string]map[string]any{}}
	st := &sandbox.Stack{Name: name, ID: e.stackID, Status: "CREATE_COMPLETE"}
	for _, k := range sortedKeys(spec.params) {
		v, ok := params[k]
		if !ok {
			d, _ := spec.params[k].(obj)["Default"].(string)
			v = d
		}
		e.refs[k] = v
		noEcho, _ := spec.params[k].(obj)["NoEcho"].(bool)
		st.Parameters = append(st.Parameters, sandbox.Parameter{Key: k, Value: v, NoEcho: noEcho})
	}
	resources := obj{}
	// The stack's own resources, in logical-id order (their physical ids
	// and attributes first: a nested stack's parameters read them).
	for _, r := range spec.resources {
		physical, attrs, identity, err := nestedIdentity(site, r, name)
		if err != nil {
			return nil, err
		}
		e.refs[r.logical], e.attrs[r.logical] = physical, attrs
		declared, err := e.resolve(r.props)
		if err != nil {
			return nil, fmt.Errorf("nested world %s %s: %w", name, r.logical, err)
		}
		live := declared.(obj)
		for k, v := range identity {
			live[k] = v
		}
		model, err := json.Marshal(live)
		if err != nil {
			return nil, err
		}
		resources[r.logical] = obj{"Type": r.typ, "Properties": r.props, "Metadata": obj{"aws:cdk:path": name + "/" + r.logical + "/Resource"}}
		st.Resources = append(st.Resources, &sandbox.Resource{LogicalID: r.logical, Type: r.typ, PhysicalID: physical, Properties: model})
	}
	for _, id := range sortedIDs(spec.children) {
		c := spec.children[id]
		passed, err := e.resolve(c.passed)
		if err != nil {
			return nil, fmt.Errorf("nested world %s %s parameters: %w", name, id, err)
		}
		childParams := map[string]string{}
		for k, v := range passed.(obj) {
			childParams[k] = fmt.Sprint(v)
		}
		child, err := deployNested(site, nestedName(name, id), c, childParams, out)
		if err != nil {
			return nil, err
		}
		attrs := map[string]any{}
		for _, o := range child.Outputs {
			attrs["Outputs."+o.Key] = o.Value
		}
		e.refs[id], e.attrs[id] = child.ID, attrs
		// The asset's name is its content's hash, as CDK names it: a
		// changed nested template is a changed TemplateURL.
		props := obj{"TemplateURL": "https://s3." + site.region + ".amazonaws.com/cdk-hnb659fds-assets-" + site.account + "-" + site.region + "/" + hash12(child.TemplateBody) + ".json"}
		if len(c.passed) > 0 {
			props["Parameters"] = c.passed
		}
		resources[id] = obj{"Type": sandbox.NestedStackType, "Properties": props, "UpdateReplacePolicy": "Delete", "DeletionPolicy": "Delete",
			"Metadata": obj{"aws:cdk:path": name + "/" + id + ".NestedStack/" + id + ".NestedStackResource", "aws:asset:path": child.Name + ".nested.template.json"}}
		st.Resources = append(st.Resources, &sandbox.Resource{LogicalID: id, Type: sandbox.NestedStackType, PhysicalID: child.ID, Properties: sandbox.NestedStackModel(child, "")})
	}
	for _, k := range sortedKeys(spec.outputs) {
		v, err := e.resolve(spec.outputs[k].(obj)["Value"])
		if err != nil {
			return nil, fmt.Errorf("nested world %s output %s: %w", name, k, err)
		}
		st.Outputs = append(st.Outputs, sandbox.Output{Key: k, Value: fmt.Sprint(v)})
	}
	tpl := obj{"Resources": resources}
	if len(spec.params) > 0 {
		tpl["Parameters"] = spec.params
	}
	if len(spec.outputs) > 0 {
		tpl["Outputs"] = spec.outputs
	}
	body, err := indentJSON(tpl)
	if err != nil {
		return nil, err
	}
	st.TemplateBody = string(body)
	st.Imports = e.imported()
	*out = append(*out, st)
	return st, nil
}

// nestedIdentity is what AWS assigns resource r of stack in site: its
// physical id (what Ref returns), its Fn::GetAtt attributes and the
// read-only properties of its live model. A declared name (TopicName,
// QueueName) is the resource's name; otherwise CloudFormation makes one
// of the stack name, the logical id and a suffix.
func nestedIdentity(site nestedSite, r nestedRes, stack string) (physical string, attrs map[string]any, identity obj, err error) {
	name := stack + "-" + r.logical + "-" + suffix(stack+"/"+r.logical, 12, alnum)
	switch r.typ {
	case "AWS::SNS::Topic":
		if n, ok := r.props["TopicName"].(string); ok {
			name = n
		}
		arn := "arn:aws:sns:" + site.region + ":" + site.account + ":" + name
		return arn, map[string]any{"TopicArn": arn, "TopicName": name}, obj{"TopicArn": arn, "TopicName": name}, nil
	case "AWS::SQS::Queue":
		if n, ok := r.props["QueueName"].(string); ok {
			name = n
		}
		url := "https://sqs." + site.region + ".amazonaws.com/" + site.account + "/" + name
		arn := "arn:aws:sqs:" + site.region + ":" + site.account + ":" + name
		return url, map[string]any{"Arn": arn, "QueueName": name, "QueueUrl": url}, obj{"Arn": arn, "QueueName": name, "QueueUrl": url}, nil
	}
	return "", nil, nil, fmt.Errorf("nested world: no identity for %s", r.typ)
}

func sortedKeys(m obj) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
