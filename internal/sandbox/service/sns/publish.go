package sns

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// KeyFinder finds the KMS key id names in an account region: its ARN and
// key policy (ok false: no such key). It takes st's read lock.
type KeyFinder func(st *world.State, account, region, id string) (arn string, policy json.RawMessage, ok bool)

// Message is one message Publish accepted.
type Message struct {
	MessageID  string
	TopicArn   string
	Subject    string
	Message    string
	Structure  string
	Attributes map[string]Attribute
	GroupID    string
	DedupID    string
	// Publisher is the ARN of the principal that published it.
	Publisher string
}

// Attribute is a message attribute: its DataType and value.
type Attribute struct {
	DataType    string
	StringValue string
	BinaryValue string
}

// Outbox holds the messages published, per topic, in order; safe for
// concurrent use.
type Outbox struct {
	mu   sync.Mutex
	msgs []Message
}

// Of returns the messages published to topic, in order.
func (o *Outbox) Of(topic string) []Message {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []Message
	for _, m := range o.msgs {
		if m.TopicArn == topic {
			out = append(out, m)
		}
	}
	return out
}

// add records m, giving it its MessageId, and returns it with its
// sequence number (1, 2, ... across topics).
func (o *Outbox) add(m Message) (Message, int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	m.MessageID = world.UUIDFrom(m.TopicArn + "/" + strconv.Itoa(len(o.msgs)+1))
	o.msgs = append(o.msgs, m)
	return m, len(o.msgs)
}

type publisher struct {
	outbox *Outbox
	key    KeyFinder
}

// maxMessage is SNS's limit on a message with its attributes (256 KiB).
const maxMessage = 256 * 1024

// topicPolicy is the access policy of the topic a call names (its own
// account's AWS::SNS::TopicPolicy, else the default policy SNS gives a
// topic); nil for a topic the world does not hold (the handler answers
// NotFound).
func topicPolicy(st *world.State, c *wire.Call, arn string) json.RawMessage {
	account, region, ok := topicPlace(arn)
	if !ok {
		return nil
	}
	st.RLock()
	defer st.RUnlock()
	for _, p := range st.OfType(account, region, "AWS::SNS::TopicPolicy") {
		if world.Contains(world.FieldStrings(p, "Topics"), arn) {
			return json.RawMessage(world.CompactJSON(world.Field(p, "PolicyDocument")))
		}
	}
	if st.Resource(account, region, "AWS::SNS::Topic", arn) != nil {
		return json.RawMessage(defaultTopicPolicy(arn, account))
	}
	return nil
}

// topicPlace is the account and region of a topic ARN.
func topicPlace(arn string) (account, region string, ok bool) {
	f := strings.SplitN(arn, ":", 6)
	if len(f) != 6 || f[0] != "arn" || f[2] != "sns" {
		return "", "", false
	}
	return f[4], f[3], true
}

// keyAsks are the KMS questions a publish to an encrypted topic puts:
// SNS generates a data key and decrypts it with the topic's key as the
// publisher (kms:GenerateDataKey, kms:Decrypt, through SNS), each refused
// with KMSAccessDenied.
func (p *publisher) keyAsks(st *world.State, c *wire.Call) []wire.Ask {
	if c.Action != "Publish" || p.key == nil {
		return nil
	}
	arn := c.Str("TopicArn")
	if arn == "" {
		arn = c.Str("TargetArn")
	}
	account, region, ok := topicPlace(arn)
	if !ok {
		return nil
	}
	st.RLock()
	topic := st.Resource(account, region, "AWS::SNS::Topic", arn)
	keyID := ""
	if topic != nil {
		keyID = world.FieldString(topic, "KmsMasterKeyId")
	}
	st.RUnlock()
	if keyID == "" {
		return nil
	}
	keyArn, policy, ok := p.key(st, account, region, keyID)
	if !ok {
		return nil // the handler answers KMSNotFound
	}
	deny := &wire.Error{Status: 400, Code: "KMSAccessDenied"}
	var asks []wire.Ask
	for _, action := range []string{"kms:GenerateDataKey", "kms:Decrypt"} {
		a := wire.KeyAsk(action, keyArn, policy, "sns", region, c.Who.Account)
		a.Deny = deny
		asks = append(asks, a)
	}
	return asks
}

