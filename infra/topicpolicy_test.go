package main

import (
	"path/filepath"
	"testing"
)

// alertTopicCopy is the committed copy of the alert topic's access policy
// and of the key policy of the key that encrypts it: the service's
// end-to-end seeds the sandbox's topic with both, and the sandbox's SNS
// decides a Publish with the topic policy as a resource policy and asks
// the key's policy for the data key SNS uses on the publisher's behalf.
var alertTopicCopy = filepath.Join("..", "testdata", "iam", "alert-topic.json")

// alertTopic is the storage shape of alertTopicCopy.
type alertTopic struct {
	Comment      string            `json:"comment"`
	Placeholders map[string]string `json:"placeholders"`
	// TopicPolicy is the topic's AWS::SNS::TopicPolicy document.
	TopicPolicy any `json:"topicPolicy"`
	// KeyPolicy is the KeyPolicy of the topic's KmsMasterKeyId.
	KeyPolicy any `json:"keyPolicy"`
}

// TestAlertTopicPolicyCopy holds the committed copy equal to the
// synthesized topic policy and key policy (go test -run
// TestAlertTopicPolicyCopy -update rewrites it).
func TestAlertTopicPolicyCopy(t *testing.T) {
	want := alertTopic{
		Comment:      "The alert topic's access policy and its encryption key's policy as infra synthesizes them, references resolved to placeholders (infra TestAlertTopicPolicyCopy keeps this equal; -update rewrites it). The e2e's alerts are published to the sandbox's topic under both.",
		Placeholders: centralPlaceholders,
	}
	topics := resourcesOf(central, "AWS::SNS::Topic")
	if len(topics) != 1 {
		t.Fatalf("%d topics, want the alert topic only", len(topics))
	}
	topic := topics[0]
	for _, p := range resourcesOf(central, "AWS::SNS::TopicPolicy") {
		for _, r := range p.props["Topics"].([]any) {
			if refID(r) != topic.id {
				continue
			}
			doc, err := resolvePlaceholders(central, p.props["PolicyDocument"])
			if err != nil {
				t.Fatalf("%s: %v", p.id, err)
			}
			if want.TopicPolicy != nil {
				t.Fatalf("two policies on the alert topic")
			}
			want.TopicPolicy = doc
		}
	}
	if want.TopicPolicy == nil {
		t.Fatal("the alert topic has no topic policy")
	}
	want.KeyPolicy = keyPolicyOf(t, topic.props["KmsMasterKeyId"], "the alert topic's")
	checkJSONCopy(t, want, alertTopicCopy, "alert topic and key policies")
}

// keyPolicyOf is the placeholder-resolved KeyPolicy of the central
// template's key that ref (a Ref or Fn::GetAtt) names; whose says whose
// key it is, for the failure.
func keyPolicyOf(t *testing.T, ref any, whose string) any {
	t.Helper()
	keyID := refID(ref)
	for _, k := range resourcesOf(central, "AWS::KMS::Key") {
		if k.id != keyID {
			continue
		}
		doc, err := resolvePlaceholders(central, k.props["KeyPolicy"])
		if err != nil {
			t.Fatalf("%s: %v", k.id, err)
		}
		return doc
	}
	t.Fatalf("%s key %v is not a key of the template", whose, ref)
	return nil
}
