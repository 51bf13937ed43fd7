package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// busPolicyCopy is the committed copy of the central bus's resource policy
// and of the member forwarding roles' policies (the member template's, for
// regional events, and the global forwarding template's, deployed in the
// global region for global services' events): the service's end-to-end
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
	// ForwardGlobal are those of the global forwarding template's role
	// (NewMemberGlobal), which forwards global services' changes.
	ForwardGlobal []any `json:"forwardGlobal"`
}

// TestBusPolicyCopy holds the committed copy equal to the synthesized bus
// policy and forwarding roles (go test -run TestBusPolicyCopy -update
// rewrites it).
func TestBusPolicyCopy(t *testing.T) {
	want := busPolicies{
		Comment: "The central event bus's resource policy and the member forwarding roles' policies (forward: the member template's; forwardGlobal: the global forwarding template's) as infra synthesizes them, references resolved to placeholders (infra TestBusPolicyCopy keeps this equal; -update rewrites it). The e2e's EventBridge stand-in evaluates both on a member account's PutEvents to the central bus.",
		Placeholders: map[string]string{
			"{{Account}}":            "the central account id (in forward and forwardGlobal: the member account id)",
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
	want.Forward = forwardPolicies(t, member)
	if len(want.Forward) == 0 {
		t.Fatal("no policy of the member ForwardRole")
	}
	want.ForwardGlobal = forwardPolicies(t, memberGlobal(t))
	if len(want.ForwardGlobal) == 0 {
		t.Fatal("no policy of the global forwarding template's ForwardRole")
	}
	checkJSONCopy(t, want, busPolicyCopy, "bus policy")
}

// forwardPolicies are the policy documents of tpl's ForwardRole.
func forwardPolicies(t *testing.T, tpl map[string]any) []any {
	t.Helper()
	var docs []any
	for _, p := range resourcesOf(tpl, "AWS::IAM::Policy") {
		forward := false
		for _, r := range p.props["Roles"].([]any) {
			forward = forward || strings.HasPrefix(refID(r), "ForwardRole")
		}
		if !forward {
			continue
		}
		doc, err := resolvePlaceholders(tpl, p.props["PolicyDocument"])
		if err != nil {
			t.Fatalf("%s: %v", p.id, err)
		}
		docs = append(docs, doc)
	}
	return docs
}
