package service_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/corpus/corpustest"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
)

// The end-to-end organisation is the sandbox's demo organisation (three
// accounts, an OrdersData and an OrdersService stack in each of two regions,
// live models from corpus recordings) plus one stack whose reads are denied.
const (
	// targetsBucket is the sweep's stack-list bucket (central account).
	targetsBucket = "realdrift-e2e-targets"
	readRole      = "realdrift-read"
	lockedName    = "LedgerLocked"
)

func demoAccount(i int) string { return worldgen.DemoAccounts()[i].ID }

func demoRegions() []string { return worldgen.DemoAccounts()[0].Regions }

// ignoreYAML is the ignore rule set both the CLI (file) and the service
// (store) apply: the topic display name of account 2's service stacks.
func ignoreYAML() string {
	return "ignore:\n  - path: '*.DisplayName'\n    stack: OrdersService\n    account: '" + demoAccount(1) + "'\n"
}

// plantedChange is an out-of-band change and the stack it drifts.
type plantedChange struct {
	stack  drift.StackRef
	change sandbox.Change
}

// e2eWorld builds the demo world with the denied stack added, and the
// out-of-band changes to plant once the sandbox serves it: in us-east-1,
// every account's orders queue gets a new VisibilityTimeout (declared
// drift), account 2's topic a new DisplayName (ignored by a rule), account
// 3's topic an extra subscription (an added child).
//
// queues maps each OrdersService stack (key) to its orders queue's URL (a
// queue whose VisibilityTimeout the template declares).
func e2eWorld(t *testing.T) (w *sandbox.World, stacks []drift.StackRef, planted []plantedChange, queues map[string]string) {
	t.Helper()
	// The demo's live models come from the committed corpus recordings.
	cases, err := corpus.LoadDirs(corpustest.Subset(t))
	if err != nil {
		t.Fatal(err)
	}
	if w, err = worldgen.Demo(cases); err != nil {
		t.Fatal(err)
	}
	queues = map[string]string{}
	for i, a := range w.Accounts {
		for _, r := range a.Regions {
			for _, s := range r.Stacks {
				ref := drift.StackRef{Account: a.ID, Region: r.Name, Name: s.Name}
				stacks = append(stacks, ref)
				for _, res := range s.Resources {
					if res.Type == "AWS::SQS::Queue" && strings.HasPrefix(res.LogicalID, "OrdersQueue") {
						queues[key(ref)] = res.PhysicalID
					}
				}
				if r.Name != "us-east-1" || s.Name != "OrdersService" {
					continue
				}
				for _, res := range s.Resources {
					ch := sandbox.Change{Account: a.ID, Region: r.Name, Type: res.Type, Identifier: res.PhysicalID}
					switch {
					case res.Type == "AWS::SQS::Queue" && strings.HasPrefix(res.LogicalID, "OrdersQueue"):
						ch.Op, ch.Path, ch.Value = sandbox.OpSet, "VisibilityTimeout", json.RawMessage(`300`)
					case res.Type == "AWS::SNS::Topic" && i == 1:
						ch.Op, ch.Path, ch.Value = sandbox.OpSet, "DisplayName", json.RawMessage(`"Orders (paging)"`)
					case res.Type == "AWS::SNS::Topic" && i == 2:
						ch = sandbox.Change{Op: sandbox.OpAdd, Account: a.ID, Region: r.Name, Type: "AWS::SNS::Subscription",
							Identifier: res.PhysicalID + ":0f1e2d3c-0000-4000-8000-00000000e2e1",
							Properties: json.RawMessage(`{"TopicArn":"` + res.PhysicalID + `","Protocol":"email","Endpoint":"oncall@example.com"}`)}
					default:
						continue
					}
					planted = append(planted, plantedChange{stack: ref, change: ch})
				}
			}
		}
	}
	locked := drift.StackRef{Account: demoAccount(1), Region: "us-east-1", Name: lockedName}
	addLockedStack(w, locked)
	stacks = append(stacks, locked)
	return w, stacks, planted, queues
}

// addLockedStack adds a one-queue stack; the test's sandbox front denies
// every CloudFormation call that names it.
func addLockedStack(w *sandbox.World, ref drift.StackRef) {
	url := "https://sqs." + ref.Region + ".amazonaws.com/" + ref.Account + "/" + ref.Name + "-Queue"
	tmpl := `{"Resources":{"Queue":{"Type":"AWS::SQS::Queue","Properties":{"VisibilityTimeout":30}}}}`
	st := &sandbox.Stack{Name: ref.Name, Description: "realdrift e2e: reads denied", TemplateBody: tmpl, Resources: []*sandbox.Resource{{
		LogicalID: "Queue", Type: "AWS::SQS::Queue", PhysicalID: url,
		Properties: json.RawMessage(`{"QueueName":"` + ref.Name + `-Queue","VisibilityTimeout":30,"QueueUrl":"` + url + `","Arn":"arn:aws:sqs:` + ref.Region + `:` + ref.Account + `:` + ref.Name + `-Queue"}`),
	}}}
	for _, a := range w.Accounts {
		for _, r := range a.Regions {
			if a.ID == ref.Account && r.Name == ref.Region {
				r.Stacks = append(r.Stacks, st)
			}
		}
	}
}
