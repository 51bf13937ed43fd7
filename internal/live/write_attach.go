package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/iam"
)

// Managed-policy attachments, written per entry: an identity's
// ManagedPolicyArns (AWS::IAM::Role, User, Group) and a managed policy's
// Roles / Users / Groups. A Cloud Control write of the whole list would
// also detach what the finding does not show (attachments another
// resource of the stack owns); these writers attach and detach only the
// difference between the finding's live entries and the target.

// attachKind is one identity kind's attach, detach and list calls.
type attachKind struct {
	typ, listProp string
	attach        func(ctx context.Context, api iamWriteAPI, name, arn string) error
	detach        func(ctx context.Context, api iamWriteAPI, name, arn string) error
	list          func(ctx context.Context, api iamWriteAPI, name string, marker *string) ([]string, *string, error)
}

func attachKinds() []attachKind {
	return []attachKind{
		{"AWS::IAM::Role", "Roles", func(ctx context.Context, api iamWriteAPI, n, a string) error {
			_, err := api.AttachRolePolicy(ctx, &iam.AttachRolePolicyInput{RoleName: &n, PolicyArn: &a})
			return err
		}, func(ctx context.Context, api iamWriteAPI, n, a string) error {
			_, err := api.DetachRolePolicy(ctx, &iam.DetachRolePolicyInput{RoleName: &n, PolicyArn: &a})
			return err
		}, func(ctx context.Context, api iamWriteAPI, n string, m *string) ([]string, *string, error) {
			out, err := api.ListAttachedRolePolicies(ctx, &iam.ListAttachedRolePoliciesInput{RoleName: &n, Marker: m})
			if err != nil {
				return nil, nil, err
			}
			var got []string
			for _, p := range out.AttachedPolicies {
				got = append(got, deref(p.PolicyArn))
			}
			return got, truncated(out.IsTruncated, out.Marker), nil
		}},
		{"AWS::IAM::User", "Users", func(ctx context.Context, api iamWriteAPI, n, a string) error {
			_, err := api.AttachUserPolicy(ctx, &iam.AttachUserPolicyInput{UserName: &n, PolicyArn: &a})
			return err
		}, func(ctx context.Context, api iamWriteAPI, n, a string) error {
			_, err := api.DetachUserPolicy(ctx, &iam.DetachUserPolicyInput{UserName: &n, PolicyArn: &a})
			return err
		}, func(ctx context.Context, api iamWriteAPI, n string, m *string) ([]string, *string, error) {
			out, err := api.ListAttachedUserPolicies(ctx, &iam.ListAttachedUserPoliciesInput{UserName: &n, Marker: m})
			if err != nil {
				return nil, nil, err
			}
			var got []string
			for _, p := range out.AttachedPolicies {
				got = append(got, deref(p.PolicyArn))
			}
			return got, truncated(out.IsTruncated, out.Marker), nil
		}},
		{"AWS::IAM::Group", "Groups", func(ctx context.Context, api iamWriteAPI, n, a string) error {
			_, err := api.AttachGroupPolicy(ctx, &iam.AttachGroupPolicyInput{GroupName: &n, PolicyArn: &a})
			return err
		}, func(ctx context.Context, api iamWriteAPI, n, a string) error {
			_, err := api.DetachGroupPolicy(ctx, &iam.DetachGroupPolicyInput{GroupName: &n, PolicyArn: &a})
			return err
		}, func(ctx context.Context, api iamWriteAPI, n string, m *string) ([]string, *string, error) {
			out, err := api.ListAttachedGroupPolicies(ctx, &iam.ListAttachedGroupPoliciesInput{GroupName: &n, Marker: m})
			if err != nil {
				return nil, nil, err
			}
			var got []string
			for _, p := range out.AttachedPolicies {
				got = append(got, deref(p.PolicyArn))
			}
			return got, truncated(out.IsTruncated, out.Marker), nil
		}},
	}
}

func truncated(more bool, marker *string) *string {
	if !more || deref(marker) == "" {
		return nil
	}
	return marker
}

func attachKindOf(typ string) (attachKind, bool) {
	for _, k := range attachKinds() {
		if k.typ == typ {
			return k, true
		}
	}
	return attachKind{}, false
}

// attached lists the ARNs attached to an identity, every page.
func (k attachKind) attached(ctx context.Context, api iamWriteAPI, name string) (map[string]bool, error) {
	out := map[string]bool{}
	var marker *string
	for page := 0; ; page++ {
		if page == 1000 {
			return nil, fmt.Errorf("attached policies of %s did not finish after 1000 pages", name)
		}
		arns, next, err := k.list(ctx, api, name, marker)
		if err != nil {
			return nil, fmt.Errorf("list the attached policies of %s: %w", name, err)
		}
		for _, a := range arns {
			out[a] = true
		}
		if next == nil {
			return out, nil
		}
		marker = next
	}
}

// writeAttachedPolicies writes an identity's ManagedPolicyArns per entry,
// from the finding's live entries (prior) to the patched target: the
// target ARNs the identity does not have attached are attached, the prior
// ARNs the target lacks that are still attached are detached. ARNs the
// finding did not show are never touched, and what already holds makes no
// call (the identity's attachments are listed first).
func writeAttachedPolicies(ctx context.Context, w *Writers, t Target, ops []byte, prior any) error {
	if w.IAM == nil {
		return skip("no IAM client")
	}
	k, ok := attachKindOf(t.Type)
	if !ok {
		return fmt.Errorf("write %s: no managed-policy attachments", t.Type)
	}
	after, err := ApplyPatch(map[string]any{"ManagedPolicyArns": prior}, ops)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, a := range stringsOf(after["ManagedPolicyArns"]) {
		want[a] = true
	}
	name := t.PhysicalID
	have, err := k.attached(ctx, w.IAM, name)
	if err != nil {
		return err
	}
	for _, a := range sortedSet(want) {
		if !have[a] {
			if err := k.attach(ctx, w.IAM, name, a); err != nil {
				return fmt.Errorf("attach %s: %w", a, err)
			}
		}
	}
	for _, a := range stringsOf(prior) {
		if !want[a] && have[a] {
			if err := k.detach(ctx, w.IAM, name, a); err != nil && !isNotFound(err) {
				return fmt.Errorf("detach %s: %w", a, err)
			}
		}
	}
	return nil
}

// writePolicyAttachments writes a managed policy's Roles / Users / Groups
// from before to after (its reader's model): attach for members that
// joined a list, detach for members that left it.
func writePolicyAttachments(ctx context.Context, w *Writers, arn string, before, after map[string]any) error {
	for _, k := range attachKinds() {
		was := map[string]bool{}
		for _, m := range stringsOf(before[k.listProp]) {
			was[m] = true
		}
		now := map[string]bool{}
		for _, m := range stringsOf(after[k.listProp]) {
			now[m] = true
		}
		for _, m := range sortedSet(now) {
			if !was[m] {
				if err := k.attach(ctx, w.IAM, m, arn); err != nil {
					return fmt.Errorf("attach to %s: %w", m, err)
				}
			}
		}
		for _, m := range sortedSet(was) {
			if !now[m] {
				if err := k.detach(ctx, w.IAM, m, arn); err != nil && !isNotFound(err) {
					return fmt.Errorf("detach from %s: %w", m, err)
				}
			}
		}
	}
	return nil
}
