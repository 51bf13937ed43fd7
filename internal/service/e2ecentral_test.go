package service_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// The central account of the e2e deployment: its region, and the Slack
// webhook secret as Secrets Manager names it (an ARN ends in a random
// six-character suffix).
const (
	centralRegion = "us-east-1"
	slackSecretID = "realdrift/slack-webhook"
)

func slackSecretArn() string {
	return "arn:aws:secretsmanager:" + centralRegion + ":" + demoAccount(0) + ":secret:" + slackSecretID + "-e2eAbC"
}

// centralRoles reads a committed copy of central role policies — the
// functions' (central-roles.json, infra's TestCentralRolePolicyCopy) or the
// state machines' and the Scheduler's (service-roles.json,
// TestServiceRolePolicyCopy), each kept equal to the synthesized template —
// its placeholders filled in for this deployment; statements whose Sid is
// in drop, given as ROLE/SID, are left out.
func centralRoles(t *testing.T, file string, fill map[string]string, drop ...string) map[string][]json.RawMessage {
	t.Helper()
	var copy struct {
		Placeholders map[string]string
		Roles        []struct {
			Role      string
			Documents []policyDocument
		}
	}
	readCopy(t, file, &copy)
	filled := filler(t, file, copy.Placeholders, fill)
	out := map[string][]json.RawMessage{}
	dropped := 0
	for _, r := range copy.Roles {
		for _, d := range r.Documents {
			out[r.Role] = append(out[r.Role], filled(d.without(t, r.Role, drop, &dropped)))
		}
	}
	if dropped != len(drop) {
		t.Fatalf("%s: dropped %d of the statements %v", file, dropped, drop)
	}
	return out
}

// policyDocument is a policy document of a committed copy.
type policyDocument struct {
	Version   string
	Statement []map[string]any
}

