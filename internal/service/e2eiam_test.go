package service_test

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
	"github.com/realdrift/realdrift/internal/service"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/statemachine"
)

// iamDir holds the committed copies of the member read role's policies:
// member-read-role.json as infra synthesizes it (infra's
// TestReadRolePolicyCopy keeps it equal), managed/ the excerpts of the AWS
// managed policies it attaches.
var iamDir = filepath.Join("..", "..", "testdata", "iam")

// readRoleDocuments returns the read role's policy documents
// (sandboxtest.ReadRole.Documents), statements whose Sid is in drop left
// out.
func readRoleDocuments(t *testing.T, drop ...string) []json.RawMessage {
	t.Helper()
	r := sandboxtest.LoadReadRole(t, iamDir)
	if r.Role != readRole {
		t.Fatalf("read role copy is of %s, the e2e assumes %s", r.Role, readRole)
	}
	return r.Documents(t, iamDir, drop...)
}

// TestReadRoleGrantsTheReaders holds the read role to the readers: every
// action live.ReadActions lists (each call a reader, supplement or
// enumerator makes) is granted by an unconditional Allow of the role's
// inline policies (infra readerActions; change it and rerun infra's
// TestReadRolePolicyCopy -update), and none is refused by its
// unconditional Deny.
func TestReadRoleGrantsTheReaders(t *testing.T) {
	r := sandboxtest.LoadReadRole(t, iamDir)
	allowed, denied := r.Actions("Allow"), r.Actions("Deny")
	for _, a := range live.ReadActions() {
		if !slices.Contains(allowed, a) {
			t.Errorf("the read role does not grant %s, which a reader calls", a)
		}
		if slices.Contains(denied, a) {
			t.Errorf("the read role denies %s, which a reader calls", a)
		}
	}
}

// TestReadRoleLooksUpWriters: the read role grants cloudtrail:LookupEvents
// (who changed a drifted resource no trigger event named, writers.go;
// infra's LookUpWriters) and no other CloudTrail action.
func TestReadRoleLooksUpWriters(t *testing.T) {
	r := sandboxtest.LoadReadRole(t, iamDir)
	var got []string
	for _, a := range r.Actions("Allow") {
		if strings.HasPrefix(a, "cloudtrail:") {
			got = append(got, a)
		}
	}
	if !slices.Equal(got, []string{"cloudtrail:LookupEvents"}) {
		t.Errorf("the read role's CloudTrail actions %v, want only cloudtrail:LookupEvents", got)
	}
}

// lockedDeny is the stack-scoped deny a member account attached to the read
// role: every CloudFormation call naming the locked stack is refused
// (listing the account's stacks still works).
func lockedDeny() json.RawMessage {
	return json.RawMessage(`{"Version":"2012-10-17","Statement":[{"Sid":"E2ELockedStack","Effect":"Deny","Action":"cloudformation:*","Resource":"arn:aws:cloudformation:*:*:stack/` + lockedName + `/*"}]}`)
}

// seedReadRole gives every account's read role the documents; the locked
// stack's account also the stack-scoped deny.
func seedReadRole(w *sandbox.World, docs []json.RawMessage) {
	for _, a := range w.Accounts {
		d := slices.Clone(docs)
		if a.ID == demoAccount(1) {
			d = append(d, lockedDeny())
		}
		a.Policies = append(a.Policies, &sandbox.Policies{Role: readRole, Documents: d})
	}
}

// TestSweepEndToEndIAMDenied is the negative of the acceptance run: with
// the read role's Cloud Control statement (ReadResources) dropped, the
// sandbox refuses cloudformation:GetResource as AWS would, and every
// resource the sweep reads through Cloud Control is reported skipped with
// AccessDenied, never silently clean.
func TestSweepEndToEndIAMDenied(t *testing.T) {
	e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t, "ReadResources")})
	sum := e.sweep(t, "sweep-denied")
	t.Logf("sweep-denied: %+v", sum)
	if sum.Counts["skipped"] == 0 {
		t.Errorf("summary counts %v: want skipped findings", sum.Counts)
	}
	ref := e.stacks[0]
	got, _ := e.storedFindings(t, ref)
	skipped := 0
	list, _ := got.([]any)
	for _, f := range list {
		m, _ := f.(map[string]any)
		if m["tier"] != "skipped" {
			continue
		}
		reason, _ := m["reason"].(string)
		if !strings.Contains(reason, "AccessDenied") || !strings.Contains(reason, "cloudformation:GetResource") {
			t.Errorf("%s %s skipped for %q, want AccessDenied on cloudformation:GetResource", ref, m["logicalId"], reason)
		}
		skipped++
	}
	if skipped == 0 {
		t.Errorf("%s: no resource skipped with the Cloud Control statement dropped; findings %v", ref, got)
	}
	if n := e.sandbox.Calls().Errors["cloudcontrolapi:GetResource:AccessDeniedException"]; n == 0 {
		t.Errorf("the sandbox refused no GetResource call; errors %v", e.sandbox.Calls().Errors)
	}
}

