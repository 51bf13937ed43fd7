package sns

import (
	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// Service is the service's registration: its wire facts and operations.
// outbox records what Publish accepted; key finds a topic's KMS key and
// its key policy (kms.Key).
func Service(outbox *Outbox, key KeyFinder) *wire.Service {
	p := &publisher{outbox: outbox, key: key}
	svc := wire.Query("sns", "http://sns.amazonaws.com/doc/2010-03-31/", wire.Ops{
		"GetTopicAttributes":       snsGetTopicAttributes,
		"SetTopicAttributes":       snsSetTopicAttributes,
		"ListSubscriptionsByTopic": snsListSubscriptionsByTopic,
		"Unsubscribe":              snsUnsubscribe,
		"Publish":                  p.publish,
	}).Denies(403, "AuthorizationError").Refuses(400, "InvalidParameter").Scoped(func(_ *world.State, c *wire.Call) string {
		if c.Action == "Publish" && c.Str("TopicArn") == "" {
			return c.Str("TargetArn")
		}
		return c.Str("TopicArn")
	})
	svc.IAM.Policy = topicPolicy
	svc.ResourcePolicies = map[string]string{"AWS::SNS::TopicPolicy": "PolicyDocument"}
	svc.IAM.Asks = p.keyAsks
	return svc
}
