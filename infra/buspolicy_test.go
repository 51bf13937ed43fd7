package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// busPolicyCopy is the committed copy of the central bus's resource policy
// and of the member forwarding role's policies: the service's end-to-end
// seeds the sandbox with them and its EventBridge stand-in evaluates both
// on a member account's PutEvents to the central bus, as EventBridge does
// across accounts (both must allow).
var busPolicyCopy = filepath.Join("..", "testdata", "iam", "central-bus-policy.json")

// busPolicies is the storage shape of busPolicyCopy.
type busPolicies struct {
	Comment      string            `json:"comment"`
	Placeholders map[string]string `json:"placeholders"`
	// Policy is the bus's resource policy: its EventBusPolicy statements.
	Policy map[string]any `json:"policy"`
	// Forward are the policy documents of the member role EventBridge
	// forwards changes to the central bus with.
	Forward []any `json:"forward"`
}

// TestBusPolicyCopy holds the committed copy equal to the synthesized bus
// policy and forwarding role (go test -run TestBusPolicyCopy -update
// rewrites it).
func TestBusPolicyCopy(t *testing.T) {
	want := busPolicies{
		Comment: "The central event bus's resource policy and the member forwarding role's policies as infra synthesizes them, references resolved to placeholders (infra TestBusPolicyCopy keeps this equal; -update rewrites it). The e2e's EventBridge stand-in evaluates both on a member account's PutEvents to the central bus.",
		Placeholders: map[string]string{
			"{{Account}}":            "the central account id (in forward: the member account id)",
			"{{Region}}":             "the central region",
			"{{EventBus}}":           "the event bus's name",
			"{{OrganizationId}}":     "the OrganizationId parameter",
			"{{CentralEventBusArn}}": "the member template's CentralEventBusArn parameter: the central bus's ARN",
		},
	}
	var stmts []any
	for _, p := range resourcesOf(central, "AWS::Events::EventBusPolicy") {
		st, err := resolvePlaceholders(central, p.props["Statement"])
		if err != nil {
			t.Fatalf("%s: %v", p.id, err)
		}
		stmts = append(stmts, st)
	}
	if len(stmts) == 0 {
		t.Fatal("no EventBusPolicy on the central bus")
	}
	want.Policy = map[string]any{"Version": "2012-10-17", "Statement": stmts}
	for _, p := range resourcesOf(member, "AWS::IAM::Policy") {
		forward := false
		for _, r := range p.props["Roles"].([]any) {
			forward = forward || strings.HasPrefix(refID(r), "ForwardRole")
		}
		if !forward {
			continue
		}
		doc, err := resolvePlaceholders(member, p.props["PolicyDocument"])
		if err != nil {
			t.Fatalf("%s: %v", p.id, err)
		}
		want.Forward = append(want.Forward, doc)
	}
	if len(want.Forward) == 0 {
		t.Fatal("no policy of the member ForwardRole")
	}
	checkJSONCopy(t, want, busPolicyCopy, "bus policy")
}
