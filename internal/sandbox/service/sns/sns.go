package sns

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// snsAttributes maps topic attribute names to AWS::SNS::Topic properties.
var snsAttributes = map[string]struct {
	prop string
	kind world.AttrKind
}{
	"DisplayName":               {"DisplayName", world.AttrString},
	"KmsMasterKeyId":            {"KmsMasterKeyId", world.AttrString},
	"FifoTopic":                 {"FifoTopic", world.AttrBool},
	"ContentBasedDeduplication": {"ContentBasedDeduplication", world.AttrBool},
	"SignatureVersion":          {"SignatureVersion", world.AttrString},
	"TracingConfig":             {"TracingConfig", world.AttrString},
	"DeliveryPolicy":            {"DeliveryPolicy", world.AttrJSON},
	"ArchivePolicy":             {"ArchivePolicy", world.AttrJSON},
	"DataProtectionPolicy":      {"DataProtectionPolicy", world.AttrJSON},
}

// snsWritable are the attributes SetTopicAttributes accepts.
var snsWritable = map[string]bool{
	"DisplayName": true, "KmsMasterKeyId": true, "ContentBasedDeduplication": true, "SignatureVersion": true,
	"TracingConfig": true, "DeliveryPolicy": true, "ArchivePolicy": true, "DataProtectionPolicy": true, "Policy": true,
}

func noTopic() error { return wire.Errf(404, "NotFound", "Topic does not exist") }

func topicPolicyOf(st *world.State, c *wire.Call, arn string) *world.Resource {
	for _, p := range st.OfType(c.Account, c.Region, "AWS::SNS::TopicPolicy") {
		if world.Contains(world.FieldStrings(p, "Topics"), arn) {
			return p
		}
	}
	return nil
}

// defaultTopicPolicy is the access policy SNS gives every new topic.
func defaultTopicPolicy(arn, account string) string {
	doc := map[string]any{
		"Version": "2008-10-17",
		"Id":      "__default_policy_ID",
		"Statement": []any{map[string]any{
			"Sid":       "__default_statement_ID",
			"Effect":    "Allow",
			"Principal": map[string]any{"AWS": "*"},
			"Action": []string{"SNS:GetTopicAttributes", "SNS:SetTopicAttributes", "SNS:AddPermission", "SNS:RemovePermission",
				"SNS:DeleteTopic", "SNS:Subscribe", "SNS:ListSubscriptionsByTopic", "SNS:Publish"},
			"Resource":  arn,
			"Condition": map[string]any{"StringEquals": map[string]any{"AWS:SourceOwner": account}},
		}},
	}
	b, _ := world.MarshalNoEscape(doc)
	return string(b)
}

// topicSubscriptions returns a topic's subscriptions: AWS::SNS::Subscription
// resources on it and the topic's inline Subscription entries (which SNS
// lists like any other).
func topicSubscriptions(st *world.State, c *wire.Call, arn string, topic *world.Resource) []*wire.Node {
	var out []*wire.Node
	for _, sub := range st.OfType(c.Account, c.Region, "AWS::SNS::Subscription") {
		if world.FieldString(sub, "TopicArn") != arn {
			continue
		}
		out = append(out, wire.El("", wire.Tx("SubscriptionArn", sub.CCID()), wire.Tx("Owner", c.Account),
			wire.Tx("Protocol", world.FieldString(sub, "Protocol")), wire.Tx("Endpoint", world.FieldString(sub, "Endpoint")), wire.Tx("TopicArn", arn)))
	}
	if topic != nil {
		if inline, ok := world.FieldValue(topic, "Subscription").([]any); ok {
			for i, e := range inline {
				m, _ := e.(map[string]any)
				proto, _ := m["Protocol"].(string)
				endpoint, _ := m["Endpoint"].(string)
				subArn := inlineSubscriptionArn(arn, i, proto, endpoint)
				out = append(out, wire.El("", wire.Tx("SubscriptionArn", subArn), wire.Tx("Owner", c.Account),
					wire.Tx("Protocol", proto), wire.Tx("Endpoint", endpoint), wire.Tx("TopicArn", arn)))
			}
		}
	}
	return out
}

func snsGetTopicAttributes(st *world.State, c *wire.Call) (any, error) {
	arn := c.Str("TopicArn")
	st.RLock()
	defer st.RUnlock()
	topic := st.Resource(c.Account, c.Region, "AWS::SNS::Topic", arn)
	pol := topicPolicyOf(st, c, arn)
	if topic == nil && pol == nil {
		return nil, noTopic()
	}
	attrs := map[string]string{"TopicArn": arn, "Owner": c.Account}
	if topic != nil {
		for name, a := range snsAttributes {
			if v := world.FieldValue(topic, a.prop); v != nil {
				attrs[name] = world.AttrText(v, a.kind)
			}
		}
		if _, ok := attrs["DisplayName"]; !ok {
			attrs["DisplayName"] = ""
		}
		confirmed := len(topicSubscriptions(st, c, arn, topic))
		attrs["SubscriptionsConfirmed"] = strconv.Itoa(confirmed)
		attrs["SubscriptionsPending"] = "0"
		attrs["SubscriptionsDeleted"] = "0"
		attrs["Policy"] = defaultTopicPolicy(arn, c.Account)
	}
	if pol != nil {
		attrs["Policy"] = world.CompactJSON(world.Field(pol, "PolicyDocument"))
	}
	var entries []*wire.Node
	for _, k := range world.SortedKeys(attrs) {
		entries = append(entries, wire.El("entry", wire.Tx("key", k), wire.Tx("value", attrs[k])))
	}
	return wire.El("", wire.El("Attributes", entries...)), nil
}

