package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/iam"
)

// inlineTarget is one attachment list of AWS::IAM::Policy and how to read
// the inline policy from one of its members.
type inlineTarget struct {
	prop string
	get  func(ctx context.Context, api iamInlineAPI, member, policy string) (*string, error)
}

// inlineTargets lists the attachment lists in projection order.
func inlineTargets() []inlineTarget {
	return []inlineTarget{
		{"Roles", func(ctx context.Context, api iamInlineAPI, m, p string) (*string, error) {
			out, err := api.GetRolePolicy(ctx, &iam.GetRolePolicyInput{RoleName: &m, PolicyName: &p})
			if err != nil {
				return nil, err
			}
			return out.PolicyDocument, nil
		}},
		{"Users", func(ctx context.Context, api iamInlineAPI, m, p string) (*string, error) {
			out, err := api.GetUserPolicy(ctx, &iam.GetUserPolicyInput{UserName: &m, PolicyName: &p})
			if err != nil {
				return nil, err
			}
			return out.PolicyDocument, nil
		}},
		{"Groups", func(ctx context.Context, api iamInlineAPI, m, p string) (*string, error) {
			out, err := api.GetGroupPolicy(ctx, &iam.GetGroupPolicyInput{GroupName: &m, PolicyName: &p})
			if err != nil {
				return nil, err
			}
			return out.PolicyDocument, nil
		}},
	}
}

// readInlinePolicy reads AWS::IAM::Policy: {PolicyName, PolicyDocument,
// Roles, Users, Groups}. An inline policy lives on each role, user and
// group it is attached to; each declared list is projected as the members
// that still carry the policy (so a detached member shows as a declared
// difference), and only when declared. PolicyDocument is the first found.
// A policy found on no member was deleted.
func readInlinePolicy(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	name, err := declaredString(r.Declared, "PolicyName")
	if err != nil {
		return nil, err
	}
	if c.IAM == nil {
		return nil, skip("no IAM client")
	}
	model := map[string]any{"PolicyName": name}
	var doc map[string]any
	members := 0
	for _, t := range inlineTargets() {
		list, err := declaredStrings(r.Declared, t.prop)
		if err != nil {
			return nil, err
		}
		if _, declared := r.Declared[t.prop]; !declared {
			continue
		}
		have := []string{}
		for _, m := range list {
			members++
			text, err := t.get(ctx, c.IAM, m, name)
			if isNotFound(err) {
				continue
			}
			if err != nil {
				return nil, err
			}
			d, err := parsePolicy(deref(text))
			if err != nil {
				return nil, err
			}
			if doc == nil {
				doc = d
			}
			have = append(have, m)
		}
		model[t.prop] = strList(have)
	}
	if members == 0 {
		return nil, skip("declared Roles, Users and Groups are all empty")
	}
	if doc == nil {
		return nil, fmt.Errorf("inline policy %s: %w", name, ErrNotFound)
	}
	model["PolicyDocument"] = doc
	return model, nil
}
