package main

import (
	"path/filepath"
	"testing"
)

// tableKeyCopy is the committed copy of how the table is encrypted: its
// SSESpecification and, when that names a customer managed key of the
// template, the key's policy. The service's end-to-end puts DynamoDB
// Local behind the sandbox's IAM and asks every item read and write the
// table key's policy, as DynamoDB uses the key for the caller.
var tableKeyCopy = filepath.Join("..", "testdata", "iam", "table-key.json")

// tableKey is the storage shape of tableKeyCopy.
type tableKey struct {
	Comment      string            `json:"comment"`
	Placeholders map[string]string `json:"placeholders"`
	// SSESpecification is the table's, a customer key's ARN given as the
	// {{TableKey}} placeholder. Without KMSMasterKeyId an enabled
	// specification is the AWS managed key aws/dynamodb, whose policy AWS
	// writes; a disabled or absent one is the AWS owned key, which asks
	// the caller nothing.
	SSESpecification map[string]any `json:"sseSpecification"`
	// KeyPolicy is the KeyPolicy of the customer key, or null.
	KeyPolicy any `json:"keyPolicy"`
}

// TestTableKeyCopy holds the committed copy equal to the synthesized
// table's encryption (go test -run TestTableKeyCopy -update rewrites it).
func TestTableKeyCopy(t *testing.T) {
	tables := resourcesOf(central, "AWS::DynamoDB::Table")
	if len(tables) != 1 {
		t.Fatalf("%d tables, want 1", len(tables))
	}
	table := tables[0]
	sse, _ := table.props["SSESpecification"].(map[string]any)
	want := tableKey{
		Comment:          "The table's SSESpecification and its customer managed key's policy (null: none) as infra synthesizes them, references resolved to placeholders (infra TestTableKeyCopy keeps this equal; -update rewrites it). The e2e asks every item read and write of the functions the key's policy.",
		Placeholders:     centralPlaceholders,
		SSESpecification: map[string]any{},
	}
	for k, v := range sse {
		want.SSESpecification[k] = v
	}
	if ref, ok := sse["KMSMasterKeyId"]; ok {
		want.KeyPolicy = keyPolicyOf(t, ref, "the table's")
		want.SSESpecification["KMSMasterKeyId"] = "{{TableKey}}"
		want.Placeholders = map[string]string{"{{TableKey}}": "the table's customer managed key's ARN"}
		for k, v := range centralPlaceholders {
			want.Placeholders[k] = v
		}
	}
	checkJSONCopy(t, want, tableKeyCopy, "table encryption")
}