func snsSetTopicAttributes(st *world.State, c *wire.Call) (any, error) {
	arn, name, value := c.Str("TopicArn"), c.Str("AttributeName"), c.Str("AttributeValue")
	if !snsWritable[name] {
		return nil, wire.Errf(400, "InvalidParameter", "Invalid parameter: AttributeName")
	}
	st.Lock()
	defer st.Unlock()
	topic := st.Resource(c.Account, c.Region, "AWS::SNS::Topic", arn)
	if topic == nil {
		return nil, noTopic()
	}
	if name == "Policy" {
		if !json.Valid([]byte(value)) {
			return nil, wire.Errf(400, "InvalidParameter", "Invalid parameter: Policy Error: the policy is not valid JSON")
		}
		if _, err := world.CompileResourcePolicy(json.RawMessage(value)); err != nil {
			return nil, wire.Errf(400, "InvalidParameter", "Invalid parameter: Policy Error: %v", err)
		}
		doc := json.RawMessage(world.CompactJSON([]byte(value)))
		if pol := topicPolicyOf(st, c, arn); pol != nil {
			return nil, world.SetField(pol, "PolicyDocument", doc)
		}
		model, err := world.MarshalNoEscape(map[string]any{"Topics": []string{arn}, "PolicyDocument": doc})
		if err != nil {
			return nil, err
		}
		return nil, st.AddLive(c.Account, c.Region, &world.Resource{Type: "AWS::SNS::TopicPolicy", Identifier: arn, PhysicalID: arn, Properties: model})
	}
	a := snsAttributes[name]
	if value == "" {
		return nil, world.RemoveField(topic, a.prop)
	}
	v, ok := world.AttrValue(value, a.kind)
	if !ok {
		return nil, wire.Errf(400, "InvalidParameter", "Invalid parameter: %s", name)
	}
	return nil, world.SetField(topic, a.prop, v)
}

func snsListSubscriptionsByTopic(st *world.State, c *wire.Call) (any, error) {
	arn := c.Str("TopicArn")
	st.RLock()
	defer st.RUnlock()
	topic := st.Resource(c.Account, c.Region, "AWS::SNS::Topic", arn)
	if topic == nil {
		return nil, noTopic()
	}
	subs := topicSubscriptions(st, c, arn, topic)
	cur, err := wire.Paging{Prefix: "subs", Default: c.PageSize,
		BadToken: wire.Errf(400, "InvalidParameter", "Invalid parameter: NextToken")}.Start(c, 0, c.Str("NextToken"))
	if err != nil {
		return nil, err
	}
	lo, hi, next := cur.Cut(len(subs))
	res := wire.El("", wire.Members("Subscriptions", subs[lo:hi]))
	if next != "" {
		res.Kids = append(res.Kids, wire.Tx("NextToken", next))
	}
	return res, nil
}

func snsUnsubscribe(st *world.State, c *wire.Call) (any, error) {
	arn := c.Str("SubscriptionArn")
	st.Lock()
	defer st.Unlock()
	if sub := st.Resource(c.Account, c.Region, "AWS::SNS::Subscription", arn); sub != nil {
		st.Remove(c.Account, c.Region, sub)
		return nil, nil
	}
	topicArn := arn
	if i := strings.LastIndex(arn, ":"); i > 0 {
		topicArn = arn[:i]
	}
	if topic := st.Resource(c.Account, c.Region, "AWS::SNS::Topic", topicArn); topic != nil {
		if inline, ok := world.FieldValue(topic, "Subscription").([]any); ok {
			for i, e := range inline {
				m, _ := e.(map[string]any)
				proto, _ := m["Protocol"].(string)
				endpoint, _ := m["Endpoint"].(string)
				if inlineSubscriptionArn(topicArn, i, proto, endpoint) == arn {
					rest := append(append([]any(nil), inline[:i]...), inline[i+1:]...)
					return nil, world.SetField(topic, "Subscription", rest)
				}
			}
		}
	}
	return nil, wire.Errf(404, "NotFound", "Subscription does not exist")
}

// inlineSubscriptionArn is the ARN SNS gives a topic's inline
// subscription entry.
func inlineSubscriptionArn(topicArn string, i int, proto, endpoint string) string {
	return topicArn + ":" + world.UUIDFrom(topicArn+"/"+strconv.Itoa(i)+"/"+proto+"/"+endpoint)
}
