package sandbox

import (
	"encoding/json"
	"github.com/realdrift/realdrift/internal/sandbox/world"
	"strconv"
	"strings"
)

func snsService() *service {
	return &service{
		name:     "sns",
		protocol: protoQuery,
		xmlns:    "http://sns.amazonaws.com/doc/2010-03-31/",
		throttle: apiError{Status: 400, Code: "Throttling"},
		deny:     apiError{Status: 403, Code: "AuthorizationError"},
		ops: map[string]handler{
			"GetTopicAttributes":       snsGetTopicAttributes,
			"SetTopicAttributes":       snsSetTopicAttributes,
			"ListSubscriptionsByTopic": snsListSubscriptionsByTopic,
			"Unsubscribe":              snsUnsubscribe,
		},
	}
}

// snsAttributes maps topic attribute names to AWS::SNS::Topic properties.
var snsAttributes = map[string]struct {
	prop string
	kind attrKind
}{
	"DisplayName":               {"DisplayName", attrString},
	"KmsMasterKeyId":            {"KmsMasterKeyId", attrString},
	"FifoTopic":                 {"FifoTopic", attrBool},
	"ContentBasedDeduplication": {"ContentBasedDeduplication", attrBool},
	"SignatureVersion":          {"SignatureVersion", attrString},
	"TracingConfig":             {"TracingConfig", attrString},
	"DeliveryPolicy":            {"DeliveryPolicy", attrJSON},
	"ArchivePolicy":             {"ArchivePolicy", attrJSON},
	"DataProtectionPolicy":      {"DataProtectionPolicy", attrJSON},
}

// snsWritable are the attributes SetTopicAttributes accepts.
var snsWritable = map[string]bool{
	"DisplayName": true, "KmsMasterKeyId": true, "ContentBasedDeduplication": true, "SignatureVersion": true,
	"TracingConfig": true, "DeliveryPolicy": true, "ArchivePolicy": true, "DataProtectionPolicy": true, "Policy": true,
}

func noTopic() error { return errf(404, "NotFound", "Topic does not exist") }

