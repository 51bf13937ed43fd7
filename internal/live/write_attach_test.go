package live_test

import (
	"errors"
	"sort"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/smithy-go"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/baseline"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/revert"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	aReadOnly = "arn:aws:iam::aws:policy/ReadOnlyAccess"
	aDeclared = "arn:aws:iam::111111111111:policy/declared"
	aRogue    = "arn:aws:iam::111111111111:policy/rogue"
	aOwned    = "arn:aws:iam::111111111111:policy/owned"
	roleDecl  = `{"RoleName":"ar","ManagedPolicyArns":["` + aReadOnly + `","` + aDeclared + `"]}`
)

// attachWorld: a role with two declared managed policies, after an
// out-of-band change: the declared customer policy detached and a rogue
// one attached; a managed policy of the stack attaches itself to the role
// (its Roles), which the role's finding does not show.
func attachWorld() *sandbox.World {
	pol := func(arn, name, extra string) *sandbox.Resource {
		return liveOnly("AWS::IAM::ManagedPolicy", arn, `{"ManagedPolicyName":"`+name+`","PolicyArn":"`+arn+`","PolicyDocument":`+wDoc+extra+`}`)
	}
	return worldOf(
		liveOnly("AWS::IAM::Role", "ar", `{"RoleName":"ar","ManagedPolicyArns":["`+aReadOnly+`","`+aRogue+`"]}`),
		liveOnly("AWS::IAM::User", "au", `{"UserName":"au"}`),
		pol(aDeclared, "declared", `,"Users":["au"]`),
		pol(aRogue, "rogue", ""),
		pol(aOwned, "owned", `,"Roles":["ar"]`),
	)
}

func attachedTo(t *testing.T, w *live.Writers, role string) []string {
	t.Helper()
	out, err := w.IAM.ListAttachedRolePolicies(ctx(t), &iam.ListAttachedRolePoliciesInput{RoleName: &role})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range out.AttachedPolicies {
		got = append(got, *p.PolicyArn)
	}
	sort.Strings(got)
	return got
}

