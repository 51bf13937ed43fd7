package sandbox_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestGuardDynamoDB: a stand-in behind the guard refuses, in DynamoDB's
// own error shape, every call of a role session its identity policies do
// not allow — the action, the table, and dynamodb:LeadingKeys with
// ForAllValues over every key of a batch — and passes the others on with
// their bodies intact; a key without policies passes everything, a key no
// principal owns nothing (UnrecognizedClientException).
func TestGuardDynamoDB(t *testing.T) {
	const table = "realdrift"
	const fnKey = "AKIAFUNCTIONROLE0001"
	policy := `{"Version":"2012-10-17","Statement":[
	 {"Sid":"Run","Effect":"Allow","Action":["dynamodb:GetItem","dynamodb:PutItem","dynamodb:Query","dynamodb:BatchWriteItem"],
	  "Resource":"arn:aws:dynamodb:us-east-1:111111111111:table/realdrift",
	  "Condition":{"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["RUN#*"]}}},
	 {"Sid":"Pace","Effect":"Allow","Action":"dynamodb:UpdateItem",
	  "Resource":"arn:aws:dynamodb:us-east-1:111111111111:table/realdrift",
	  "Condition":{"ForAllValues:StringLike":{"dynamodb:LeadingKeys":["PACE#*"]}}}]}`
	w := policyWorld(t, `{"Statement":{"Effect":"Allow","Action":"*","Resource":"*"}}`, "")
	for _, a := range w.Accounts {
		if a.ID == mgmt {
			a.AccessKeys = append(a.AccessKeys, sandbox.AccessKey{ID: fnKey, Role: "realdrift-persist"})
			a.Policies = append(a.Policies, &sandbox.Policies{Role: "realdrift-persist", Documents: []json.RawMessage{json.RawMessage(policy)}})
		}
	}
	sb, url := startWorld(t, w, sandbox.Options{})

	var mu sync.Mutex
	var passed []string
	standIn := http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		passed = append(passed, strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "DynamoDB_20120810.")+" "+string(b))
		mu.Unlock()
		rw.Header().Set("Content-Type", "application/x-amz-json-1.0")
		_, _ = io.WriteString(rw, `{}`)
	})
	srv := httptest.NewServer(sb.Guard("dynamodb", sandbox.DynamoDBAsks("pk"), standIn))
	t.Cleanup(srv.Close)
	db := func(key string) *dynamodb.Client {
		return dynamodb.NewFromConfig(cfg(url, key, "us-east-1"), func(o *dynamodb.Options) {
			o.BaseEndpoint = aws.String(srv.URL)
			o.RetryMaxAttempts = 1
		})
	}
	fn := db(fnKey)
	c := ctx(t)
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	key := func(pk string) map[string]types.AttributeValue {
		return map[string]types.AttributeValue{"pk": s(pk), "sk": s("x")}
	}

	// The session is the role's: the guard's principal, as STS says.
	who, err := sts.NewFromConfig(cfg(url, fnKey, "us-east-1")).GetCallerIdentity(c, &sts.GetCallerIdentityInput{})
	if err != nil {
		t.Fatal(err)
	}
	if got := aws.ToString(who.Arn); got != "arn:aws:sts::111111111111:assumed-role/realdrift-persist/realdrift-persist" {
		t.Errorf("role key's identity %s", got)
	}

	allowed := []struct {
		what string
		call func() error
	}{
		{"GetItem RUN#", func() error {
			_, err := fn.GetItem(c, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key("RUN#r1")})
			return err
		}},
		{"PutItem RUN#", func() error {
			_, err := fn.PutItem(c, &dynamodb.PutItemInput{TableName: aws.String(table), Item: key("RUN#r1")})
			return err
		}},
		{"Query RUN# by placeholder", func() error {
			_, err := fn.Query(c, &dynamodb.QueryInput{TableName: aws.String(table),
				KeyConditionExpression:    aws.String("#pk = :pk AND begins_with(#sk, :p)"),
				ExpressionAttributeNames:  map[string]string{"#pk": "pk", "#sk": "sk"},
				ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s("RUN#r1"), ":p": s("C#")}})
			return err
		}},
		{"BatchWriteItem all RUN#", func() error {
			_, err := fn.BatchWriteItem(c, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: {
				{PutRequest: &types.PutRequest{Item: key("RUN#a")}}, {DeleteRequest: &types.DeleteRequest{Key: key("RUN#b")}}}}})
			return err
		}},
		{"UpdateItem PACE#", func() error {
			_, err := fn.UpdateItem(c, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key("PACE#111111111111#us-east-1")})
			return err
		}},
	}
	for _, a := range allowed {
		if err := a.call(); err != nil {
			t.Errorf("%s: %v, want allowed", a.what, err)
		}
	}

	denied := []struct {
		what, action string
		call         func() error
	}{
		{"GetItem STACK#", "dynamodb:GetItem", func() error {
			_, err := fn.GetItem(c, &dynamodb.GetItemInput{TableName: aws.String(table), Key: key("STACK#a")})
			return err
		}},
		{"UpdateItem RUN# (PACE# only)", "dynamodb:UpdateItem", func() error {
			_, err := fn.UpdateItem(c, &dynamodb.UpdateItemInput{TableName: aws.String(table), Key: key("RUN#r1")})
			return err
		}},
		{"PutItem on another table", "dynamodb:PutItem", func() error {
			_, err := fn.PutItem(c, &dynamodb.PutItemInput{TableName: aws.String("other"), Item: key("RUN#r1")})
			return err
		}},
		{"BatchWriteItem one key outside RUN#", "dynamodb:BatchWriteItem", func() error {
			_, err := fn.BatchWriteItem(c, &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{table: {
				{PutRequest: &types.PutRequest{Item: key("RUN#a")}}, {PutRequest: &types.PutRequest{Item: key("RES#b")}}}}})
			return err
		}},
		{"Scan (no keys, not granted)", "dynamodb:Scan", func() error {
			_, err := fn.Scan(c, &dynamodb.ScanInput{TableName: aws.String(table)})
			return err
		}},
	}
	for _, d := range denied {
		err := d.call()
		var ae smithy.APIError
		if !errors.As(err, &ae) || ae.ErrorCode() != "AccessDeniedException" {
			t.Errorf("%s: %v, want AccessDeniedException", d.what, err)
			continue
		}
		want := "User: arn:aws:sts::111111111111:assumed-role/realdrift-persist/realdrift-persist is not authorized to perform: " + d.action
		if !strings.HasPrefix(ae.ErrorMessage(), want) {
			t.Errorf("%s: message %q, want it to start %q", d.what, ae.ErrorMessage(), want)
		}
	}
	if n := sb.Calls().Errors["dynamodb:GetItem:AccessDeniedException"]; n != 1 {
		t.Errorf("call log has %d denied GetItem calls, want 1 (errors %v)", n, sb.Calls().Errors)
	}

	// The admin key (alice, no policies of her own here) passes anything.
	if _, err := db(mgmtKey).Scan(c, &dynamodb.ScanInput{TableName: aws.String(table)}); err != nil {
		t.Errorf("unrestricted Scan: %v", err)
	}
	// A key no principal owns is refused as DynamoDB refuses it, and never
	// reaches the stand-in.
	if _, err := db("AKIAUNKNOWNKEY000001").Scan(c, &dynamodb.ScanInput{TableName: aws.String(table)}); code(err) != "UnrecognizedClientException" {
		t.Errorf("Scan with an unknown key: %v, want UnrecognizedClientException", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(passed) != len(allowed)+1 {
		t.Errorf("the stand-in saw %d requests, want %d allowed: %v", len(passed), len(allowed)+1, passed)
	}
	for _, p := range passed {
		if !strings.Contains(p, `"TableName"`) && !strings.Contains(p, `"RequestItems"`) {
			t.Errorf("a request reached the stand-in without its body: %q", p)
		}
	}
}

// TestAllowsFunctionURL: Allows evaluates a key's identity policies for a
// stand-in that answers its own refusals — an AWS_IAM function URL asks
// lambda:InvokeFunctionUrl on the function with lambda:FunctionUrlAuthType
// AWS_IAM — with the global keys too: the realdrift-approver shape allows
// its function only under AWS_IAM; a policy without the action, another
// function, another auth type or an explicit deny refuse; a key without
// declared policies may do anything, a key no principal owns nothing.
func TestAllowsFunctionURL(t *testing.T) {
	const fn = "arn:aws:lambda:us-east-1:111111111111:function:realdrift-approve-link"
	approver := `{"Version":"2012-10-17","Statement":{"Sid":"DecideReverts","Effect":"Allow","Action":"lambda:InvokeFunctionUrl",
	  "Resource":"` + fn + `","Condition":{"StringEquals":{"lambda:FunctionUrlAuthType":"AWS_IAM"}}}}`
	keys := map[string]string{
		"AKIAAPPROVER00000001": approver,
		"AKIAREADER0000000001": `{"Version":"2012-10-17","Statement":{"Effect":"Allow","Action":"lambda:Get*","Resource":"*"}}`,
		"AKIADENIED0000000001": `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"lambda:*","Resource":"*"},
		  {"Effect":"Deny","Action":"lambda:InvokeFunctionUrl","Resource":"*","Condition":{"StringNotEquals":{"aws:PrincipalOrgID":"o-elsewhere"}}}]}`,
	}
	w := policyWorld(t, `{"Statement":{"Effect":"Allow","Action":"*","Resource":"*"}}`, "")
	for _, a := range w.Accounts {
		if a.ID != mgmt {
			continue
		}
		for key, doc := range keys {
			role := "role-" + strings.ToLower(key[4:10])
			a.AccessKeys = append(a.AccessKeys, sandbox.AccessKey{ID: key, Role: role})
			a.Policies = append(a.Policies, &sandbox.Policies{Role: role, Documents: []json.RawMessage{json.RawMessage(doc)}})
		}
	}
	sb, _ := startWorld(t, w, sandbox.Options{})
	ask := func(resource, authType string) sandbox.Ask {
		return sandbox.Ask{Action: "lambda:InvokeFunctionUrl", Resource: resource, Keys: map[string][]string{"lambda:FunctionUrlAuthType": {authType}}}
	}
	for _, tt := range []struct {
		name, key string
		ask       sandbox.Ask
		want      bool
	}{
		{"the approver policy, AWS_IAM", "AKIAAPPROVER00000001", ask(fn, "AWS_IAM"), true},
		{"the approver policy, auth type NONE", "AKIAAPPROVER00000001", ask(fn, "NONE"), false},
		{"the approver policy, another function", "AKIAAPPROVER00000001", ask(fn+"-other", "AWS_IAM"), false},
		{"no InvokeFunctionUrl", "AKIAREADER0000000001", ask(fn, "AWS_IAM"), false},
		{"an explicit deny on a global key", "AKIADENIED0000000001", ask(fn, "AWS_IAM"), false},
		{"no declared policies", mgmtKey, ask(fn, "AWS_IAM"), true},
		{"a key no principal owns", "AKIAUNKNOWNKEY000001", ask(fn, "AWS_IAM"), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := sb.Allows(tt.key, "us-east-1", tt.ask); got != tt.want {
				t.Errorf("Allows = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestGuardDynamoDBTableKey: behind DynamoDBKeyAsks every item read and
// write also asks the table's KMS key, as DynamoDB uses it for the
// caller. Under the AWS managed key's policy (aws/dynamodb) the table
// grants alone decide; under a customer key whose policy only delegates to
// the account, a role without kms:Decrypt of its own is refused
// (AccessDeniedException naming kms:Decrypt) and one with it is allowed; a
// key policy naming the role through DynamoDB allows it, the same
// statement through another service does not. Calls that touch no item
// (DescribeTable) ask no key.
func TestGuardDynamoDBTableKey(t *testing.T) {
	const (
		table    = "realdrift"
		tableArn = "arn:aws:dynamodb:us-east-1:111111111111:table/realdrift"
		keyArn   = "arn:aws:kms:us-east-1:111111111111:key/0e2e0000-aaaa-4bbb-8ccc-000000000009"
		plain    = "AKIAFUNCTIONROLE0001"
		decrypt  = "AKIAFUNCTIONROLE0002"
	)
	grant := `{"Effect":"Allow","Action":["dynamodb:GetItem","dynamodb:PutItem","dynamodb:Query","dynamodb:DescribeTable"],"Resource":"` + tableArn + `*"}`
	roles := map[string]string{
		plain:   `{"Version":"2012-10-17","Statement":[` + grant + `]}`,
		decrypt: `{"Version":"2012-10-17","Statement":[` + grant + `,{"Effect":"Allow","Action":"kms:Decrypt","Resource":"` + keyArn + `"}]}`,
	}
	w := policyWorld(t, `{"Statement":{"Effect":"Allow","Action":"*","Resource":"*"}}`, "")
	for _, a := range w.Accounts {
		if a.ID != mgmt {
			continue
		}
		for key, doc := range roles {
			role := "role-" + key[len(key)-4:]
			a.AccessKeys = append(a.AccessKeys, sandbox.AccessKey{ID: key, Role: role})
			a.Policies = append(a.Policies, &sandbox.Policies{Role: role, Documents: []json.RawMessage{json.RawMessage(doc)}})
		}
	}
	sb, url := startWorld(t, w, sandbox.Options{})
	standIn := http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		rw.Header().Set("Content-Type", "application/x-amz-json-1.0")
		_, _ = io.WriteString(rw, `{}`)
	})
	managed, ok := sandbox.AWSManagedKeyPolicy("dynamodb", mgmt, "us-east-1")
	if !ok {
		t.Fatal("no AWS managed key policy for dynamodb")
	}
	rootOnly := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111111111111:root"},"Action":"kms:*","Resource":"*"}]}`
	naming := func(service string) string {
		return `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111111111111:role/role-0001"},
		  "Action":"kms:Decrypt","Resource":"*","Condition":{"StringEquals":{"kms:ViaService":"` + service + `.us-east-1.amazonaws.com"}}}]}`
	}
	c := ctx(t)
	s := &types.AttributeValueMemberS{Value: "RUN#r1"}
	for _, tt := range []struct {
		name, policy, key string
		itemsAllowed      bool
	}{
		{"AWS managed key", string(managed), plain, true},
		{"customer key, root only, no kms:Decrypt", rootOnly, plain, false},
		{"customer key, root only, kms:Decrypt granted", rootOnly, decrypt, true},
		{"customer key naming the role through DynamoDB", naming("dynamodb"), plain, true},
		{"customer key naming the role through SNS", naming("sns"), plain, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			asks := sandbox.DynamoDBKeyAsks(sandbox.DynamoDBAsks("pk"), func(arn string) (sandbox.TableKey, bool) {
				if arn != tableArn {
					t.Errorf("the key asked for table %s", arn)
				}
				return sandbox.TableKey{Arn: keyArn, Policy: json.RawMessage(tt.policy)}, true
			})
			srv := httptest.NewServer(sb.Guard("dynamodb", asks, standIn))
			defer srv.Close()
			db := dynamodb.NewFromConfig(cfg(url, tt.key, "us-east-1"), func(o *dynamodb.Options) {
				o.BaseEndpoint = aws.String(srv.URL)
				o.RetryMaxAttempts = 1
			})
			item := map[string]types.AttributeValue{"pk": s, "sk": s}
			calls := map[string]func() error{
				"GetItem": func() error {
					_, err := db.GetItem(c, &dynamodb.GetItemInput{TableName: aws.String(table), Key: item})
					return err
				},
				"PutItem": func() error {
					_, err := db.PutItem(c, &dynamodb.PutItemInput{TableName: aws.String(table), Item: item})
					return err
				},
				"Query on an index": func() error {
					_, err := db.Query(c, &dynamodb.QueryInput{TableName: aws.String(table), IndexName: aws.String("gsi1"),
						KeyConditionExpression: aws.String("gsi1pk = :v"), ExpressionAttributeValues: map[string]types.AttributeValue{":v": s}})
					return err
				},
			}
			for what, call := range calls {
				err := call()
				switch {
				case tt.itemsAllowed && err != nil:
					t.Errorf("%s: %v, want allowed", what, err)
				case !tt.itemsAllowed && code(err) != "AccessDeniedException":
					t.Errorf("%s: %v, want AccessDeniedException", what, err)
				case !tt.itemsAllowed && !strings.Contains(err.Error(), "kms:Decrypt on resource: "+keyArn):
					t.Errorf("%s: %v, want the refusal to name kms:Decrypt on the key", what, err)
				}
			}
			if _, err := db.DescribeTable(c, &dynamodb.DescribeTableInput{TableName: aws.String(table)}); err != nil {
				t.Errorf("DescribeTable: %v, want allowed (it reads no item)", err)
			}
		})
	}
}