// TestSweepEndToEndCentralRoleDenied is the negative for the central
// functions' roles, each function calling with its own role's session key
// (e2ecentral_test.go): one statement dropped from infra's copy, the
// sandbox refuses what it granted and the sweep says so, never clean.
//   - read-resources without AssumeMemberReadRole: every resource it reads
//     is skipped with AccessDenied on sts:AssumeRole;
//   - classify without its IGNORE#/STACK# table grant: DynamoDB (behind the
//     sandbox's guard) refuses the baseline read, and every check is a
//     failed run naming dynamodb:GetItem.
func TestSweepEndToEndCentralRoleDenied(t *testing.T) {
	t.Run("read-resources/AssumeMemberReadRole", func(t *testing.T) {
		e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t), centralDrop: []string{"realdrift-read-resources/AssumeMemberReadRole"}})
		sum := e.sweep(t, "central-denied-assume")
		if sum.Counts["skipped"] == 0 || sum.Counts["drift"] != 0 {
			t.Errorf("summary counts %v: want skipped findings and no drift", sum.Counts)
		}
		got, _ := e.storedFindings(t, e.stacks[0])
		list, _ := got.([]any)
		skipped := 0
		for _, f := range list {
			m, _ := f.(map[string]any)
			if m["tier"] != "skipped" {
				continue
			}
			skipped++
			reason, _ := m["reason"].(string)
			if !strings.Contains(reason, "assumed-role/realdrift-read-resources/") || !strings.Contains(reason, "sts:AssumeRole") {
				t.Errorf("%s skipped for %q, want the read-resources role refused sts:AssumeRole", m["logicalId"], reason)
			}
		}
		if skipped == 0 {
			t.Errorf("%s: nothing skipped; findings %v", e.stacks[0], got)
		}
	})
	t.Run("classify/TableIgnoreStack", func(t *testing.T) {
		e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t), centralDrop: []string{"realdrift-classify/TableIgnoreStack"}})
		const run = "central-denied-table"
		sum := e.sweep(t, run)
		if sum.Checked != 0 || sum.Failed != sum.Stacks {
			t.Errorf("summary %+v: want every check failed", sum)
		}
		recs, err := e.store.RunsByID(t.Context(), run)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.Stack.Name == lockedName {
				continue // refused by the member role first
			}
			if r.Status != store.RunFailed || !strings.Contains(r.Reason, "dynamodb:GetItem") {
				t.Errorf("run %s %s: %s %q, want failed on dynamodb:GetItem", r.RunID, r.Stack, r.Status, r.Reason)
			}
		}
		if n := e.sandbox.Calls().Errors["dynamodb:GetItem:AccessDeniedException"]; n == 0 {
			t.Errorf("the guard refused no GetItem; errors %v", e.sandbox.Calls().Errors)
		}
	})
}

// memberTrust reads the committed copy of the member roles' trust policies
// (testdata/iam/member-trust.json, which infra's TestMemberTrustPolicyCopy
// keeps equal to the synthesized member template), its placeholders
// filled in for this deployment: role name to document.
func memberTrust(t *testing.T, org string) map[string]json.RawMessage {
	t.Helper()
	const file = "member-trust.json"
	var copy struct {
		Placeholders map[string]string
		Roles        []struct {
			Role  string
			Trust json.RawMessage
		}
	}
	readCopy(t, file, &copy)
	fill := filler(t, file, copy.Placeholders, map[string]string{"{{CentralAccount}}": demoAccount(0), "{{OrganizationId}}": org})
	out := map[string]json.RawMessage{}
	for _, r := range copy.Roles {
		out[r.Role] = fill(r.Trust)
	}
	for _, role := range []string{readRole, revertRole, findingsRole} {
		if out[role] == nil {
			t.Fatalf("member-trust.json has no trust policy for %s", role)
		}
	}
	return out
}

