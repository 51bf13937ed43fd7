package service_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// The end-to-end organisation: a management (central) account and two
// members, each with stacks in two regions.
const (
	orgMgmt    = "111111111111"
	readRole   = "realdrift-read"
	lockedName = "locked-ledger"
)

var (
	e2eAccounts = []string{orgMgmt, "222222222222", "333333333333"}
	e2eRegions  = []string{"us-east-1", "eu-west-1"}
)

// accessKey is the sandbox access key of an account's user (the CLI's
// credentials; the service's central credentials are the management one).
func accessKey(account string) string { return "AKIAE2E" + account }

// e2eStack is one planned stack and the drift planted in it.
type e2eStack struct {
	ref drift.StackRef
	// topic adds an SNS topic (a parent with enumerated children).
	topic bool
	// liveTimeout is the queue's live VisibilityTimeout (declared 30).
	liveTimeout int
	// liveDisplay is the topic's live DisplayName (declared "orders").
	liveDisplay string
	// subscription adds an out-of-band subscription to the topic.
	subscription bool
}

func (s e2eStack) queueName() string { return s.ref.Name + "-queue" }
func (s e2eStack) queueURL() string {
	return "https://sqs." + s.ref.Region + ".amazonaws.com/" + s.ref.Account + "/" + s.queueName()
}
func (s e2eStack) topicARN() string {
	return "arn:aws:sns:" + s.ref.Region + ":" + s.ref.Account + ":" + s.ref.Name + "-topic"
}

// drifted reports whether the stack has confirmed drift (an alert).
func (s e2eStack) drifted() bool { return s.liveTimeout != 30 }

// e2ePlan is every stack of the organisation: per account and region an
// "orders" stack (queue + topic) and a "billing" stack (queue), the orders
// stacks of us-east-1 with their queue's VisibilityTimeout changed out of
// band, account 2's with the topic's DisplayName changed too (ignored by a
// rule), account 3's with an added subscription; plus one stack whose reads
// are denied.
func e2ePlan() []e2eStack {
	var out []e2eStack
	for i, a := range e2eAccounts {
		for _, r := range e2eRegions {
			short := strings.ReplaceAll(r, "-", "")
			orders := e2eStack{ref: drift.StackRef{Account: a, Region: r, Name: fmt.Sprintf("a%d-%s-orders", i+1, short)}, topic: true, liveTimeout: 30, liveDisplay: "orders"}
			if r == "us-east-1" {
				orders.liveTimeout = 45 + i
				if i == 1 {
					orders.liveDisplay = "paging"
				}
				if i == 2 {
					orders.subscription = true
				}
			}
			billing := e2eStack{ref: drift.StackRef{Account: a, Region: r, Name: fmt.Sprintf("a%d-%s-billing", i+1, short)}, liveTimeout: 30}
			out = append(out, orders, billing)
		}
	}
	out = append(out, e2eStack{ref: drift.StackRef{Account: e2eAccounts[1], Region: "us-east-1", Name: lockedName}, liveTimeout: 30})
	return out
}

// ignoreYAML is the ignore rule set both the CLI (file) and the service
// (store) apply.
const ignoreYAML = "ignore:\n  - path: Topic.DisplayName\n    stack: 'a2-*'\n"

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // test data only
	}
	return b
}

// e2eWorld builds the sandbox world of the plan.
func e2eWorld(plan []e2eStack) *sandbox.World {
	w := &sandbox.World{
		DefaultAccount: orgMgmt,
		Organization:   &sandbox.Organization{ID: "o-e2etest0001", ManagementAccountID: orgMgmt, FeatureSet: "ALL"},
	}
	accts := map[string]*sandbox.Account{}
	for i, a := range e2eAccounts {
		acct := &sandbox.Account{ID: a, Name: fmt.Sprintf("account-%d", i+1), Email: fmt.Sprintf("aws+%d@example.com", i+1),
			AccessKeys: []sandbox.AccessKey{{ID: accessKey(a), UserName: "ops"}}}
		for _, r := range e2eRegions {
			acct.Regions = append(acct.Regions, &sandbox.Region{Name: r})
		}
		accts[a] = acct
		w.Accounts = append(w.Accounts, acct)
	}
	for _, s := range plan {
		var region *sandbox.Region
		for _, r := range accts[s.ref.Account].Regions {
			if r.Name == s.ref.Region {
				region = r
			}
		}
		tmpl := map[string]any{"Resources": map[string]any{
			"Queue": map[string]any{"Type": "AWS::SQS::Queue", "Properties": map[string]any{"QueueName": s.queueName(), "VisibilityTimeout": 30}},
		}}
		queue := &sandbox.Resource{LogicalID: "Queue", Type: "AWS::SQS::Queue", PhysicalID: s.queueURL(), Properties: mustJSON(map[string]any{
			"QueueName": s.queueName(), "VisibilityTimeout": s.liveTimeout, "MessageRetentionPeriod": 345600,
			"Arn":      "arn:aws:sqs:" + s.ref.Region + ":" + s.ref.Account + ":" + s.queueName(),
			"QueueUrl": s.queueURL(),
		})}
		st := &sandbox.Stack{Name: s.ref.Name, Description: "realdrift e2e", Resources: []*sandbox.Resource{queue}}
		if s.topic {
			tmpl["Resources"].(map[string]any)["Topic"] = map[string]any{"Type": "AWS::SNS::Topic", "Properties": map[string]any{"TopicName": s.ref.Name + "-topic", "DisplayName": "orders"}}
			st.Resources = append(st.Resources, &sandbox.Resource{LogicalID: "Topic", Type: "AWS::SNS::Topic", PhysicalID: s.topicARN(), Properties: mustJSON(map[string]any{
				"TopicName": s.ref.Name + "-topic", "DisplayName": s.liveDisplay, "TopicArn": s.topicARN(),
			})})
			if s.subscription {
				region.Resources = append(region.Resources, &sandbox.Resource{Type: "AWS::SNS::Subscription", PhysicalID: s.topicARN() + ":0f1e2d3c-0000-4000-8000-000000000001",
					Properties: mustJSON(map[string]any{"TopicArn": s.topicARN(), "Protocol": "email", "Endpoint": "oncall@example.com"})})
			}
		}
		st.TemplateBody = string(mustJSON(tmpl))
		region.Stacks = append(region.Stacks, st)
	}
	return w
}
