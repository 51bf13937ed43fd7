package classify

import (
	"testing"

	"github.com/realdrift/realdrift/internal/drift"
)

func TestAccountDefault(t *testing.T) {
	r := &run{opts: Options{AccountID: "111111111111", Region: "us-east-1",
		KMSAliasTargets: map[string]string{"alias/aws/s3": "b471f899-bf30-4944-a7d9-70f37d183eaa"}}}
	tests := []struct {
		name string
		v    any
		want bool
	}{
		{"own account folds", "111111111111", true},
		{"another account surfaces", "222222222222", false},
		{"own root ARN folds", "arn:aws:iam::111111111111:root", true},
		{"own region folds", "us-east-1", true},
		{"another region surfaces", "eu-west-1", false},
		{"own region list folds", []any{"us-east-1"}, true},
		{"widened region list surfaces", []any{"us-east-1", "eu-west-1"}, false},
		{"AWS-owned key folds", "AWS_OWNED_KMS_KEY", true},
		{"AWS-owned key object folds", map[string]any{"Type": "AWS_OWNED_KEY"}, true},
		{"customer key object surfaces", map[string]any{"Type": "CUSTOMER_MANAGED_KMS_KEY", "KmsKeyId": "k"}, false},
		{"AWS-owned flag folds", map[string]any{"UseAwsOwnedKey": true}, true},
		{"own-key flag surfaces", map[string]any{"UseAwsOwnedKey": false, "KmsKeyId": "k"}, false},
		{"managed alias of this account folds", "arn:aws:kms:us-east-1:111111111111:alias/aws/s3", true},
		{"another managed alias name surfaces", "arn:aws:kms:us-east-1:111111111111:alias/aws/s4", false},
		{"custom alias surfaces", "arn:aws:kms:us-east-1:111111111111:alias/mine", false},
		{"managed alias of another account surfaces", "arn:aws:kms:us-east-1:222222222222:alias/aws/s3", false},
		{"ordinary role surfaces", "arn:aws:iam::111111111111:role/MyRole", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.accountDefault(tt.v); got != tt.want {
				t.Errorf("accountDefault(%v) = %v, want %v", tt.v, got, tt.want)
			}
		})
	}
	keyed := &run{opts: Options{AccountID: "111111111111", Region: "us-east-1",
		KMSAliasTargets: map[string]string{"alias/aws/ebs": "76039e55-2469-4c94-95ab-e12d8615bb98"}}}
	if !keyed.accountDefault("arn:aws:kms:us-east-1:111111111111:key/76039e55-2469-4c94-95ab-e12d8615bb98") {
		t.Error("the account's AWS-managed key should fold")
	}
	if keyed.accountDefault("arn:aws:kms:us-east-1:111111111111:key/11111111-2469-4c94-95ab-e12d8615bb98") {
		t.Error("a customer key must surface")
	}
	if (&run{}).accountDefault("111111111111") {
		t.Error("without a known account nothing folds")
	}
}

func TestOwnServiceManagedAlias(t *testing.T) {
	kvs := &run{s: Subject{Ref: drift.ResourceRef{Type: "AWS::KinesisVideo::Stream"}}, opts: Options{AccountID: "111111111111", Region: "us-east-1"}}
	tests := []struct {
		name string
		v    string
		want bool
	}{
		{"own service's managed alias folds", "arn:aws:kms:us-east-1:111111111111:alias/aws/kinesisvideo", true},
		{"another service's managed alias surfaces", "arn:aws:kms:us-east-1:111111111111:alias/aws/s3", false},
		{"own service's alias in another region surfaces", "arn:aws:kms:eu-west-1:111111111111:alias/aws/kinesisvideo", false},
		{"a customer alias surfaces", "arn:aws:kms:us-east-1:111111111111:alias/kinesisvideo", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := kvs.accountDefault(tt.v); got != tt.want {
				t.Errorf("accountDefault(%v) = %v, want %v", tt.v, got, tt.want)
			}
		})
	}
	if got := ownServiceAlias("Custom::Thing"); got != "" {
		t.Errorf("ownServiceAlias(Custom::Thing) = %q, want none", got)
	}
}

