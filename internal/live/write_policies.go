package live

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"

	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

func policyText(doc any) (string, error) {
	b, err := json.Marshal(doc)
	if err != nil {
		return "", fmt.Errorf("policy document: %w", err)
	}
	return string(b), nil
}

func stringsOf(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// writeBucketPolicy writes AWS::S3::BucketPolicy: PutBucketPolicy with the
// target document (DeleteBucketPolicy when the target has none).
func writeBucketPolicy(ctx context.Context, w *Writers, t Target, ops []byte, _ any) error {
	if w.S3 == nil {
		return skip("no S3 client")
	}
	before, after, err := w.patched(ctx, t, ops)
	if err != nil {
		return err
	}
	if reflect.DeepEqual(before["PolicyDocument"], after["PolicyDocument"]) {
		return nil
	}
	bucket := t.PhysicalID
	if b, ok := t.Declared["Bucket"].(string); ok && b != "" {
		bucket = b
	}
	if after["PolicyDocument"] == nil {
		_, err := w.S3.DeleteBucketPolicy(ctx, &s3.DeleteBucketPolicyInput{Bucket: &bucket})
		return err
	}
	text, err := policyText(after["PolicyDocument"])
	if err != nil {
		return err
	}
	_, err = w.S3.PutBucketPolicy(ctx, &s3.PutBucketPolicyInput{Bucket: &bucket, Policy: &text})
	return err
}

// attachedWrite writes a policy attached to a list of targets (queues,
// topics): set on every target of the patched list, cleared (clear) on
// the targets that left it.
func attachedWrite(ctx context.Context, w *Writers, t Target, ops []byte, prop string,
	set func(ctx context.Context, target, text string) error, clear func(ctx context.Context, target string) error) error {
	before, after, err := w.patched(ctx, t, ops)
	if err != nil {
		return err
	}
	docChanged := !reflect.DeepEqual(before["PolicyDocument"], after["PolicyDocument"])
	was := map[string]bool{}
	for _, q := range stringsOf(before[prop]) {
		was[q] = true
	}
	now := map[string]bool{}
	for _, q := range stringsOf(after[prop]) {
		now[q] = true
		if was[q] && !docChanged {
			continue
		}
		if after["PolicyDocument"] == nil {
			continue
		}
		text, err := policyText(after["PolicyDocument"])
		if err != nil {
			return err
		}
		if err := set(ctx, q, text); err != nil {
			return err
		}
	}
	for _, q := range sortedSet(was) {
		if !now[q] || after["PolicyDocument"] == nil {
			if err := clear(ctx, q); err != nil {
				return err
			}
		}
	}
	return nil
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// writeQueuePolicy writes AWS::SQS::QueuePolicy through SetQueueAttributes
// Policy on each of its queues ("" clears a queue that left the list).
func writeQueuePolicy(ctx context.Context, w *Writers, t Target, ops []byte, _ any) error {
	if w.SQS == nil {
		return skip("no SQS client")
	}
	set := func(ctx context.Context, q, text string) error {
		_, err := w.SQS.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: &q, Attributes: map[string]string{"Policy": text}})
		return err
	}
	return attachedWrite(ctx, w, t, ops, "Queues", set, func(ctx context.Context, q string) error { return set(ctx, q, "") })
}

// writeTopicPolicy writes AWS::SNS::TopicPolicy through SetTopicAttributes
// Policy on each of its topics (a topic that left the list gets SNS's
// default policy back).
func writeTopicPolicy(ctx context.Context, w *Writers, t Target, ops []byte, _ any) error {
	if w.SNS == nil {
		return skip("no SNS client")
	}
	set := func(ctx context.Context, arn, text string) error {
		name := "Policy"
		_, err := w.SNS.SetTopicAttributes(ctx, &sns.SetTopicAttributesInput{TopicArn: &arn, AttributeName: &name, AttributeValue: &text})
		return err
	}
	return attachedWrite(ctx, w, t, ops, "Topics", set, func(ctx context.Context, arn string) error {
		return set(ctx, arn, DefaultTopicPolicy(arn))
	})
}

// DefaultTopicPolicy is the access policy SNS gives every new topic: what a
// topic's policy is reset to when an out-of-band one is removed.
func DefaultTopicPolicy(topicARN string) string {
	account := ""
	if parts := splitARN(topicARN); len(parts) >= 6 {
		account = parts[4]
	}
	doc := map[string]any{
		"Version": "2008-10-17",
		"Id":      "__default_policy_ID",
		"Statement": []any{map[string]any{
			"Sid":       "__default_statement_ID",
			"Effect":    "Allow",
			"Principal": map[string]any{"AWS": "*"},
			"Action": []any{"SNS:GetTopicAttributes", "SNS:SetTopicAttributes", "SNS:AddPermission", "SNS:RemovePermission",
				"SNS:DeleteTopic", "SNS:Subscribe", "SNS:ListSubscriptionsByTopic", "SNS:Publish"},
			"Resource":  topicARN,
			"Condition": map[string]any{"StringEquals": map[string]any{"AWS:SourceOwner": account}},
		}},
	}
	b, _ := json.Marshal(doc)
	return string(b)
}