// publish accepts a message for a topic (TopicArn, or TargetArn naming a
// topic; phone numbers and platform endpoints are not served), as SNS
// checks it, records it in the outbox and answers its MessageId (and a
// SequenceNumber on a FIFO topic).
func (p *publisher) publish(st *world.State, c *wire.Call) (any, error) {
	arn, target, phone := c.Str("TopicArn"), c.Str("TargetArn"), c.Str("PhoneNumber")
	set := 0
	for _, v := range []string{arn, target, phone} {
		if v != "" {
			set++
		}
	}
	if set != 1 {
		return nil, wire.Errf(400, "InvalidParameter", "Invalid parameter: TopicArn or TargetArn Reason: exactly one of TopicArn, TargetArn and PhoneNumber must be specified")
	}
	if phone != "" {
		return nil, wire.Errf(400, "InvalidParameter", "Invalid parameter: PhoneNumber Reason: the sandbox serves publishing to topics only")
	}
	if arn == "" {
		arn = target
	}
	account, region, ok := topicPlace(arn)
	if !ok {
		return nil, wire.Errf(400, "InvalidParameter", "Invalid parameter: TopicArn")
	}
	m := Message{TopicArn: arn, Subject: c.Str("Subject"), Message: c.Str("Message"), Structure: c.Str("MessageStructure"),
		GroupID: c.Str("MessageGroupId"), DedupID: c.Str("MessageDeduplicationId"), Publisher: c.Who.ARN, Attributes: map[string]Attribute{}}
	if m.Message == "" {
		return nil, wire.Errf(400, "InvalidParameter", "Invalid parameter: Empty message")
	}
	if m.Subject != "" && (len(m.Subject) > 100 || !utf8.ValidString(m.Subject) || strings.ContainsAny(m.Subject, "\n\r")) {
		return nil, wire.Errf(400, "InvalidParameter", "Invalid parameter: Subject")
	}
	size := len(m.Message)
	for i := 1; ; i++ {
		pre := "MessageAttributes.entry." + strconv.Itoa(i) + "."
		name := c.Str(pre + "Name")
		if name == "" {
			break
		}
		a := Attribute{DataType: c.Str(pre + "Value.DataType"), StringValue: c.Str(pre + "Value.StringValue"), BinaryValue: c.Str(pre + "Value.BinaryValue")}
		kind, _, _ := strings.Cut(a.DataType, ".")
		switch {
		case kind != "String" && kind != "Number" && kind != "Binary":
			return nil, wire.Errf(400, "ParameterValueInvalid", "The message attribute '%s' has an invalid message attribute type, the set of supported type prefixes is Binary, Number, and String.", name)
		case kind == "Binary" && a.BinaryValue == "", kind != "Binary" && a.StringValue == "":
			return nil, wire.Errf(400, "ParameterValueInvalid", "The message attribute '%s' must contain non-empty message attribute value for message attribute type '%s'.", name, kind)
		}
		m.Attributes[name] = a
		size += len(name) + len(a.DataType) + len(a.StringValue) + len(a.BinaryValue)
	}
	if size > maxMessage {
		return nil, wire.Errf(400, "InvalidParameter", "Invalid parameter: Message too long")
	}
	if m.Structure != "" {
		var per map[string]any
		if m.Structure != "json" {
			return nil, wire.Errf(400, "InvalidParameter", "Invalid parameter: MessageStructure")
		}
		if json.Unmarshal([]byte(m.Message), &per) != nil {
			return nil, wire.Errf(400, "InvalidParameter", "Invalid parameter: Message Structure - JSON message body failed to parse")
		}
		if _, ok := per["default"].(string); !ok {
			return nil, wire.Errf(400, "InvalidParameter", "Invalid parameter: Message Structure - No default entry in JSON message body")
		}
	}
	st.RLock()
	topic := st.Resource(account, region, "AWS::SNS::Topic", arn)
	var fifo bool
	keyID := ""
	if topic != nil {
		fifo = world.FieldValue(topic, "FifoTopic") == true
		keyID = world.FieldString(topic, "KmsMasterKeyId")
	}
	st.RUnlock()
	if topic == nil {
		return nil, noTopic()
	}
	if keyID != "" && p.key != nil {
		if _, _, ok := p.key(st, account, region, keyID); !ok {
			return nil, wire.Errf(400, "KMSNotFound", "Invalid keyId %s", keyID)
		}
	}
	switch {
	case fifo && m.GroupID == "":
		return nil, wire.Errf(400, "InvalidParameter", "Invalid parameter: The MessageGroupId parameter is required for FIFO topics")
	case !fifo && m.DedupID != "":
		return nil, wire.Errf(400, "InvalidParameter", "Invalid parameter: MessageDeduplicationId Reason: The request includes MessageDeduplicationId parameter that is not valid for this topic type")
	}
	m, n := p.outbox.add(m)
	out := wire.El("", wire.Tx("MessageId", m.MessageID))
	if fifo {
		out.Kids = append(out.Kids, wire.Tx("SequenceNumber", fmt.Sprintf("%020d", n)))
	}
	return out, nil
}
