package sqs

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// queueARN is the queue a call is authorized against, by its QueueUrl.
func queueARN(_ *world.State, c *wire.Call) string {
	u := c.Str("QueueUrl")
	if u == "" && c.Service.Protocol == wire.ProtoJSON {
		var in struct{ QueueUrl string }
		if c.Decode(&in) == nil {
			u = in.QueueUrl
		}
	}
	if name := u[strings.LastIndexByte(u, '/')+1:]; name != "" {
		return "arn:aws:sqs:" + c.Region + ":" + c.Account + ":" + name
	}
	return ""
}

// sqsAttributes maps queue attribute names to AWS::SQS::Queue properties.
var sqsAttributes = map[string]struct {
	prop     string
	kind     world.AttrKind
	readOnly bool
}{
	"DelaySeconds":                  {"DelaySeconds", world.AttrNumber, false},
	"MaximumMessageSize":            {"MaximumMessageSize", world.AttrNumber, false},
	"MessageRetentionPeriod":        {"MessageRetentionPeriod", world.AttrNumber, false},
	"ReceiveMessageWaitTimeSeconds": {"ReceiveMessageWaitTimeSeconds", world.AttrNumber, false},
	"VisibilityTimeout":             {"VisibilityTimeout", world.AttrNumber, false},
	"KmsMasterKeyId":                {"KmsMasterKeyId", world.AttrString, false},
	"KmsDataKeyReusePeriodSeconds":  {"KmsDataKeyReusePeriodSeconds", world.AttrNumber, false},
	"SqsManagedSseEnabled":          {"SqsManagedSseEnabled", world.AttrBool, false},
	"FifoQueue":                     {"FifoQueue", world.AttrBool, true},
	"ContentBasedDeduplication":     {"ContentBasedDeduplication", world.AttrBool, false},
	"DeduplicationScope":            {"DeduplicationScope", world.AttrString, false},
	"FifoThroughputLimit":           {"FifoThroughputLimit", world.AttrString, false},
	"RedrivePolicy":                 {"RedrivePolicy", world.AttrJSON, false},
	"RedriveAllowPolicy":            {"RedriveAllowPolicy", world.AttrJSON, false},
	"QueueArn":                      {"Arn", world.AttrString, true},
}

func noQueue(url string) error {
	return &wire.Error{Status: 400, Code: "QueueDoesNotExist", QueryCode: "AWS.SimpleQueueService.NonExistentQueue", Message: "The specified queue does not exist for this wsdl version. (" + url + ")"}
}

// findQueue finds a queue by URL (exact, else by account and name).
func findQueue(st *world.State, c *wire.Call, url string) *world.Resource {
	if res := st.Resource(c.Account, c.Region, "AWS::SQS::Queue", url); res != nil {
		return res
	}
	parts := strings.Split(strings.TrimRight(url, "/"), "/")
	if len(parts) < 2 {
		return nil
	}
	acct, name := parts[len(parts)-2], parts[len(parts)-1]
	if acct != c.Account {
		return nil
	}
	for _, q := range st.OfType(c.Account, c.Region, "AWS::SQS::Queue") {
		if world.FieldString(q, "QueueName") == name {
			return q
		}
	}
	return nil
}

// queuePolicyOf returns the AWS::SQS::QueuePolicy governing a queue URL.
func queuePolicyOf(st *world.State, c *wire.Call, url string) *world.Resource {
	for _, p := range st.OfType(c.Account, c.Region, "AWS::SQS::QueuePolicy") {
		if world.Contains(world.FieldStrings(p, "Queues"), url) {
			return p
		}
	}
	return nil
}

// sqsIn is an SQS request's input in either protocol.
type sqsIn struct {
	QueueUrl       string
	AttributeNames []string
	Attributes     map[string]string
}

func sqsInput(c *wire.Call) (sqsIn, error) {
	var in sqsIn
	if c.Service.Protocol != wire.ProtoQuery {
		return in, c.Decode(&in)
	}
	in.QueueUrl = c.Str("QueueUrl")
	for i := 1; ; i++ {
		n := c.Str(fmt.Sprintf("AttributeName.%d", i))
		if n == "" {
			break
		}
		in.AttributeNames = append(in.AttributeNames, n)
	}
	for i := 1; ; i++ {
		n, ok := c.Form[fmt.Sprintf("Attribute.%d.Name", i)]
		if !ok {
			break
		}
		if in.Attributes == nil {
			in.Attributes = map[string]string{}
		}
		in.Attributes[n[0]] = c.Str(fmt.Sprintf("Attribute.%d.Value", i))
	}
	return in, nil
}

