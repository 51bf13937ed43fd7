package main

import (
	"path/filepath"
	"slices"
	"sort"
	"testing"
)

// serviceRolesCopy is the committed copy of the policies of the roles AWS
// services act with for the central stack: each state machine's
// execution role (realdrift-<name>-states: the Lambda functions it
// invokes, its Distributed Maps' S3 objects and child executions, its log
// delivery) and the Scheduler's (realdrift-scheduler: starting the sweep).
// The service's end-to-end seeds the sandbox with them and runs each state
// machine with its role's session key, so the local runner's Lambda
// invocations and S3 calls are refused as AWS would refuse them.
var serviceRolesCopy = filepath.Join("..", "testdata", "iam", "service-roles.json")

// TestServiceRolePolicyCopy holds the committed copy equal to the
// synthesized state machine and Scheduler roles (go test -run
// TestServiceRolePolicyCopy -update rewrites it).
func TestServiceRolePolicyCopy(t *testing.T) {
	want := centralRoles{
		Comment:      "The central stack's state machine and Scheduler role policies as infra synthesizes them, references resolved to placeholders (infra TestServiceRolePolicyCopy keeps this equal; -update rewrites it). The e2e seeds the sandbox with them and runs each state machine with its role's credentials.",
		Placeholders: centralPlaceholders,
	}
	policiesOf := func(what, roleID string) []any {
		var docs []any
		for _, r := range resourcesOf(central, "AWS::IAM::Role") {
			if r.id == roleID && (r.props["ManagedPolicyArns"] != nil || r.props["Policies"] != nil) {
				t.Errorf("%s role %s has managed or inline policies the copy does not carry", what, roleID)
			}
		}
		for _, p := range resourcesOf(central, "AWS::IAM::Policy") {
			if !slices.ContainsFunc(p.props["Roles"].([]any), func(r any) bool { return refID(r) == roleID }) {
				continue
			}
			doc, err := resolvePlaceholders(central, p.props["PolicyDocument"])
			if err != nil {
				t.Fatalf("%s: %v", p.id, err)
			}
			docs = append(docs, doc)
		}
		if len(docs) == 0 {
			t.Errorf("%s role %s has no policy", what, roleID)
		}
		return docs
	}
	for _, sm := range resourcesOf(central, "AWS::StepFunctions::StateMachine") {
		name, _ := sm.props["StateMachineName"].(string)
		want.Roles = append(want.Roles, centralRole{Role: name + "-states", Documents: policiesOf(name, refID(sm.props["RoleArn"]))})
	}
	for _, s := range resourcesOf(central, "AWS::Scheduler::Schedule") {
		target, _ := s.props["Target"].(map[string]any)
		want.Roles = append(want.Roles, centralRole{Role: "realdrift-scheduler", Documents: policiesOf("the schedule's", refID(target["RoleArn"]))})
	}
	if len(want.Roles) != 5 {
		t.Errorf("%d service roles, want the four state machines' and the Scheduler's", len(want.Roles))
	}
	sort.Slice(want.Roles, func(i, j int) bool { return want.Roles[i].Role < want.Roles[j].Role })
	checkJSONCopy(t, want, serviceRolesCopy, "state machine and Scheduler roles")
}