// without encodes d without the statements whose Sid is in drop, given as
// OWNER/SID, counting them in dropped.
func (d policyDocument) without(t *testing.T, owner string, drop []string, dropped *int) []byte {
	t.Helper()
	d.Statement = slices.DeleteFunc(slices.Clone(d.Statement), func(st map[string]any) bool {
		sid, _ := st["Sid"].(string)
		if slices.Contains(drop, owner+"/"+sid) {
			*dropped++
			return true
		}
		return false
	})
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readCopy reads a committed copy under testdata/iam into v.
func readCopy(t *testing.T, file string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(iamDir, file))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// filler returns what fills a document of the copy file in: every
// {{placeholder}} the copy declares (declared: what each stands for) by
// its value in fill. A declared placeholder fill lacks, or one left in a
// document, fails the test.
func filler(t *testing.T, file string, declared, fill map[string]string) func(doc []byte) json.RawMessage {
	t.Helper()
	for p := range declared {
		if _, ok := fill[p]; !ok {
			t.Fatalf("%s has placeholder %s (%s) the e2e does not fill", file, p, declared[p])
		}
	}
	return func(doc []byte) json.RawMessage {
		s := string(doc)
		for p, v := range fill {
			s = strings.ReplaceAll(s, p, v)
		}
		if strings.Contains(s, "{{") {
			t.Fatalf("%s: unfilled placeholder in %s", file, s)
		}
		return json.RawMessage(s)
	}
}

// invokeAsks: a Lambda Invoke asks lambda:InvokeFunction on the function
// (a name is the caller's account-region's function of that name).
func invokeAsks(r *http.Request, body []byte, account, region string) ([]sandbox.Ask, error) {
	name, ok := strings.CutPrefix(r.URL.Path, "/2015-03-31/functions/")
	name, ok2 := strings.CutSuffix(name, "/invocations")
	if !ok || !ok2 || name == "" {
		return nil, fmt.Errorf("not an Invoke path: %s", r.URL.Path)
	}
	if !strings.HasPrefix(name, "arn:") {
		name = "arn:aws:lambda:" + region + ":" + account + ":function:" + name
	}
	return []sandbox.Ask{{Action: "lambda:InvokeFunction", Resource: name}}, nil
}

// statesKey is the session key of a state machine's execution role
// (realdrift-<name>-states in service-roles.json): what the local runner
// signs its Lambda invocations and S3 calls with.
func statesKey(stateMachine string) string { return functionKey(stateMachine + "-states") }

// functionKey is the access key of a function's execution role session in
// the e2e world (what Lambda hands the function in its environment).
func functionKey(fn string) string {
	k := "ASIAE2E" + strings.ToUpper(strings.ReplaceAll(fn, "-", ""))
	for len(k) < 20 {
		k += "0"
	}
	return k
}

// seedCentralRoles gives the central account the functions' roles, their
// policies from infra's copy, and each function's session key (the copy
// names the role realdrift-<function>).
func seedCentralRoles(w *sandbox.World, roles map[string][]json.RawMessage) {
	for _, a := range w.Accounts {
		if a.ID != demoAccount(0) {
			continue
		}
		for _, role := range slices.Sorted(maps.Keys(roles)) {
			fn := strings.TrimPrefix(role, "realdrift-")
			a.AccessKeys = append(a.AccessKeys, sandbox.AccessKey{ID: functionKey(fn), Role: role})
			a.Policies = append(a.Policies, &sandbox.Policies{Role: role, Documents: roles[role]})
		}
	}
}

// jsonTarget decodes a JSON-protocol request: its operation (the part of
// X-Amz-Target after prefix) and body.
func jsonTarget(r *http.Request, body []byte, prefix string, in any) (string, error) {
	op, ok := strings.CutPrefix(r.Header.Get("X-Amz-Target"), prefix)
	if !ok {
		return "", fmt.Errorf("X-Amz-Target %q", r.Header.Get("X-Amz-Target"))
	}
	if err := json.Unmarshal(body, in); err != nil {
		return "", err
	}
	return op, nil
}

// secretsAsks: a Secrets Manager call asks secretsmanager:Op on the
// secret's ARN (the webhook secret's, by name or ARN).
func secretsAsks(r *http.Request, body []byte, account, region string) ([]sandbox.Ask, error) {
	var in struct{ SecretId string }
	op, err := jsonTarget(r, body, "secretsmanager.", &in)
	if err != nil {
		return nil, err
	}
	res := in.SecretId
	if res == slackSecretID || res == slackSecretArn() {
		res = slackSecretArn()
	}
	return []sandbox.Ask{{Action: "secretsmanager:" + op, Resource: res}}, nil
}

// statesAsks: StartExecution asks states:StartExecution on the state
// machine; SendTaskSuccess and SendTaskFailure answer a task token of the
// revert state machine (the only one whose tasks wait on a token), which
// is what AWS authorizes them against.
func statesAsks(r *http.Request, body []byte, account, region string) ([]sandbox.Ask, error) {
	var in struct {
		StateMachineArn string `json:"stateMachineArn"`
	}
	op, err := jsonTarget(r, body, "AWSStepFunctions.", &in)
	if err != nil {
		return nil, err
	}
	res := in.StateMachineArn
	if op == "SendTaskSuccess" || op == "SendTaskFailure" || op == "SendTaskHeartbeat" {
		res = revertARN
	}
	return []sandbox.Ask{{Action: "states:" + op, Resource: res}}, nil
}

// eventsAsks: PutEvents asks events:PutEvents on each entry's bus (a name
// is the account-region's bus of that name).
func eventsAsks(r *http.Request, body []byte, account, region string) ([]sandbox.Ask, error) {
	var in struct {
		Entries []struct{ EventBusName string }
	}
	op, err := jsonTarget(r, body, "AWSEvents.", &in)
	if err != nil {
		return nil, err
	}
	var asks []sandbox.Ask
	for _, e := range in.Entries {
		bus := e.EventBusName
		if bus == "" {
			bus = "default"
		}
		if !strings.HasPrefix(bus, "arn:") {
			bus = "arn:aws:events:" + region + ":" + account + ":event-bus/" + bus
		}
		asks = append(asks, sandbox.Ask{Action: "events:" + op, Resource: bus})
	}
	return asks, nil
}

// forwardRole is the member role EventBridge forwards CloudTrail changes to
// the central bus with (infra's ForwardRole has a generated name; the e2e
// names it), and forwardKey its session key in account; forwardGlobalRole
// and forwardGlobalKey are the global forwarding template's
// (NewMemberGlobal: global services' changes, from the global region).
const (
	forwardRole       = "realdrift-forward"
	forwardGlobalRole = "realdrift-forward-global"
)

func forwardKey(account string) string { return "ASIAE2EFORWARD" + account }

func forwardGlobalKey(account string) string { return "ASIAE2EFWDGLOBAL" + account }

func centralBusArn() string {
	return "arn:aws:events:" + centralRegion + ":" + demoAccount(0) + ":event-bus/realdrift"
}

// busCopy reads the committed copy of the central bus's policy and the
// member forwarding roles' policies (testdata/iam/central-bus-policy.json,
// which infra's TestBusPolicyCopy keeps equal to the synthesized
// templates), filled in for this deployment: the bus policy, and the
// documents in account of the forwarding role (forwardRole) or of the
// global forwarding template's (forwardGlobalRole).
func busCopy(t *testing.T, org string) (policy json.RawMessage, forward func(role, account string) []json.RawMessage) {
	t.Helper()
	const file = "central-bus-policy.json"
	var copy struct {
		Placeholders  map[string]string
		Policy        json.RawMessage
		Forward       []json.RawMessage
		ForwardGlobal []json.RawMessage
	}
	readCopy(t, file, &copy)
	fill := func(doc json.RawMessage, account string) json.RawMessage {
		return filler(t, file, copy.Placeholders, map[string]string{"{{Account}}": account, "{{Region}}": centralRegion, "{{EventBus}}": "realdrift",
			"{{OrganizationId}}": org, "{{CentralEventBusArn}}": centralBusArn()})(doc)
	}
	if len(copy.ForwardGlobal) == 0 {
		t.Fatalf("%s: no forwardGlobal policies", file)
	}
	forward = func(role, account string) []json.RawMessage {
		docs := copy.Forward
		if role == forwardGlobalRole {
			docs = copy.ForwardGlobal
		}
		var out []json.RawMessage
		for _, d := range docs {
			out = append(out, fill(d, account))
		}
		return out
	}
	return fill(copy.Policy, demoAccount(0)), forward
}

// seedForwardRole gives every member account the forwarding roles (the
// member template's and the global forwarding template's), their policies
// from infra's copy, edited by edit when set, and their session keys (what
// EventBridge signs the forwarded PutEvents with).
func seedForwardRole(w *sandbox.World, forward func(role, account string) []json.RawMessage, edit func(role string, doc json.RawMessage) json.RawMessage) {
	for _, a := range w.Accounts {
		if a.ID == demoAccount(0) {
			continue
		}
		for _, rk := range [][2]string{{forwardRole, forwardKey(a.ID)}, {forwardGlobalRole, forwardGlobalKey(a.ID)}} {
			role, key := rk[0], rk[1]
			docs := forward(role, a.ID)
			if edit != nil {
				for i := range docs {
					docs[i] = edit(role, docs[i])
				}
			}
			a.AccessKeys = append(a.AccessKeys, sandbox.AccessKey{ID: key, Role: role})
			a.Policies = append(a.Policies, &sandbox.Policies{Role: role, Documents: docs})
		}
	}
}

// busPolicy holds the central bus's resource policy the EventBridge
// stand-in's guard evaluates (a test may replace it).
type busPolicy struct {
	mu  sync.Mutex
	doc json.RawMessage
}

func (b *busPolicy) set(doc json.RawMessage) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.doc = doc
}

