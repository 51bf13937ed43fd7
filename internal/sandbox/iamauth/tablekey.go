package iamauth

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
)

// TableKey is the KMS key that encrypts a DynamoDB table: its ARN and its
// key policy.
type TableKey struct {
	Arn    string
	Policy json.RawMessage
}

// itemActions are the DynamoDB actions that read or write a table's items,
// for which DynamoDB uses the table's key.
var itemActions = map[string]bool{
	"dynamodb:GetItem": true, "dynamodb:PutItem": true, "dynamodb:UpdateItem": true, "dynamodb:DeleteItem": true,
	"dynamodb:Query": true, "dynamodb:Scan": true, "dynamodb:BatchGetItem": true, "dynamodb:BatchWriteItem": true,
	"dynamodb:ConditionCheckItem": true, "dynamodb:PartiQLSelect": true, "dynamodb:PartiQLInsert": true,
	"dynamodb:PartiQLUpdate": true, "dynamodb:PartiQLDelete": true,
}

// DynamoDBKeyAsks is ask (DynamoDBAsks) with the question a table's KMS
// key puts: each Ask that reads or writes a table's items (an index's
// included) also asks kms:Decrypt on the table's key, under the key's
// policy, with kms:ViaService dynamodb.REGION.amazonaws.com and
// kms:CallerAccount the caller's account — DynamoDB reaches the items
// through the table key, which it decrypts with the KMS key for the
// caller. key gives a table's key by the table's ARN; false is the AWS
// owned key, which asks the caller nothing. A refusal is DynamoDB's
// AccessDeniedException, as the guard answers every refusal.
func DynamoDBKeyAsks(ask Asker, key func(tableArn string) (TableKey, bool)) Asker {
	return func(r *http.Request, body []byte, account, region string) ([]Ask, error) {
		asks, err := ask(r, body, account, region)
		if err != nil {
			return nil, err
		}
		out := make([]Ask, 0, 2*len(asks))
		for _, a := range asks {
			out = append(out, a)
			if !itemActions[a.Action] {
				continue
			}
			table, _, _ := strings.Cut(a.Resource, "/index/")
			k, ok := key(table)
			if !ok {
				continue
			}
			out = append(out, wire.KeyAsk("kms:Decrypt", k.Arn, k.Policy, "dynamodb", region, account))
		}
		return out, nil
	}
}

// AWSManagedKeyPolicy is the key policy AWS gives a service's AWS managed
// key (alias/aws/SERVICE) in account and region, for the services the
// sandbox knows it of (false otherwise). AWS writes it and no one can
// change it: every principal of the account may use the key through the
// service (kms:CallerAccount, kms:ViaService), so the identity policies
// that let a caller use the service decide; the account may read the
// key's metadata directly.
func AWSManagedKeyPolicy(service, account, region string) (json.RawMessage, bool) {
	m, ok := managedKeys[service]
	if !ok {
		return nil, false
	}
	stmts := []map[string]any{
		{
			"Sid":    "Allow access through " + m.name + " for all principals in the account that are authorized to use " + m.name,
			"Effect": "Allow", "Principal": map[string]any{"AWS": "*"}, "Action": m.actions, "Resource": "*",
			"Condition": map[string]any{"StringEquals": map[string]any{
				"kms:CallerAccount": account, "kms:ViaService": service + "." + region + ".amazonaws.com"}},
		},
		{
			"Sid": "Allow direct access to key metadata to the account", "Effect": "Allow",
			"Principal": map[string]any{"AWS": "arn:aws:iam::" + account + ":root"},
			"Action":    []string{"kms:Describe*", "kms:Get*", "kms:List*", "kms:RevokeGrant"}, "Resource": "*",
		},
	}
	doc, err := json.Marshal(map[string]any{"Version": "2012-10-17", "Id": "auto-" + service + "-1", "Statement": stmts})
	if err != nil {
		return nil, false
	}
	return doc, true
}

// managedKeys are the AWS managed keys whose policies the sandbox knows:
// the service's name in the policy's Sid and the actions it grants
// through the service.
var managedKeys = map[string]struct {
	name    string
	actions []string
}{
	"dynamodb": {"Amazon DynamoDB", []string{"kms:Encrypt", "kms:Decrypt", "kms:ReEncrypt*", "kms:GenerateDataKey*", "kms:CreateGrant", "kms:DescribeKey"}},
}
