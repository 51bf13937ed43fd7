package worldgen

import (
	"encoding/json"
	"fmt"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// PlantedChange is an out-of-band change the demo plants, with what a
// drift check should make of it.
type PlantedChange struct {
	sandbox.Change
	// Story says what happened, as an operator would tell it.
	Story string `json:"story"`
}

// DemoDrift returns out-of-band changes for the demo world of the given
// account and region, as console edits and scripts make them: a declared
// property changed, an undeclared security setting changed, an inline
// policy added to a role, a child (subscription, function permission)
// created, a bucket policy removed and a resource deleted. It reads the
// world only to find the resources' identifiers.
func DemoDrift(w *sandbox.World, account, region string) ([]PlantedChange, error) {
	find := func(stack, typ, logicalPrefix string) (*sandbox.Resource, error) {
		for _, a := range w.Accounts {
			if a.ID != account {
				continue
			}
			for _, r := range a.Regions {
				if r.Name != region {
					continue
				}
				for _, s := range r.Stacks {
					if s.Name != stack {
						continue
					}
					for _, res := range s.Resources {
						if res.Type == typ && len(res.LogicalID) >= len(logicalPrefix) && res.LogicalID[:len(logicalPrefix)] == logicalPrefix {
							return res, nil
						}
					}
				}
			}
		}
		return nil, fmt.Errorf("demo drift: no %s %s* in %s %s/%s", typ, logicalPrefix, stack, account, region)
	}
	id := func(r *sandbox.Resource) string {
		if r.Identifier != "" {
			return r.Identifier
		}
		return r.PhysicalID
	}
	queue, err := find("OrdersService", "AWS::SQS::Queue", "OrdersQueue")
	if err != nil {
		return nil, err
	}
	table, err := find("OrdersData", "AWS::DynamoDB::Table", "OrdersTable")
	if err != nil {
		return nil, err
	}
	role, err := find("OrdersService", "AWS::IAM::Role", "HandlerServiceRole")
	if err != nil {
		return nil, err
	}
	topic, err := find("OrdersService", "AWS::SNS::Topic", "OrdersTopic")
	if err != nil {
		return nil, err
	}
	handler, err := find("OrdersService", "AWS::Lambda::Function", "Handler")
	if err != nil {
		return nil, err
	}
	worker, err := find("OrdersService", "AWS::Lambda::Function", "Worker")
	if err != nil {
		return nil, err
	}
	bucket, err := find("OrdersData", "AWS::S3::Bucket", "AssetsBucket")
	if err != nil {
		return nil, err
	}
	dlq, err := find("OrdersService", "AWS::SQS::Queue", "OrdersDlq")
	if err != nil {
		return nil, err
	}
	var rolePolicies []any
	if err := json.Unmarshal(propOf(role, "Policies"), &rolePolicies); err != nil {
		rolePolicies = nil
	}
	rolePolicies = append(rolePolicies, map[string]any{
		"PolicyName": "hotfix-debug-access",
		"PolicyDocument": map[string]any{"Version": "2012-10-17", "Statement": []any{map[string]any{
			"Effect": "Allow", "Action": "*", "Resource": "*",
		}}},
	})
	raw := func(v any) json.RawMessage {
		b, _ := json.Marshal(v)
		return b
	}
	topicArn := id(topic)
	return []PlantedChange{
		{Story: "an incident hot-fix raised the queue's visibility timeout in the console (declared value changed)",
			Change: sandbox.Change{Op: sandbox.OpSet, Account: account, Region: region, Type: queue.Type, Identifier: id(queue), Path: "VisibilityTimeout", Value: raw(900)}},
		{Story: "someone turned point-in-time recovery off on the orders table (declared value changed)",
			Change: sandbox.Change{Op: sandbox.OpSet, Account: account, Region: region, Type: table.Type, Identifier: id(table), Path: "PointInTimeRecoverySpecification.PointInTimeRecoveryEnabled", Value: raw(false)}},
		{Story: "a debugging session left a wildcard inline policy on the handler's role (undeclared)",
			Change: sandbox.Change{Op: sandbox.OpSet, Account: account, Region: region, Type: role.Type, Identifier: id(role), Path: "Policies", Value: raw(rolePolicies)}},
		{Story: "the worker's memory was raised by hand (declared value changed)",
			Change: sandbox.Change{Op: sandbox.OpSet, Account: account, Region: region, Type: worker.Type, Identifier: id(worker), Path: "MemorySize", Value: raw(1024)}},
		{Story: "an email subscription was added to the topic from the console (added child)",
			Change: sandbox.Change{Op: sandbox.OpAdd, Account: account, Region: region, Type: "AWS::SNS::Subscription", Identifier: topicArn + ":5e1f0c2a-9b7d-4e3a-8c6f-1a2b3c4d5e6f",
				Properties: raw(map[string]any{"TopicArn": topicArn, "Protocol": "email", "Endpoint": "oncall@acme.example", "Arn": topicArn + ":5e1f0c2a-9b7d-4e3a-8c6f-1a2b3c4d5e6f"})}},
		{Story: "a function permission lets another account invoke the handler (added child)",
			Change: sandbox.Change{Op: sandbox.OpAdd, Account: account, Region: region, Type: "AWS::Lambda::Permission", Identifier: "cross-account-invoke",
				Properties: raw(map[string]any{"FunctionName": id(handler), "Action": "lambda:InvokeFunction", "Principal": "999999999999"})}},
		{Story: "versioning was suspended on the assets bucket (declared value changed)",
			Change: sandbox.Change{Op: sandbox.OpSet, Account: account, Region: region, Type: bucket.Type, Identifier: id(bucket), Path: "VersioningConfiguration.Status", Value: raw("Suspended")}},
		{Story: "the dead-letter queue was deleted by a cleanup script (deleted)",
			Change: sandbox.Change{Op: sandbox.OpDelete, Account: account, Region: region, Type: dlq.Type, Identifier: id(dlq)}},
	}, nil
}

func propOf(r *sandbox.Resource, name string) json.RawMessage {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(r.Properties, &m); err != nil {
		return nil
	}
	return m[name]
}