func splitARN(arn string) []string {
	var out []string
	start := 0
	for i := 0; i < len(arn); i++ {
		if arn[i] == ':' {
			out = append(out, arn[start:i])
			start = i + 1
		}
	}
	return append(out, arn[start:])
}

// inlineKinds are the put and delete calls of inline policies per
// attachment list of AWS::IAM::Policy.
type inlineKind struct {
	prop string
	put  func(ctx context.Context, api iamWriteAPI, member, name, doc string) error
	del  func(ctx context.Context, api iamWriteAPI, member, name string) error
}

func inlineKinds() []inlineKind {
	return []inlineKind{
		{"Roles", func(ctx context.Context, api iamWriteAPI, m, n, d string) error {
			_, err := api.PutRolePolicy(ctx, &iam.PutRolePolicyInput{RoleName: &m, PolicyName: &n, PolicyDocument: &d})
			return err
		}, func(ctx context.Context, api iamWriteAPI, m, n string) error {
			_, err := api.DeleteRolePolicy(ctx, &iam.DeleteRolePolicyInput{RoleName: &m, PolicyName: &n})
			return err
		}},
		{"Users", func(ctx context.Context, api iamWriteAPI, m, n, d string) error {
			_, err := api.PutUserPolicy(ctx, &iam.PutUserPolicyInput{UserName: &m, PolicyName: &n, PolicyDocument: &d})
			return err
		}, func(ctx context.Context, api iamWriteAPI, m, n string) error {
			_, err := api.DeleteUserPolicy(ctx, &iam.DeleteUserPolicyInput{UserName: &m, PolicyName: &n})
			return err
		}},
		{"Groups", func(ctx context.Context, api iamWriteAPI, m, n, d string) error {
			_, err := api.PutGroupPolicy(ctx, &iam.PutGroupPolicyInput{GroupName: &m, PolicyName: &n, PolicyDocument: &d})
			return err
		}, func(ctx context.Context, api iamWriteAPI, m, n string) error {
			_, err := api.DeleteGroupPolicy(ctx, &iam.DeleteGroupPolicyInput{GroupName: &m, PolicyName: &n})
			return err
		}},
	}
}

// writeInlinePolicy writes AWS::IAM::Policy: Put{Role,User,Group}Policy on
// every member of the patched lists when the document changed or the
// member is new, Delete…Policy on members that left a list.
func writeInlinePolicy(ctx context.Context, w *Writers, t Target, ops []byte, _ any) error {
	if w.IAM == nil {
		return skip("no IAM client")
	}
	before, after, err := w.patched(ctx, t, ops)
	if err != nil {
		return err
	}
	name, _ := t.Declared["PolicyName"].(string)
	if name == "" {
		return fmt.Errorf("write %s: PolicyName is not resolved", t.LogicalID)
	}
	docChanged := !reflect.DeepEqual(before["PolicyDocument"], after["PolicyDocument"])
	text, err := policyText(after["PolicyDocument"])
	if err != nil {
		return err
	}
	for _, k := range inlineKinds() {
		was := map[string]bool{}
		for _, m := range stringsOf(before[k.prop]) {
			was[m] = true
		}
		now := map[string]bool{}
		for _, m := range stringsOf(after[k.prop]) {
			now[m] = true
			if was[m] && !docChanged {
				continue
			}
			if err := k.put(ctx, w.IAM, m, name, text); err != nil {
				return err
			}
		}
		for _, m := range sortedSet(was) {
			if !now[m] {
				if err := k.del(ctx, w.IAM, m, name); err != nil && !isNotFound(err) {
					return err
				}
			}
		}
	}
	return nil
}

// maxPolicyVersions is IAM's cap on a managed policy's versions.
const maxPolicyVersions = 5

