package sandbox

import "encoding/json"

// NestedStackType is the resource type of a nested stack. Its stack
// resource's physical id is the child stack's ARN (Stack.ID), which
// DescribeStacks, GetTemplate and ListStackResources accept as a name.
const NestedStackType = "AWS::CloudFormation::Stack"

// NestedStackModel is the Cloud Control model of the nested-stack resource
// whose child is child: its StackId, its Outputs as the list of
// {OutputKey, OutputValue} (what Fn::GetAtt Child.Outputs.Name reads) and
// its Parameters as a map, as Cloud Control returns them for
// AWS::CloudFormation::Stack.
func NestedStackModel(child *Stack, templateURL string) json.RawMessage {
	outputs := make([]map[string]string, 0, len(child.Outputs))
	for _, o := range child.Outputs {
		e := map[string]string{"OutputKey": o.Key, "OutputValue": o.Value}
		if o.Description != "" {
			e["Description"] = o.Description
		}
		if o.ExportName != "" {
			e["ExportName"] = o.ExportName
		}
		outputs = append(outputs, e)
	}
	params := map[string]string{}
	for _, p := range child.Parameters {
		v := p.Value
		if p.NoEcho {
			v = "****"
		}
		params[p.Key] = v
	}
	m := map[string]any{"StackId": child.ID, "StackName": child.Name, "Outputs": outputs}
	if len(params) > 0 {
		m["Parameters"] = params
	}
	if templateURL != "" {
		m["TemplateURL"] = templateURL
	}
	b, _ := json.Marshal(m)
	return b
}