// asks is eventsAsks with the central bus's policy on each entry for it.
func (b *busPolicy) asks(r *http.Request, body []byte, account, region string) ([]sandbox.Ask, error) {
	asks, err := eventsAsks(r, body, account, region)
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := range asks {
		if asks[i].Resource == centralBusArn() {
			asks[i].Policy = b.doc
		}
	}
	return asks, err
}

// childStarts stands in for Step Functions accepting a Distributed Map's
// child execution, behind the sandbox's IAM: the local runner asks
// StartExecution here, signed with the state machine's role, before it
// runs each child itself (statemachine.Run.StatesEndpoint).
type childStarts struct {
	mu sync.Mutex
	n  int
}

func (c *childStarts) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var in struct {
		StateMachineArn string `json:"stateMachineArn"`
		Name            string `json:"name"`
	}
	if r.Header.Get("X-Amz-Target") != "AWSStepFunctions.StartExecution" || json.NewDecoder(r.Body).Decode(&in) != nil || in.Name == "" {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"__type":"ValidationException","message":"not a StartExecution of a child"}`))
		return
	}
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	arn := strings.Replace(in.StateMachineArn, ":stateMachine:", ":execution:", 1) + ":" + in.Name
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	_ = json.NewEncoder(w).Encode(map[string]any{"executionArn": arn, "startDate": 0})
}

// count is the number of child starts accepted.
func (c *childStarts) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