// writeManagedPolicy writes AWS::IAM::ManagedPolicy: its Roles / Users /
// Groups by attaching and detaching the members that changed
// (writePolicyAttachments), and its document as a new default version
// (CreatePolicyVersion SetAsDefault), deleting the oldest non-default
// version first when the policy has the maximum.
func writeManagedPolicy(ctx context.Context, w *Writers, t Target, ops []byte, _ any) error {
	if w.IAM == nil {
		return skip("no IAM client")
	}
	before, after, err := w.patched(ctx, t, ops)
	if err != nil {
		return err
	}
	arn := t.PhysicalID
	if err := writePolicyAttachments(ctx, w, arn, before, after); err != nil {
		return err
	}
	if reflect.DeepEqual(before["PolicyDocument"], after["PolicyDocument"]) {
		return nil
	}
	vs, err := w.IAM.ListPolicyVersions(ctx, &iam.ListPolicyVersionsInput{PolicyArn: &arn})
	if err != nil {
		return fmt.Errorf("list versions: %w", err)
	}
	if len(vs.Versions) >= maxPolicyVersions {
		var oldest *string
		var when int64
		for _, v := range vs.Versions {
			if v.IsDefaultVersion || v.CreateDate == nil {
				continue
			}
			if u := v.CreateDate.UnixNano(); oldest == nil || u < when {
				oldest, when = v.VersionId, u
			}
		}
		if oldest != nil {
			if _, err := w.IAM.DeletePolicyVersion(ctx, &iam.DeletePolicyVersionInput{PolicyArn: &arn, VersionId: oldest}); err != nil && !isNotFound(err) {
				return fmt.Errorf("delete the oldest version: %w", err)
			}
		}
	}
	text, err := policyText(after["PolicyDocument"])
	if err != nil {
		return err
	}
	_, err = w.IAM.CreatePolicyVersion(ctx, &iam.CreatePolicyVersionInput{PolicyArn: &arn, PolicyDocument: &text, SetAsDefault: true})
	return err
}

// writeRolePolicies writes an IAM role's inline Policies per entry, from
// the finding's live entries (prior) to the patched target: PutRolePolicy
// for each target entry the role does not carry as is, DeleteRolePolicy
// for each prior entry the target lacks. Entries the finding did not show
// (the stack's own AWS::IAM::Policy resources) are never touched.
func writeRolePolicies(ctx context.Context, w *Writers, t Target, ops []byte, prior any) error {
	if w.IAM == nil {
		return skip("no IAM client")
	}
	role := t.PhysicalID
	after, err := ApplyPatch(map[string]any{"Policies": prior}, ops)
	if err != nil {
		return err
	}
	want := map[string]any{}
	for _, e := range entries(after["Policies"]) {
		want[e.name] = e.doc
	}
	for _, e := range entries(after["Policies"]) {
		cur, err := w.IAM.GetRolePolicy(ctx, &iam.GetRolePolicyInput{RoleName: &role, PolicyName: &e.name})
		if err == nil {
			if doc, perr := parsePolicy(deref(cur.PolicyDocument)); perr == nil && reflect.DeepEqual(doc, e.doc) {
				continue
			}
		} else if !isNotFound(err) {
			return err
		}
		text, err := policyText(e.doc)
		if err != nil {
			return err
		}
		if _, err := w.IAM.PutRolePolicy(ctx, &iam.PutRolePolicyInput{RoleName: &role, PolicyName: &e.name, PolicyDocument: &text}); err != nil {
			return err
		}
	}
	for _, e := range entries(prior) {
		if _, ok := want[e.name]; ok {
			continue
		}
		if _, err := w.IAM.DeleteRolePolicy(ctx, &iam.DeleteRolePolicyInput{RoleName: &role, PolicyName: &e.name}); err != nil && !isNotFound(err) {
			return err
		}
	}
	return nil
}

type inlineEntry struct {
	name string
	doc  any
}

func entries(v any) []inlineEntry {
	list, _ := v.([]any)
	var out []inlineEntry
	for _, e := range list {
		m, _ := e.(map[string]any)
		if n, _ := m["PolicyName"].(string); n != "" {
			out = append(out, inlineEntry{n, m["PolicyDocument"]})
		}
	}
	return out
}

// The deletes of out-of-band policies (added children).

func deleteBucketPolicy(ctx context.Context, w *Writers, _, bucket string, _ map[string]any) error {
	if w.S3 == nil {
		return skip("no S3 client")
	}
	_, err := w.S3.DeleteBucketPolicy(ctx, &s3.DeleteBucketPolicyInput{Bucket: &bucket})
	return err
}

func deleteQueuePolicy(ctx context.Context, w *Writers, _, queueURL string, _ map[string]any) error {
	if w.SQS == nil {
		return skip("no SQS client")
	}
	_, err := w.SQS.SetQueueAttributes(ctx, &sqs.SetQueueAttributesInput{QueueUrl: &queueURL, Attributes: map[string]string{"Policy": ""}})
	return err
}

func deleteTopicPolicy(ctx context.Context, w *Writers, _, topicARN string, _ map[string]any) error {
	if w.SNS == nil {
		return skip("no SNS client")
	}
	name, text := "Policy", DefaultTopicPolicy(topicARN)
	_, err := w.SNS.SetTopicAttributes(ctx, &sns.SetTopicAttributesInput{TopicArn: &topicARN, AttributeName: &name, AttributeValue: &text})
	return err
}