func TestOwnServiceLinkedRole(t *testing.T) {
	batch := &run{s: Subject{Ref: drift.ResourceRef{Type: "AWS::Batch::ComputeEnvironment"}}, opts: Options{AccountID: "111111111111", Region: "us-east-1"}}
	tests := []struct {
		name string
		v    string
		want bool
	}{
		{"own service's default service-linked role folds", "arn:aws:iam::111111111111:role/aws-service-role/batch.amazonaws.com/AWSServiceRoleForBatch", true},
		{"custom-suffixed service-linked role surfaces", "arn:aws:iam::111111111111:role/aws-service-role/batch.amazonaws.com/AWSServiceRoleForBatch_mine", false},
		{"another service's service-linked role surfaces", "arn:aws:iam::111111111111:role/aws-service-role/ecs.amazonaws.com/AWSServiceRoleForECS", false},
		{"another account's service-linked role surfaces", "arn:aws:iam::222222222222:role/aws-service-role/batch.amazonaws.com/AWSServiceRoleForBatch", false},
		{"an ordinary role surfaces", "arn:aws:iam::111111111111:role/AWSServiceRoleForBatch", false},
		{"a changed letter in the role name surfaces", "arn:aws:iam::111111111111:role/aws-service-role/batch.amazonaws.com/AWSServiceRoleForBatcg", false},
		{"another role name of the same service surfaces", "arn:aws:iam::111111111111:role/aws-service-role/batch.amazonaws.com/AWSServiceRoleForBatchSpot", false},
		{"a bare prefix surfaces", "arn:aws:iam::111111111111:role/aws-service-role/batch.amazonaws.com/AWSServiceRoleFor", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := batch.accountDefault(tt.v); got != tt.want {
				t.Errorf("accountDefault(%v) = %v, want %v", tt.v, got, tt.want)
			}
		})
	}
	ssm := &run{s: Subject{Ref: drift.ResourceRef{Type: "AWS::SSM::MaintenanceWindowTask"}}, opts: Options{AccountID: "111111111111"}}
	if !ssm.accountDefault("arn:aws:iam::111111111111:role/aws-service-role/ssm.amazonaws.com/AWSServiceRoleForAmazonSSM") {
		t.Error("the brand-prefixed default service-linked role should fold")
	}
	if (&run{s: Subject{Ref: drift.ResourceRef{Type: "AWS::Batch::ComputeEnvironment"}}}).accountDefault("arn:aws:iam::111111111111:role/aws-service-role/batch.amazonaws.com/AWSServiceRoleForBatch") {
		t.Error("without a known account the service-linked role must not fold")
	}
}

// The one security group AWS attaches when a template names none folds;
// with the account's default groups known, only one of them does.
func TestDefaultSecurityGroup(t *testing.T) {
	tests := []struct {
		name     string
		defaults []string
		live     any
		want     string
	}{
		{"one group, defaults not asked", nil, []any{"sg-0123456789abcdef0"}, `atDefault SecurityGroupIds ["sg-0123456789abcdef0"]`},
		{"two groups", nil, []any{"sg-0123456789abcdef0", "sg-0fedcba9876543210"}, `undeclared SecurityGroupIds ["sg-0123456789abcdef0","sg-0fedcba9876543210"]`},
		{"not a group id", nil, []any{"sg-oob"}, `undeclared SecurityGroupIds ["sg-oob"]`},
		{"the account's default group", []string{"sg-0123456789abcdef0"}, []any{"sg-0123456789abcdef0"}, `atDefault SecurityGroupIds ["sg-0123456789abcdef0"]`},
		{"a group that is not the default", []string{"sg-0fedcba9876543210"}, []any{"sg-0123456789abcdef0"}, `undeclared SecurityGroupIds ["sg-0123456789abcdef0"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{Known: &KnownTable{}, AccountID: "111111111111", Region: "eu-west-1", DefaultSecurityGroups: tt.defaults}
			s := Subject{Ref: drift.ResourceRef{Type: "AWS::DAX::Cluster", PhysicalID: "cluster-abc"}}
			got := brief(Resource(s, map[string]any{"SecurityGroupIds": tt.live}, nil, opts))
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
