package world

import (
	"encoding/json"
	"fmt"
)

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

// linkNested ties a region's nested stacks to their parents, as
// CloudFormation keeps them: a stack named by the physical id of another
// stack's AWS::CloudFormation::Stack resource is that stack's child
// (ParentID), and RootID is the top of its tree. A parent's nested-stack
// resource without a live model gets NestedStackModel(child). A world's
// own parentId must agree with the resources, name a stack of the region
// and form no cycle.
func linkNested(p *problems, rt string, r *Region) {
	byID := map[string]*Stack{}
	for _, s := range r.Stacks {
		if s != nil && s.Status != "DELETE_COMPLETE" {
			byID[s.ID] = s
		}
	}
	for si, s := range r.Stacks {
		if s == nil || s.Status == "DELETE_COMPLETE" {
			continue
		}
		for _, res := range s.Resources {
			if res == nil || res.Type != NestedStackType || res.PhysicalID == "" {
				continue
			}
			child := byID[res.PhysicalID]
			if child == nil {
				continue // a nested stack gone from the region: reads answer not found
			}
			switch {
			case child == s:
				p.add(fmt.Sprintf("%s.stacks[%d]", rt, si), "resource %s nests the stack in itself", res.LogicalID)
				continue
			case child.ParentID == "":
				child.ParentID = s.ID
			case child.ParentID != s.ID:
				p.add(fmt.Sprintf("%s.stacks[%d]", rt, si), "resource %s nests %s, whose parentId is %s", res.LogicalID, child.Name, child.ParentID)
				continue
			}
			if len(res.Properties) == 0 {
				res.Properties = NestedStackModel(child, "")
			}
		}
	}
	for si, s := range r.Stacks {
		if s == nil || s.ParentID == "" || s.Status == "DELETE_COMPLETE" {
			continue
		}
		at := fmt.Sprintf("%s.stacks[%d]", rt, si)
		root, seen := s, map[*Stack]bool{}
		for root.ParentID != "" {
			seen[root] = true
			up := byID[root.ParentID]
			if up == nil {
				p.add(at, "parentId %s is not a live stack of the region", root.ParentID)
				break
			}
			if seen[up] {
				p.add(at, "the nested stacks form a cycle")
				break
			}
			root = up
		}
		if s.RootID == "" {
			s.RootID = root.ID
		} else if s.RootID != root.ID {
			p.add(at, "rootId %s is not the top of its tree (%s)", s.RootID, root.ID)
		}
	}
}
