package live

import (
	"context"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/sns"

	"github.com/realdrift/realdrift/internal/drift"
)

// topicSubscriptions lists a topic's confirmed subscriptions
// (AWS::SNS::Subscription, identified by the subscription ARN). Those the
// stack declares as resources (by ARN) or inline in the topic's own
// Subscription property (by protocol and endpoint) are not added; an inline
// list that is not fully resolved stops the enumeration (fail closed).
func topicSubscriptions(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.SNS == nil {
		return nil, skip("no SNS client")
	}
	declared := declaredIDs(stack, "AWS::SNS::Subscription")
	inline := map[string]bool{}
	if v, ok := parent.Declared["Subscription"]; ok {
		if drift.ContainsUnknown(v) {
			return nil, nil
		}
		list, _ := v.([]any)
		for _, e := range list {
			m, _ := e.(map[string]any)
			p, _ := m["Protocol"].(string)
			ep, _ := m["Endpoint"].(string)
			inline[strings.ToLower(p)+" "+ep] = true
		}
	}
	var out []candidate
	p := sns.NewListSubscriptionsByTopicPaginator(c.SNS, &sns.ListSubscriptionsByTopicInput{TopicArn: &parent.PhysicalID})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, s := range page.Subscriptions {
			arn := deref(s.SubscriptionArn)
			// Pending and deleted subscriptions have no real ARN.
			if !strings.HasPrefix(arn, "arn:") || declared[arn] || inline[strings.ToLower(deref(s.Protocol))+" "+deref(s.Endpoint)] {
				continue
			}
			out = append(out, candidate{typ: "AWS::SNS::Subscription", id: arn})
		}
	}
	return out, nil
}

// outOfBandTopicPolicy reports a topic's access policy when the stack
// declares none for the topic and the policy is not the AWS default every
// topic carries. Identity: the topic ARN.
func outOfBandTopicPolicy(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	arn := parent.PhysicalID
	if declaresPolicyOn(stack, arn, map[string]string{"AWS::SNS::TopicPolicy": "Topics", "AWS::SNS::TopicInlinePolicy": "TopicArn"}) {
		return nil, nil
	}
	doc, err := topicPolicy(ctx, c, arn)
	if isNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if isDefaultTopicPolicy(doc, arn) {
		return nil, nil
	}
	return []candidate{{typ: "AWS::SNS::TopicPolicy", id: arn, model: map[string]any{
		"Topics":         []any{arn},
		"PolicyDocument": doc,
	}}}, nil
}

// defaultTopicActions are the actions of the policy SNS gives every topic.
func defaultTopicActions() []string {
	return []string{
		"sns:addpermission", "sns:deletetopic", "sns:gettopicattributes", "sns:listsubscriptionsbytopic",
		"sns:publish", "sns:removepermission", "sns:settopicattributes", "sns:subscribe",
	}
}

// isDefaultTopicPolicy reports whether doc is the policy SNS derives for a
// topic: one Allow statement for any principal on the topic, with the eight
// default actions, gated on AWS:SourceOwner = the topic's account.
func isDefaultTopicPolicy(doc map[string]any, topicARN string) bool {
	sts := statements(doc)
	if len(sts) != 1 {
		return false
	}
	st := sts[0]
	if st["Effect"] != "Allow" {
		return false
	}
	if p, ok := principalOf(st["Principal"], nil); !ok || p != "*" {
		return false
	}
	if res := stringSet(st["Resource"]); len(res) != 1 || res[0] != topicARN {
		return false
	}
	acts := stringSet(st["Action"])
	for i := range acts {
		acts[i] = strings.ToLower(acts[i])
	}
	sort.Strings(acts)
	want := defaultTopicActions()
	if strings.Join(acts, ",") != strings.Join(want, ",") {
		return false
	}
	parts := strings.Split(topicARN, ":")
	if len(parts) < 6 {
		return false
	}
	cond, _ := st["Condition"].(map[string]any)
	if len(cond) != 1 {
		return false
	}
	eq, _ := cond["StringEquals"].(map[string]any)
	if len(eq) != 1 {
		return false
	}
	owner, _ := conditionValue(cond, "aws:sourceowner")
	return stringSetEquals(owner, parts[4])
}

// stringSet returns a string or list of strings as a list; anything else
// as nil.
func stringSet(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		out := make([]string, 0, len(t))
		for _, e := range t {
			s, ok := e.(string)
			if !ok {
				return nil
			}
			out = append(out, s)
		}
		return out
	}
	return nil
}

func stringSetEquals(v any, s string) bool {
	l := stringSet(v)
	return len(l) == 1 && l[0] == s
}
