package service_test

import (
	"encoding/json"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/store"
)

// tableKeyID is the id of the KMS key that encrypts the e2e's table: the
// AWS managed key aws/dynamodb as infra deploys the table, or the customer
// key a copy names (or a negative test puts in its place).
const tableKeyID = "0e2e0000-aaaa-4bbb-8ccc-000000000002"

func tableArn(table string) string {
	return "arn:aws:dynamodb:" + centralRegion + ":" + demoAccount(0) + ":table/" + table
}

// tableKey reads the committed copy of the table's encryption
// (testdata/iam/table-key.json, which infra's TestTableKeyCopy keeps
// equal to the synthesized table) and returns the key DynamoDB uses for
// the e2e's table: an AWS managed key under the policy AWS gives it, a
// customer key under its policy from the copy; ok false is the AWS owned
// key, which asks the caller nothing. policy, when set, puts the table on
// a customer key under policy instead (the negative tests).
func tableKey(t *testing.T, fill map[string]string, policy json.RawMessage) (key sandbox.TableKey, ok bool) {
	t.Helper()
	const file = "table-key.json"
	var copy struct {
		Placeholders     map[string]string
		SSESpecification struct {
			SSEEnabled     bool
			SSEType        string
			KMSMasterKeyId string
		}
		KeyPolicy json.RawMessage
	}
	readCopy(t, file, &copy)
	key.Arn = "arn:aws:kms:" + centralRegion + ":" + demoAccount(0) + ":key/" + tableKeyID
	withKey := map[string]string{"{{TableKey}}": key.Arn}
	for k, v := range fill {
		withKey[k] = v
	}
	filled := filler(t, file, copy.Placeholders, withKey)
	sse := copy.SSESpecification
	switch {
	case policy != nil:
		key.Policy = policy
	case !sse.SSEEnabled:
		return sandbox.TableKey{}, false
	case sse.KMSMasterKeyId == "":
		key.Policy, ok = sandbox.AWSManagedKeyPolicy("dynamodb", demoAccount(0), centralRegion)
		if !ok {
			t.Fatal("the sandbox knows no policy of the AWS managed key aws/dynamodb")
		}
	case sse.KMSMasterKeyId != "{{TableKey}}" || string(copy.KeyPolicy) == "null":
		t.Fatalf("%s: the table's key %q has no key policy in the copy", file, sse.KMSMasterKeyId)
	default:
		key.Policy = filled(copy.KeyPolicy)
	}
	return key, true
}

// guardedDynamo is DynamoDB Local behind the sandbox's IAM: the functions'
// table grants (dynamodb:LeadingKeys by key prefix) are enforced, and
// every item read and write asks the table's key (tableKey) for the
// caller, as DynamoDB uses it.
func guardedDynamo(t *testing.T, sb *sandbox.Server, ddbURL, table string, key sandbox.TableKey, encrypted bool) http.Handler {
	t.Helper()
	u, err := url.Parse(ddbURL)
	if err != nil {
		t.Fatal(err)
	}
	asks := sandbox.DynamoDBKeyAsks(sandbox.DynamoDBAsks(store.AttrPK), func(arn string) (sandbox.TableKey, bool) {
		return key, encrypted && arn == tableArn(table)
	})
	return sb.Guard("dynamodb", asks, httputil.NewSingleHostReverseProxy(u))
}

// TestSweepEndToEndTableKeyDenied is the negative for the table's key:
// were the table encrypted with a customer managed key whose policy does
// not let the functions use it through DynamoDB — here the messages key's
// policy, which admits the alert publishers through SNS only, and the
// functions' roles hold no KMS grant of their own — DynamoDB refuses
// every item read and write of theirs, and the sweep fails every check
// naming kms:Decrypt, never a clean run. As deployed (the AWS managed
// key, whose policy admits every principal of the account through
// DynamoDB) every other e2e passes the same check.
func TestSweepEndToEndTableKeyDenied(t *testing.T) {
	_, messagesKey := alertTopicCopy(t, map[string]string{
		"{{Account}}": demoAccount(0), "{{Region}}": centralRegion, "{{OrganizationId}}": "o-unused", "{{Table}}": "unused",
		"{{SlackSecretArn}}": slackSecretArn(), "{{Topic}}": alertTopicName, "{{EventBus}}": "realdrift", "{{TargetsBucket}}": targetsBucket,
	})
	e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t), tableKeyPolicy: messagesKey})
	ex := e.runSweep(t, "sweep-table-key-denied")
	var sum struct {
		Stacks, Checked, Failed, Missing int
	}
	_ = json.Unmarshal(ex.Output, &sum)
	if ex.Status == "SUCCEEDED" && (sum.Stacks == 0 || sum.Checked != 0) {
		t.Errorf("sweep with the table's key refusing the functions: %s, output %s; want it failed, or every stack failed or missing", ex.Status, ex.Output)
	}
	refused := false
	for line := range strings.Lines(e.logs.String()) {
		if strings.Contains(line, "kms:Decrypt") && strings.Contains(line, tableKeyID) {
			refused = true
			break
		}
	}
	if !refused {
		t.Errorf("no function logged the key's refusal (kms:Decrypt on key/%s); sweep %s %s", tableKeyID, ex.Status, ex.Output)
	}
	if n := e.sandbox.Calls().Errors["dynamodb:Decrypt:AccessDeniedException"]; n == 0 {
		t.Errorf("the guard refused no item call for the table's key; errors %v", e.sandbox.Calls().Errors)
	}
	t.Logf("sweep with the table on the messages key: %s %s %+v", ex.Status, ex.Output, ex.Error)
}