// TestAttachedPoliciesWriter: a role's ManagedPolicyArns drift reverts per
// member through the planner — the rogue policy (undeclared, appeared
// since record) detached, the declared one attached again, both members
// one write of the list; the attachment another resource owns untouched;
// the re-read classifies clean and a second write makes no attach or
// detach call. Detaching what is not attached is IAM's NoSuchEntity. A
// managed policy's Users, detached out of band, is attached again by its
// writer.
func TestAttachedPoliciesWriter(t *testing.T) {
	srv, url := serve(t, attachWorld())
	w := writers(t, url)
	c := ctx(t)
	req := live.Request{Type: "AWS::IAM::Role", LogicalID: "R", PhysicalID: "ar", Declared: declaredOf(t, roleDecl)}
	// ManagedPolicyArns is an attachment list (internal/classify/doc.go):
	// the detached declared ARN is a declared finding keyed by the member,
	// the rogue one an undeclared finding at its member.
	model := read(t, w.Read, req)
	// The stack's managed policy "owned" attaches itself to the role (its
	// Roles): Cloud Control reads it in the role's ManagedPolicyArns too,
	// and the classifier leaves it to its sibling (scan.SiblingFacts).
	sibling := map[string]any{"siblingRolePolicies": map[string]any{"ar": []any{aOwned}}}
	fs := classifyWithSiblings(t, req, model, sibling)
	var paths []string
	for i, f := range fs {
		paths = append(paths, f.KeyedPath())
		fs[i].LogicalID, fs[i].ResourceType, fs[i].PhysicalID = req.LogicalID, req.Type, req.PhysicalID
		if f.Tier == drift.Undeclared {
			fs[i].Note = baseline.NoteAppeared
		}
	}
	sort.Strings(paths)
	if diff := cmp.Diff([]string{"ManagedPolicyArns[" + aDeclared + "]", "ManagedPolicyArns[" + aRogue + "]"}, paths); diff != "" {
		t.Fatalf("findings before (-want +got):\n%s", diff)
	}
	stack := drift.StackRef{Account: acct, Region: region, Name: "S"}
	plan, err := revert.Build(revert.Input{Stack: stack, Findings: fs, Baseline: &baseline.Baseline{Stack: stack},
		Resources: []revert.Resource{{LogicalID: req.LogicalID, Type: req.Type, PhysicalID: req.PhysicalID, Declared: req.Declared, Live: model}}}, revert.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Items) != 2 || len(plan.NotRevertable) != 0 {
		t.Fatalf("plan: items %+v, not revertable %+v", plan.Items, plan.NotRevertable)
	}
	writes := func() int {
		n := 0
		for _, a := range []string{"AttachRolePolicy", "DetachRolePolicy", "AttachUserPolicy", "DetachUserPolicy"} {
			n += srv.Calls().Requests["iam:"+a]
		}
		return n
	}
	apply := func() {
		t.Helper()
		for _, wr := range revert.Apply(c, w, plan, revert.ApplyOptions{}) {
			if wr.Err != nil {
				t.Fatalf("write %s: %v", wr.ID, wr.Err)
			}
		}
	}
	apply()
	if got := srv.Calls().Requests; got["iam:AttachRolePolicy"] != 1 || got["iam:DetachRolePolicy"] != 1 {
		t.Errorf("attach %d, detach %d calls; want 1 each", got["iam:AttachRolePolicy"], got["iam:DetachRolePolicy"])
	}
	if fs := classifyWithSiblings(t, req, read(t, w.Read, req), sibling); len(fs) != 0 {
		t.Errorf("findings after the write: %+v", fs)
	}
	if diff := cmp.Diff([]string{aDeclared, aOwned, aReadOnly}, attachedTo(t, w, "ar")); diff != "" {
		t.Errorf("attached after the write (-want +got):\n%s", diff)
	}
	before := writes()
	apply()
	if n := writes() - before; n != 0 {
		t.Errorf("the second write made %d calls", n)
	}
	var ae smithy.APIError
	if _, err := w.IAM.DetachRolePolicy(c, &iam.DetachRolePolicyInput{RoleName: strp("ar"), PolicyArn: strp(aRogue)}); !errors.As(err, &ae) || ae.ErrorCode() != "NoSuchEntity" {
		t.Errorf("detaching a policy that is not attached: %v, want NoSuchEntity", err)
	}

	// The managed policy's side: its user detached out of band.
	if _, err := w.IAM.DetachUserPolicy(c, &iam.DetachUserPolicyInput{UserName: strp("au"), PolicyArn: strp(aDeclared)}); err != nil {
		t.Fatal(err)
	}
	mp := live.Target{Type: "AWS::IAM::ManagedPolicy", LogicalID: "MP", PhysicalID: aDeclared}
	if err := w.WriteSDK(c, mp, []byte(`[{"op":"replace","path":"/Users","value":["au"]}]`), nil); err != nil {
		t.Fatal(err)
	}
	if m := read(t, w.Read, live.Request{Type: mp.Type, PhysicalID: aDeclared}); !cmp.Equal(m["Users"], []any{"au"}) {
		t.Errorf("managed policy users after the write: %v", m["Users"])
	}
	before = writes()
	if err := w.WriteSDK(c, mp, []byte(`[{"op":"replace","path":"/Users","value":["au"]}]`), nil); err != nil {
		t.Fatal(err)
	}
	if n := writes() - before; n != 0 {
		t.Errorf("the second managed-policy write made %d calls", n)
	}
}

// TestAttachedPoliciesWriterDenied: a denied attach is the AWS error.
func TestAttachedPoliciesWriterDenied(t *testing.T) {
	srv, url := serve(t, attachWorld())
	w := writers(t, url)
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "iam", Action: "AttachRolePolicy", Code: "AccessDenied", Status: 403}}); err != nil {
		t.Fatal(err)
	}
	role := live.Target{Type: "AWS::IAM::Role", LogicalID: "R", PhysicalID: "ar"}
	err := w.WriteSDK(ctx(t), role, []byte(`[{"op":"replace","path":"/ManagedPolicyArns","value":["`+aReadOnly+`","`+aDeclared+`"]}]`), []any{aReadOnly, aRogue})
	var ae smithy.APIError
	if !errors.As(err, &ae) || ae.ErrorCode() != "AccessDenied" {
		t.Errorf("denied attach: %v", err)
	}
}

func strp(s string) *string { return &s }
