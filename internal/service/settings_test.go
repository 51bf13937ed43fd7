package service

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestSettingsFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    Settings
		wantErr bool
	}{
		{
			name: "defaults",
			env:  map[string]string{EnvTable: "t"},
			want: Settings{Table: "t", Debounce: DefaultDebounce, StateTTL: DefaultStateTTL, IndexTTL: DefaultIndexTTL,
				ReadBatch: DefaultReadBatch, ParentBatch: DefaultParentBatch, Concurrency: 8, RevertWait: DefaultRevertWait,
				ReadRate: DefaultReadRate, ReadDeadline: DefaultReadDeadline, AccountsAtOnce: DefaultAccountsAtOnce},
		},
		{
			name: "every knob",
			env: map[string]string{
				EnvTable: "t", EnvRegions: "us-east-1, eu-west-1", EnvReadRoleName: "realdrift-read", EnvAccounts: "1,2",
				EnvTopicARN: "arn:topic", EnvSlackSecret: "arn:secret", EnvEventBus: "bus", EnvCheckStackARN: "arn:sm",
				EnvIgnoreScopes: "org", EnvDebounce: "30", EnvStateTTL: "2", EnvIndexTTL: "48", EnvReadBatch: "5",
				EnvParentBatch: "3", EnvConcurrency: "4", EnvEndpointURL: "http://sandbox", EnvDynamoDBURL: "http://ddb", EnvEventBridgeURL: "http://events", EnvSNSURL: "https://sns.local",
				EnvRevertRoleName: "realdrift-revert", EnvRevertTypes: "SQS::Queue, AWS::SNS::Topic,Acme::Widget::Thing", EnvApprovalURL: "https://approve.example/", EnvRevertWait: "90", EnvRevertARN: "arn:aws:states:us-east-1:1:stateMachine:realdrift-revert",
				EnvSecurityHub: "on", EnvFindingsRole: "realdrift-findings",
			},
			want: Settings{
				Table: "t", Regions: []string{"us-east-1", "eu-west-1"}, ReadRoleName: "realdrift-read", Accounts: []string{"1", "2"},
				TopicARN: "arn:topic", SlackSecretID: "arn:secret", EventBus: "bus", CheckStackARN: "arn:sm", IgnoreScopes: []string{"org"},
				Debounce: 30 * time.Second, StateTTL: 2 * time.Hour, IndexTTL: 48 * time.Hour, ReadBatch: 5, ParentBatch: 3, Concurrency: 4,
				RevertRoleName: "realdrift-revert", RevertTypes: []string{"AWS::SQS::Queue", "AWS::SNS::Topic", "Acme::Widget::Thing"}, ApprovalURL: "https://approve.example/", RevertWait: 90 * time.Second,
				RevertStateMachineARN: "arn:aws:states:us-east-1:1:stateMachine:realdrift-revert", SecurityHub: true, FindingsRoleName: "realdrift-findings",
				ReadRate: DefaultReadRate, ReadDeadline: DefaultReadDeadline, AccountsAtOnce: DefaultAccountsAtOnce,
				Endpoints: Endpoints{Default: "http://sandbox", DynamoDB: "http://ddb", EventBridge: "http://events", SNS: "https://sns.local"},
			},
		},
		{name: "no table", env: map[string]string{}, wantErr: true},
		{name: "bad number", env: map[string]string{EnvTable: "t", EnvReadBatch: "0"}, wantErr: true},
		{name: "bad duration", env: map[string]string{EnvTable: "t", EnvDebounce: "5m"}, wantErr: true},
		{name: "bad region", env: map[string]string{EnvTable: "t", EnvRegions: "us east"}, wantErr: true},
		{name: "bad security hub switch", env: map[string]string{EnvTable: "t", EnvSecurityHub: "yes please"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SettingsFromEnv(func(k string) string { return tt.env[k] })
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
		})
	}
}
