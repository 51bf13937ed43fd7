package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/who"
)

// iamStatement is one statement of an IAM policy document.
type iamStatement struct {
	Sid      string   `json:"Sid"`
	Effect   string   `json:"Effect"`
	Action   []string `json:"Action"`
	Resource string   `json:"Resource"`
}

// iamPolicyDocument is the policy iam-policy prints: what check, record,
// ignore and diff call (scan.ReadActions), with withWho what --who looks
// up (who.Actions), and with withRevert what revert writes with
// (live.WriteActions).
func iamPolicyDocument(withWho, withRevert bool) ([]byte, error) {
	doc := struct {
		Version   string         `json:"Version"`
		Statement []iamStatement `json:"Statement"`
	}{Version: "2012-10-17", Statement: []iamStatement{
		{Sid: "RealdriftRead", Effect: "Allow", Action: scan.ReadActions(), Resource: "*"},
	}}
	if withWho {
		doc.Statement = append(doc.Statement, iamStatement{Sid: "RealdriftWho", Effect: "Allow", Action: who.Actions(), Resource: "*"})
	}
	if withRevert {
		doc.Statement = append(doc.Statement, iamStatement{Sid: "RealdriftRevert", Effect: "Allow", Action: live.WriteActions(), Resource: "*"})
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("iam policy: %w", err)
	}
	return append(b, '\n'), nil
}

func runIAMPolicy(_ context.Context, s IO, args []string) int {
	fs := newFlags(s, "iam-policy", "[--who] [--revert]\n\n"+
		"Prints the IAM policy document realdrift needs with your own credentials: every action check, record,\n"+
		"ignore and diff call (the stack calls, Cloud Control's GetResource and ListResources, and each SDK\n"+
		"reader's and child enumerator's calls), made from the code's own list of calls. --who adds what\n"+
		"check --who and revert --who look up (CloudTrail's LookupEvents); --revert adds the writes revert makes. Cloud Control runs a resource type's read handler with the caller's credentials,\n"+
		"so reading a type through it also needs that handler's permissions (the README's Permissions section).")
	withWho := fs.Bool("who", false, "add what --who looks up (cloudtrail:LookupEvents, CloudTrail's event history)")
	withRevert := fs.Bool("revert", false, "add the actions revert writes with (Cloud Control's UpdateResource and DeleteResource, the SDK writers)")
	if done, code := parse(s, fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return fail(s, "iam-policy", errors.New("takes no arguments"))
	}
	b, err := iamPolicyDocument(*withWho, *withRevert)
	if err != nil {
		return fail(s, "iam-policy", err)
	}
	if _, err := s.Stdout.Write(b); err != nil {
		return fail(s, "iam-policy", err)
	}
	return ExitOK
}