func sqsGetQueueAttributes(st *world.State, c *wire.Call) (any, error) {
	in, err := sqsInput(c)
	if err != nil {
		return nil, err
	}
	st.RLock()
	defer st.RUnlock()
	q := findQueue(st, c, in.QueueUrl)
	pol := queuePolicyOf(st, c, in.QueueUrl)
	if q == nil && pol == nil {
		return nil, noQueue(in.QueueUrl)
	}
	want := map[string]bool{}
	all := len(in.AttributeNames) == 0
	for _, n := range in.AttributeNames {
		if n == "All" {
			all = true
		}
		want[n] = true
	}
	attrs := map[string]string{}
	put := func(name, value string) {
		if (all || want[name]) && value != "" {
			attrs[name] = value
		}
	}
	if q != nil {
		for name, a := range sqsAttributes {
			if v := world.FieldValue(q, a.prop); v != nil {
				put(name, world.AttrText(v, a.kind))
			}
		}
		for _, n := range []string{"ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed"} {
			put(n, "0")
		}
		ts := strconv.FormatInt(world.DefaultTime.Unix(), 10)
		put("CreatedTimestamp", ts)
		put("LastModifiedTimestamp", ts)
	}
	if pol != nil {
		put("Policy", world.CompactJSON(world.Field(pol, "PolicyDocument")))
	}
	if c.Service.Protocol == wire.ProtoQuery {
		res := wire.El("")
		for _, k := range world.SortedKeys(attrs) {
			res.Kids = append(res.Kids, wire.El("Attribute", wire.Tx("Name", k), wire.Tx("Value", attrs[k])))
		}
		return res, nil
	}
	out := map[string]any{}
	if len(attrs) > 0 {
		out["Attributes"] = attrs
	}
	return out, nil
}

func sqsSetQueueAttributes(st *world.State, c *wire.Call) (any, error) {
	in, err := sqsInput(c)
	if err != nil {
		return nil, err
	}
	st.Lock()
	defer st.Unlock()
	q := findQueue(st, c, in.QueueUrl)
	if q == nil {
		return nil, noQueue(in.QueueUrl)
	}
	invalid := func(name string) error {
		return &wire.Error{Status: 400, Code: "InvalidAttributeName", QueryCode: "InvalidAttributeName", Message: "Unknown Attribute " + name + "."}
	}
	// Validate everything before changing anything.
	for _, name := range world.SortedKeys(in.Attributes) {
		text := in.Attributes[name]
		if name == "Policy" {
			if text != "" && !json.Valid([]byte(text)) {
				return nil, &wire.Error{Status: 400, Code: "InvalidAttributeValue", QueryCode: "InvalidAttributeValue", Message: "Invalid value for the parameter Policy."}
			}
			continue
		}
		a, ok := sqsAttributes[name]
		if !ok || a.readOnly {
			return nil, invalid(name)
		}
		if _, ok := world.AttrValue(text, a.kind); !ok && text != "" {
			return nil, &wire.Error{Status: 400, Code: "InvalidAttributeValue", QueryCode: "InvalidAttributeValue", Message: "Invalid value for the parameter " + name + "."}
		}
	}
	for _, name := range world.SortedKeys(in.Attributes) {
		text := in.Attributes[name]
		if name == "Policy" {
			if err := setQueuePolicy(st, c, q, in.QueueUrl, text); err != nil {
				return nil, err
			}
			continue
		}
		a := sqsAttributes[name]
		var err error
		if text == "" {
			err = world.RemoveField(q, a.prop)
		} else {
			v, _ := world.AttrValue(text, a.kind)
			err = world.SetField(q, a.prop, v)
		}
		if err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// setQueuePolicy writes a queue's policy into the QueuePolicy resource
// governing it, creating a live-only one when none does; "" removes it.
func setQueuePolicy(st *world.State, c *wire.Call, q *world.Resource, url, text string) error {
	pol := queuePolicyOf(st, c, url)
	if text == "" {
		if pol != nil {
			st.Remove(c.Account, c.Region, pol)
		}
		return nil
	}
	doc := json.RawMessage(world.CompactJSON([]byte(text)))
	if pol != nil {
		return world.SetField(pol, "PolicyDocument", doc)
	}
	model, err := world.MarshalNoEscape(map[string]any{"Queues": []string{url}, "PolicyDocument": doc})
	if err != nil {
		return err
	}
	return st.AddLive(c.Account, c.Region, &world.Resource{Type: "AWS::SQS::QueuePolicy", Identifier: url, PhysicalID: url, Properties: model})
}