// seedTrust gives every account's member roles their trust policies; edit,
// when set, rewrites one account's role's policy first (the negative tests).
func seedTrust(w *sandbox.World, trust map[string]json.RawMessage, edit func(account, role string, doc json.RawMessage) json.RawMessage) {
	for _, a := range w.Accounts {
		for _, role := range slices.Sorted(maps.Keys(trust)) {
			doc := trust[role]
			if edit != nil {
				doc = edit(a.ID, role, doc)
			}
			a.TrustPolicies = append(a.TrustPolicies, &sandbox.TrustPolicy{Role: role, Document: doc})
		}
	}
}

// TestSweepEndToEndOrganization is the negative of the organisation's
// plumbing, one sweep for two rules:
//   - the read role's trust policy in one member account no longer names
//     the read-resources role (infra's policy wrong): the sandbox refuses its
//     sts:AssumeRole there — its identity policy still allows it — and every
//     resource of that account's stacks is skipped with AccessDenied on
//     sts:AssumeRole, never clean;
//   - an SCP of another member account denies sqs:GetQueueAttributes: its
//     queue policies, read with it, are skipped with AWS's reason ("with an
//     explicit deny in a service control policy"), the rest of its stacks
//     read as before.
func TestSweepEndToEndOrganization(t *testing.T) {
	untrusted, governed := demoAccount(1), demoAccount(2)
	e := startE2EWith(t, e2eConfig{
		readPolicies: readRoleDocuments(t),
		trustEdit: func(account, role string, doc json.RawMessage) json.RawMessage {
			if account != untrusted || role != readRole {
				return doc
			}
			edited := strings.ReplaceAll(string(doc), ":role/realdrift-read-resources\"", ":role/realdrift-read-elsewhere\"")
			if edited == string(doc) {
				t.Fatalf("the read role's trust policy does not name realdrift-read-resources: %s", doc)
			}
			return json.RawMessage(edited)
		},
		scps: []*sandbox.ServiceControlPolicy{
			{Name: "FullAWSAccess", Accounts: []string{governed}, Document: json.RawMessage(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}`)},
			{Name: "NoQueueAttributes", Accounts: []string{governed}, Document: json.RawMessage(`{"Version":"2012-10-17","Statement":[{"Sid":"NoQueueAttributes","Effect":"Deny","Action":"sqs:GetQueueAttributes","Resource":"*"}]}`)},
		},
	})
	sum := e.sweep(t, "sweep-organization")
	t.Logf("sweep-organization: %+v", sum)
	scpSkipped := 0
	for _, ref := range e.stacks {
		if ref.Name == lockedName || ref.Account == demoAccount(0) {
			continue
		}
		got, _ := e.storedFindings(t, ref)
		list, _ := got.([]any)
		refused := 0
		for _, f := range list {
			m, _ := f.(map[string]any)
			reason, _ := m["reason"].(string)
			switch {
			case ref.Account == untrusted && m["tier"] == "drift":
				t.Errorf("%s %s: drift, though nothing could be read", ref, m["logicalId"])
			case ref.Account == untrusted && m["tier"] == "skipped" && strings.Contains(reason, "AccessDenied"):
				// What was not read for the refusal says so; what could
				// not be resolved without it says that.
				if !strings.Contains(reason, "assumed-role/realdrift-read-resources/") ||
					!strings.Contains(reason, "sts:AssumeRole on resource: arn:aws:iam::"+untrusted+":role/"+readRole) || strings.Contains(reason, "identity-based policy") {
					t.Errorf("%s %s skipped for %q, want the trust policy refusing read-resources sts:AssumeRole", ref, m["logicalId"], reason)
				}
				refused++
			case ref.Account == governed && m["tier"] == "skipped":
				// The queue policies, and a queue's children, are read
				// with sqs:GetQueueAttributes: the SCP's reason, as AWS
				// words it.
				if !strings.Contains(reason, "sqs:GetQueueAttributes") || !strings.Contains(reason, "with an explicit deny in a service control policy") {
					t.Errorf("%s %s skipped for %q, want the SCP's deny of sqs:GetQueueAttributes", ref, m["logicalId"], reason)
				}
				if m["resourceType"] == "AWS::SQS::QueuePolicy" {
					scpSkipped++
				}
			case ref.Account == governed && m["resourceType"] == "AWS::SQS::QueuePolicy":
				t.Errorf("%s %s: %v, want skipped under the SCP", ref, m["logicalId"], m["tier"])
			}
		}
		if ref.Account == untrusted && refused == 0 {
			t.Errorf("%s: nothing skipped under the refused trust; findings %v", ref, got)
		}
	}
	if scpSkipped == 0 {
		t.Errorf("account %s: no queue policy skipped under the SCP", governed)
	}
	refused := 0
	for k, n := range e.sandbox.Calls().Errors {
		if strings.HasPrefix(k, "sqs:GetQueueAttributes:AccessDenied") {
			refused += n
		}
	}
	if refused == 0 {
		t.Errorf("the sandbox refused no GetQueueAttributes; errors %v", e.sandbox.Calls().Errors)
	}
}

// TestCentralBusPolicy: a member account's change events reach the central
// bus as EventBridge forwards them — PutEvents signed by the member's
// forwarding role, the member template's for regional events or the global
// forwarding template's for global services' — only because both infra's
// policies allow it: the forwarding role's identity policy and the bus's
// resource policy (aws:PrincipalOrgID), since the call crosses accounts. A
// bus policy for another organization, or a forwarding role without its
// grant, refuses it with AWS's message; the central functions' own
// PutEvents (same account) still need only their role's grant.
func TestCentralBusPolicy(t *testing.T) {
	e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t)})
	put := e.putCentral
	member := forwardKey(demoAccount(1))
	if err := put(t, member); err != nil {
		t.Fatalf("a member forwards to the central bus as deployed: %v", err)
	}
	if err := put(t, forwardGlobalKey(demoAccount(1))); err != nil {
		t.Fatalf("a member forwards global services' events to the central bus as deployed: %v", err)
	}
	deployed := e.bus.doc
	e.bus.set(json.RawMessage(strings.ReplaceAll(string(deployed), worldgen.DemoOrganizationID, "o-elsewhere000")))
	for _, key := range []string{member, forwardGlobalKey(demoAccount(1))} {
		if err := put(t, key); err == nil || !strings.Contains(err.Error(), "because no resource-based policy allows the events:PutEvents action") {
			t.Errorf("the bus policy admits another organization (%s): %v, want AccessDenied naming the resource-based policy", key, err)
		}
	}
	if err := put(t, functionKey("notify")); err != nil {
		t.Errorf("notify puts on its own account's bus with its role's grant, whatever the bus policy: %v", err)
	}
	e.bus.set(deployed)
	// The bus admits the organization, but across accounts the caller's
	// own policies must allow it too: the member's read role grants no
	// events:PutEvents.
	stsCfg, err := service.AWSConfig(t.Context(), service.Settings{AccessKeyID: functionKey("read-resources"), SecretAccessKey: "e2e-session-secret"}, centralRegion)
	if err != nil {
		t.Fatal(err)
	}
	out, err := sts.NewFromConfig(stsCfg, func(o *sts.Options) { o.BaseEndpoint = aws.String(e.sandboxURL) }).AssumeRole(t.Context(), &sts.AssumeRoleInput{
		RoleArn: aws.String("arn:aws:iam::" + demoAccount(1) + ":role/" + readRole), RoleSessionName: aws.String("bus")})
	if err != nil {
		t.Fatalf("read-resources assumes the read role: %v", err)
	}
	if err := put(t, aws.ToString(out.Credentials.AccessKeyId)); err == nil || !strings.Contains(err.Error(), "because no identity-based policy allows the events:PutEvents action") {
		t.Errorf("the member's read role puts on the central bus: %v, want AccessDenied naming its identity policies", err)
	}
}

// TestGlobalForwardRoleDenied is the negative for the global forwarding
// template's role (NewMemberGlobal's ForwardRole, forwardGlobal in
// central-bus-policy.json): with its one statement's Allow flipped to
// Deny, a member's global-service events no longer reach the central bus —
// refused with AWS's explicit-deny message — while the regional forwarding
// role, seeded from its own copy, still forwards.
func TestGlobalForwardRoleDenied(t *testing.T) {
	e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t), forwardEdit: func(role string, doc json.RawMessage) json.RawMessage {
		if role != forwardGlobalRole {
			return doc
		}
		var d struct {
			Version   string
			Statement []map[string]any
		}
		if err := json.Unmarshal(doc, &d); err != nil || len(d.Statement) == 0 || d.Statement[0]["Effect"] != "Allow" {
			t.Fatalf("the global forwarding role's policy has no Allow to flip (%v): %s", err, doc)
		}
		d.Statement[0]["Effect"] = "Deny"
		flipped, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		return flipped
	}})
	if err := e.putCentral(t, forwardGlobalKey(demoAccount(1))); err == nil || !strings.Contains(err.Error(), "with an explicit deny in an identity-based policy") {
		t.Errorf("the global forwarding role with its grant flipped: %v, want AccessDenied naming its identity policy's deny", err)
	}
	if err := e.putCentral(t, forwardKey(demoAccount(1))); err != nil {
		t.Errorf("the regional forwarding role: %v", err)
	}
}

// putCentral puts one change event on the central bus signed with key.
func (e *e2e) putCentral(t *testing.T, key string) error {
	t.Helper()
	cfg, err := service.AWSConfig(t.Context(), service.Settings{AccessKeyID: key, SecretAccessKey: "e2e-session-secret"}, centralRegion)
	if err != nil {
		t.Fatal(err)
	}
	cl := eventbridge.NewFromConfig(cfg, func(o *eventbridge.Options) { o.BaseEndpoint = aws.String(e.ebURL) })
	_, err = cl.PutEvents(t.Context(), &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{{
		EventBusName: aws.String(centralBusArn()), Source: aws.String("aws.sqs"),
		DetailType: aws.String("AWS API Call via CloudTrail"), Detail: aws.String(`{"eventName":"SetQueueAttributes"}`),
	}}})
	return err
}

// TestSweepEndToEndServiceRoleDenied is the negative for the state
// machines' own roles (service-roles.json), the runner signing with the
// sweep's: without its DistributedMapItems grant the Stacks Map cannot
// read discover's stack list (s3:GetObject refused by the sandbox): the
// sweep reports every stack missing, never a clean run over nothing.
func TestSweepEndToEndServiceRoleDenied(t *testing.T) {
	e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t), serviceDrop: []string{"realdrift-sweep-states/DistributedMapItems"}})
	ex := e.runSweep(t, "sweep-denied-items")
	var sum statemachine.RunSummary
	if ex.Status != "SUCCEEDED" || json.Unmarshal(ex.Output, &sum) != nil || sum.Stacks == 0 || sum.Missing != sum.Stacks || sum.Checked != 0 {
		t.Errorf("sweep without its role's S3 grant: %s, output %s; want every stack reported missing, none checked", ex.Status, ex.Output)
	}
	if n := e.sandbox.Calls().Errors["s3:GetObject:AccessDenied"]; n == 0 {
		t.Errorf("the sandbox refused no GetObject; errors %v", e.sandbox.Calls().Errors)
	}
	t.Logf("sweep without DistributedMapItems: %s %+v", ex.Status, ex.Error)
}

// TestSweepEndToEndChildStartDenied is the negative for the sweep role's
// DistributedMapChildren statement (service-roles.json): Step Functions
// starts a Distributed Map's children with the state machine's role, so
// without states:StartExecution on the sweep state machine the Accounts
// Map Run cannot start a child — the sandbox refuses the runner's signed
// StartExecution — and the sweep fails, never a clean run over nothing.
// A sweep as deployed starts every child through the same check
// (TestSweepEndToEnd).
func TestSweepEndToEndChildStartDenied(t *testing.T) {
	e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t), serviceDrop: []string{"realdrift-sweep-states/DistributedMapChildren"}})
	ex := e.runSweep(t, "sweep-denied-children")
	if ex.Status != "FAILED" || ex.Error == nil || ex.Error.Error != "States.Runtime" ||
		!strings.Contains(ex.Error.Cause, "is not authorized to perform: states:StartExecution on resource: arn:aws:states:"+centralRegion+":"+demoAccount(0)+":stateMachine:realdrift-sweep") {
		t.Errorf("sweep without DistributedMapChildren: %s %+v, want FAILED with States.Runtime naming the refused states:StartExecution", ex.Status, ex.Error)
	}
	if n := e.children.count(); n != 0 {
		t.Errorf("%d child starts accepted under a role that may start none", n)
	}
	if n := e.sandbox.Calls().Errors["states:StartExecution:AccessDeniedException"]; n == 0 {
		t.Errorf("the sandbox refused no StartExecution; errors %v", e.sandbox.Calls().Errors)
	}
}
