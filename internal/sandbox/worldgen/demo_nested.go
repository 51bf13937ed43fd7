package worldgen

import (
	"encoding/json"
	"fmt"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// The demo's nested stack tree and the next version of the app the demo's
// diff step deploys. DemoNested adds to a demo world, in one account and
// region, the stack OrdersAlerts (an alerts topic) with a nested stack of
// the orders backlog queue and its dead-letter queue, linked as CDK links
// them (the parent's AWS::CloudFormation::Stack resource, physical id the
// nested stack's ARN; the topic's ARN passed down as a parameter, another
// parameter left at the nested template's default, the queue's URL passed
// up as an output). Its live models are the declared
// values plus the identity AWS assigns: a check of the untouched tree
// finds no drift.
//
// DemoNext is the app's next version, as a cloud assembly's templates:
//   - the nested stack renames the dead-letter queue (QueueName is
//     create-only: a replacement), so the backlog queue's RedrivePolicy,
//     which reads the dead-letter queue's Arn, changes with it (a
//     propagated replacement), and raises the backlog queue's
//     VisibilityTimeout from 60 to 120 (an in-place update of a property
//     the demo drifts out of band first);
//   - the parent's nested stack resource points at the new nested template
//     (its TemplateURL, named by the template's hash as CDK names assets);
//   - OrdersData gains an exported output and nothing else (an
//     Outputs-only change).

// DemoNestedRoot is the demo's stack with a nested stack.
const DemoNestedRoot = "OrdersAlerts"

// Names the next version of the app uses.
const (
	// DemoNestedChild is the logical id of the nested stack's resource.
	DemoNestedChild = "BacklogStack"
	// DemoDeadLetterQueue is the logical id of the queue the next version
	// replaces; DemoBacklogQueue the one whose RedrivePolicy reads it.
	DemoDeadLetterQueue = "BacklogDeadLetters"
	DemoBacklogQueue    = "BacklogQueue"
	// DemoNextOutput is the output the next version adds to OrdersData.
	DemoNextOutput = "AssetsBucketArn"
)

func demoNestedTree(next bool) *nestedSpec {
	dlqName, timeout := "orders-backlog-dlq", 60.0
	if next {
		dlqName, timeout = "orders-backlog-dead-letters", 120.0
	}
	backlog := &nestedSpec{
		// The parent passes no Team: the nested stack takes its default,
		// which its stack resource's live Parameters echo.
		params: obj{"AlertsTopicArn": obj{"Type": "String"}, "Team": obj{"Type": "String", "Default": "orders"}},
		resources: []nestedRes{
			{DemoDeadLetterQueue, "AWS::SQS::Queue", obj{"QueueName": dlqName, "MessageRetentionPeriod": 1209600.0}},
			{DemoBacklogQueue, "AWS::SQS::Queue", obj{
				"VisibilityTimeout": timeout,
				"RedrivePolicy":     obj{"deadLetterTargetArn": getAtt(DemoDeadLetterQueue, "Arn"), "maxReceiveCount": 5.0},
				"Tags":              list(obj{"Key": "alerts", "Value": ref("AlertsTopicArn")}, obj{"Key": "team", "Value": ref("Team")}),
			}},
		},
		outputs: obj{"BacklogQueueUrl": obj{"Value": ref(DemoBacklogQueue)}},
		passed:  obj{"AlertsTopicArn": ref("AlertsTopic")},
	}
	return &nestedSpec{
		resources: []nestedRes{{"AlertsTopic", "AWS::SNS::Topic", obj{"DisplayName": "Orders alerts"}}},
		outputs:   obj{"BacklogQueueUrl": obj{"Value": getAtt(DemoNestedChild, "Outputs.BacklogQueueUrl")}},
		children:  map[string]*nestedSpec{DemoNestedChild: backlog},
	}
}

// DemoNested adds the demo's nested stack tree to account's region of w
// (parents first, as CloudFormation lists them after their creation).
func DemoNested(w *sandbox.World, account, region string) error {
	var built []*sandbox.Stack
	if _, err := deployNested(nestedSite{account, region}, DemoNestedRoot, demoNestedTree(false), nil, &built); err != nil {
		return err
	}
	for _, a := range w.Accounts {
		if a.ID != account {
			continue
		}
		for _, r := range a.Regions {
			if r.Name == region {
				for i := len(built) - 1; i >= 0; i-- {
					r.Stacks = append(r.Stacks, built[i])
				}
				return nil
			}
		}
	}
	return fmt.Errorf("demo world: no region %s in account %s", region, account)
}

// DemoNext returns the next version of the demo app in account's region
// of w: the templates of its stacks by stack name (OrdersData and
// OrdersAlerts) and the nested templates by the file name the parent's
// aws:asset:path metadata gives (beside the stack templates).
func DemoNext(w *sandbox.World, account, region string) (stacks, nested map[string]string, err error) {
	var built []*sandbox.Stack
	root, err := deployNested(nestedSite{account, region}, DemoNestedRoot, demoNestedTree(true), nil, &built)
	if err != nil {
		return nil, nil, err
	}
	stacks = map[string]string{DemoNestedRoot: root.TemplateBody}
	nested = map[string]string{}
	for _, s := range built {
		if s != root {
			nested[s.Name+".nested.template.json"] = s.TemplateBody
		}
	}
	var data *sandbox.Stack
	for _, a := range w.Accounts {
		for _, r := range a.Regions {
			for _, s := range r.Stacks {
				if a.ID == account && r.Name == region && s.Name == "OrdersData" {
					data = s
				}
			}
		}
	}
	if data == nil {
		return nil, nil, fmt.Errorf("demo world: no OrdersData stack in %s/%s", account, region)
	}
	var tpl map[string]any
	if err := json.Unmarshal([]byte(data.TemplateBody), &tpl); err != nil {
		return nil, nil, fmt.Errorf("demo world: OrdersData template: %w", err)
	}
	bucket := ""
	res, _ := tpl["Resources"].(map[string]any)
	for id, r := range res {
		if m, _ := r.(map[string]any); m["Type"] == "AWS::S3::Bucket" {
			bucket = id
		}
	}
	outs, _ := tpl["Outputs"].(map[string]any)
	if bucket == "" || outs == nil {
		return nil, nil, fmt.Errorf("demo world: OrdersData has no bucket or no outputs")
	}
	outs[DemoNextOutput] = obj{"Value": getAtt(bucket, "Arn"), "Export": obj{"Name": "OrdersData:" + DemoNextOutput}}
	body, err := indentJSON(tpl)
	if err != nil {
		return nil, nil, err
	}
	stacks["OrdersData"] = string(body)
	return stacks, nested, nil
}