func topicPolicyOf(st *world.State, c *call, arn string) *world.Resource {
	for _, p := range st.OfType(c.account, c.region, "AWS::SNS::TopicPolicy") {
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
func topicSubscriptions(st *world.State, c *call, arn string, topic *world.Resource) []*xnode {
	var out []*xnode
	for _, sub := range st.OfType(c.account, c.region, "AWS::SNS::Subscription") {
		if world.FieldString(sub, "TopicArn") != arn {
			continue
		}
		out = append(out, el("", tx("SubscriptionArn", sub.CCID()), tx("Owner", c.account),
			tx("Protocol", world.FieldString(sub, "Protocol")), tx("Endpoint", world.FieldString(sub, "Endpoint")), tx("TopicArn", arn)))
	}
	if topic != nil {
		if inline, ok := world.FieldValue(topic, "Subscription").([]any); ok {
			for i, e := range inline {
				m, _ := e.(map[string]any)
				proto, _ := m["Protocol"].(string)
				endpoint, _ := m["Endpoint"].(string)
				subArn := inlineSubscriptionArn(arn, i, proto, endpoint)
				out = append(out, el("", tx("SubscriptionArn", subArn), tx("Owner", c.account),
					tx("Protocol", proto), tx("Endpoint", endpoint), tx("TopicArn", arn)))
			}
		}
	}
	return out
}

func snsGetTopicAttributes(st *world.State, c *call) (any, error) {
	arn := c.str("TopicArn")
	st.RLock()
	defer st.RUnlock()
	topic := st.Resource(c.account, c.region, "AWS::SNS::Topic", arn)
	pol := topicPolicyOf(st, c, arn)
	if topic == nil && pol == nil {
		return nil, noTopic()
	}
	attrs := map[string]string{"TopicArn": arn, "Owner": c.account}
	if topic != nil {
		for name, a := range snsAttributes {
			if v := world.FieldValue(topic, a.prop); v != nil {
				attrs[name] = attrText(v, a.kind)
			}
		}
		if _, ok := attrs["DisplayName"]; !ok {
			attrs["DisplayName"] = ""
		}
		confirmed := len(topicSubscriptions(st, c, arn, topic))
		attrs["SubscriptionsConfirmed"] = strconv.Itoa(confirmed)
		attrs["SubscriptionsPending"] = "0"
		attrs["SubscriptionsDeleted"] = "0"
		attrs["Policy"] = defaultTopicPolicy(arn, c.account)
	}
	if pol != nil {
		attrs["Policy"] = world.CompactJSON(world.Field(pol, "PolicyDocument"))
	}
	var entries []*xnode
	for _, k := range world.SortedKeys(attrs) {
		entries = append(entries, el("entry", tx("key", k), tx("value", attrs[k])))
	}
	return el("", el("Attributes", entries...)), nil
}

func snsSetTopicAttributes(st *world.State, c *call) (any, error) {
	arn, name, value := c.str("TopicArn"), c.str("AttributeName"), c.str("AttributeValue")
	if !snsWritable[name] {
		return nil, errf(400, "InvalidParameter", "Invalid parameter: AttributeName")
	}
	st.Lock()
	defer st.Unlock()
	topic := st.Resource(c.account, c.region, "AWS::SNS::Topic", arn)
	if topic == nil {
		return nil, noTopic()
	}
	if name == "Policy" {
		if !json.Valid([]byte(value)) {
			return nil, errf(400, "InvalidParameter", "Invalid parameter: Policy Error: the policy is not valid JSON")
		}
		doc := json.RawMessage(world.CompactJSON([]byte(value)))
		if pol := topicPolicyOf(st, c, arn); pol != nil {
			return nil, world.SetField(pol, "PolicyDocument", doc)
		}
		model, err := world.MarshalNoEscape(map[string]any{"Topics": []string{arn}, "PolicyDocument": doc})
		if err != nil {
			return nil, err
		}
		return nil, st.AddLive(c.account, c.region, &world.Resource{Type: "AWS::SNS::TopicPolicy", Identifier: arn, PhysicalID: arn, Properties: model})
	}
	a := snsAttributes[name]
	if value == "" {
		return nil, world.RemoveField(topic, a.prop)
	}
	v, ok := attrValue(value, a.kind)
	if !ok {
		return nil, errf(400, "InvalidParameter", "Invalid parameter: %s", name)
	}
	return nil, world.SetField(topic, a.prop, v)
}

func snsListSubscriptionsByTopic(st *world.State, c *call) (any, error) {
	arn := c.str("TopicArn")
	st.RLock()
	defer st.RUnlock()
	topic := st.Resource(c.account, c.region, "AWS::SNS::Topic", arn)
	if topic == nil {
		return nil, noTopic()
	}
	subs := topicSubscriptions(st, c, arn, topic)
	off, ok := pageOffset("subs", c.str("NextToken"))
	if !ok {
		return nil, errf(400, "InvalidParameter", "Invalid parameter: NextToken")
	}
	lo, hi, next := page(len(subs), off, c.pageSize)
	res := el("", members("Subscriptions", subs[lo:hi]))
	if next >= 0 {
		res.kids = append(res.kids, tx("NextToken", pageToken("subs", next)))
	}
	return res, nil
}

func snsUnsubscribe(st *world.State, c *call) (any, error) {
	arn := c.str("SubscriptionArn")
	st.Lock()
	defer st.Unlock()
	if sub := st.Resource(c.account, c.region, "AWS::SNS::Subscription", arn); sub != nil {
		st.Remove(c.account, c.region, sub)
		return nil, nil
	}
	topicArn := arn
	if i := strings.LastIndex(arn, ":"); i > 0 {
		topicArn = arn[:i]
	}
	if topic := st.Resource(c.account, c.region, "AWS::SNS::Topic", topicArn); topic != nil {
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
	return nil, errf(404, "NotFound", "Subscription does not exist")
}

// inlineSubscriptionArn is the ARN SNS gives a topic's inline
// subscription entry.
func inlineSubscriptionArn(topicArn string, i int, proto, endpoint string) string {
	return topicArn + ":" + uuidFrom(topicArn+"/"+strconv.Itoa(i)+"/"+proto+"/"+endpoint)
}
