package scan_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/scan"
)

// TestKMSAliasTargetsFromTheRegion: a stack whose declared values use an
// AWS managed alias gets the region's managed aliases (KMS ListAliases;
// customer aliases left out); a stack that uses none does not look them up.
func TestKMSAliasTargetsFromTheRegion(t *testing.T) {
	const key = "0f0f0f0f-1111-2222-3333-444444444444"
	tests := []struct {
		name  string
		kms   any
		want  map[string]string
		drift []string // paths with declared drift
	}{
		{"uses alias/aws/sqs", "alias/aws/sqs", map[string]string{"alias/aws/sqs": key, "alias/aws/s3": "5e5e5e5e-1111-2222-3333-444444444444"}, nil},
		{"uses an alias ARN", "arn:aws:kms:us-east-1:111111111111:alias/aws/sqs", map[string]string{"alias/aws/sqs": key, "alias/aws/s3": "5e5e5e5e-1111-2222-3333-444444444444"}, nil},
		{"uses a managed alias of another key", "alias/aws/s3", map[string]string{"alias/aws/sqs": key, "alias/aws/s3": "5e5e5e5e-1111-2222-3333-444444444444"}, []string{"KmsMasterKeyId"}},
		{"uses a key", key, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := world(t, "Kms", []res{{logical: "Q", typ: "AWS::SQS::Queue", physical: "https://sqs.us-east-1.amazonaws.com/111111111111/Kms-Q",
				props: map[string]any{"KmsMasterKeyId": tt.kms}, live: map[string]any{"KmsMasterKeyId": key}}}, nil)
			w.Accounts[0].Regions[0].KMSAliases = map[string]string{"alias/aws/sqs": key, "alias/aws/s3": "5e5e5e5e-1111-2222-3333-444444444444", "alias/app": key}
			_, url := startSandbox(t, w)
			res, err := scan.Check(testCtx(t), clients(t, url, "AKIATEST000000000001"), drift.StackRef{Account: acct, Region: region, Name: "Kms"}, scan.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(res.Desired.KMSAliasTargets, tt.want); diff != "" {
				t.Errorf("alias targets (-got +want):\n%s", diff)
			}
			var got []string
			for _, f := range res.Findings {
				if f.Tier == drift.Declared {
					got = append(got, f.Path)
				}
			}
			if diff := cmp.Diff(got, tt.drift); diff != "" {
				t.Errorf("declared drift (-got +want):\n%s", diff)
			}
		})
	}
}

func TestUsesManagedAlias(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want bool
	}{
		{"bare alias", "alias/aws/s3", true},
		{"alias arn", "arn:aws:kms:us-east-1:111111111111:alias/aws/sqs", true},
		{"nested in a list in a map", map[string]any{"Enc": []any{"x", map[string]any{"KmsKeyId": "alias/aws/sns"}}}, true},
		{"customer alias", "alias/mine", false},
		{"key id", "1234abcd-12ab-34cd-56ef-1234567890ab", false},
		{"not a string", 42.0, false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := scan.UsesManagedAlias(tt.v); got != tt.want {
				t.Errorf("UsesManagedAlias(%#v) = %v, want %v", tt.v, got, tt.want)
			}
		})
	}
}

// TestKMSAliasTargetsForAnUndeclaredKey: a resource whose template names no
// key but whose live model holds one (encryption with the key AWS picked)
// makes the check list the managed aliases after the reads: the key is
// atDefault when it is a managed key, undeclared drift when it is a
// customer key.
func TestKMSAliasTargetsForAnUndeclaredKey(t *testing.T) {
	const managed, customer = "0f0f0f0f-1111-2222-3333-444444444444", "7a7a7a7a-1111-2222-3333-444444444444"
	arn := func(k string) string { return "arn:aws:kms:" + region + ":" + acct + ":key/" + k }
	tests := []struct {
		name    string
		key     string
		aliases bool
		tier    drift.Tier
	}{
		{"the managed key", arn(managed), true, drift.AtDefault},
		{"a customer key", arn(customer), true, drift.Undeclared},
		{"no key", "", false, drift.TierUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			liveModel := map[string]any{"QueueName": "Fs-F"}
			if tt.key != "" {
				liveModel["KmsMasterKeyId"] = tt.key
			}
			w := world(t, "Fs", []res{{logical: "F", typ: "AWS::SQS::Queue", physical: "https://sqs.us-east-1.amazonaws.com/111111111111/Fs-F", props: map[string]any{"QueueName": "Fs-F"}, live: liveModel}}, nil)
			w.Accounts[0].Regions[0].KMSAliases = map[string]string{"alias/aws/sqs": managed, "alias/app": customer}
			_, url := startSandbox(t, w)
			res, err := scan.Check(testCtx(t), clients(t, url, "AKIATEST000000000001"), drift.StackRef{Account: acct, Region: region, Name: "Fs"}, scan.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Desired.KMSAliasTargets != nil; got != tt.aliases {
				t.Errorf("aliases listed: %v, want %v", got, tt.aliases)
			}
			var got drift.Tier
			for _, f := range res.Findings {
				if f.Path == "KmsMasterKeyId" {
					got = f.Tier
				}
			}
			if got != tt.tier {
				t.Errorf("KmsMasterKeyId: tier %v, want %v (findings %v)", got, tt.tier, res.Findings)
			}
		})
	}
}
