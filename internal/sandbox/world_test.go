package sandbox_test

import (
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox"
)

func TestParseWorldNamesProblems(t *testing.T) {
	const ok = `{"id":"111111111111","regions":[{"name":"us-east-1","stacks":[{"name":"S","templateBody":"{}"}]}]}`
	tests := []struct {
		name, world string
		want        []string
	}{
		{"not json", `{`, []string{"decode"}},
		{"unknown key", `{"acounts":[]}`, []string{`unknown field "acounts"`}},
		{"wrong type names the place", "{\"accounts\":[\n {\"id\":111111111111}]}", []string{"decode at line 2", "accounts.id"}},
		{"syntax error names the place", "{\"accounts\":[\n {\"id\" \"x\"}]}", []string{"decode at 2:8"}},
		{"no account", `{"accounts":[]}`, []string{"no account"}},
		{"bad account id", `{"accounts":[{"id":"12","regions":[]}]}`, []string{`accounts[0]: id "12"`}},
		{"duplicate account", `{"accounts":[` + ok + `,` + ok + `]}`, []string{"appears twice"}},
		{"bad default", `{"defaultAccount":"999999999999","accounts":[` + ok + `]}`, []string{"defaultAccount"}},
		{"bad region", `{"accounts":[{"id":"111111111111","regions":[{"name":"moon-1"}]}]}`, []string{`accounts[0].regions[0]: "moon-1"`}},
		{"bad stack", `{"accounts":[{"id":"111111111111","regions":[{"name":"us-east-1","stacks":[{"name":"9x","status":"HAPPY","templateBody":"{"}]}]}]}`,
			[]string{"stack name \"9x\"", `status "HAPPY"`, "not valid JSON"}},
		{"stack id mismatch", `{"accounts":[{"id":"111111111111","regions":[{"name":"us-east-1","stacks":[{"name":"S","id":"arn:aws:cloudformation:us-west-2:111111111111:stack/S/abc","templateBody":"{}"}]}]}]}`,
			[]string{"does not match region us-east-1"}},
		{"bad resources", `{"accounts":[{"id":"111111111111","regions":[{"name":"us-east-1","stacks":[{"name":"S","templateBody":"{}","resources":[
			{"logicalId":"A","type":"AWS::SQS::Queue","physicalId":"q","properties":[1]},
			{"logicalId":"A","type":"NotAType","physicalId":"r"}]}]}]}]}`,
			[]string{"properties must be a JSON object", "logical id A appears twice", `type "NotAType"`}},
		{"shared identifier", `{"accounts":[{"id":"111111111111","regions":[{"name":"us-east-1","resources":[
			{"type":"AWS::SQS::Queue","identifier":"q","properties":{}},{"type":"AWS::SQS::Queue","identifier":"q","properties":{}}]}]}]}`,
			[]string{`AWS::SQS::Queue "q" is already used`}},
		{"bad key", `{"accounts":[{"id":"111111111111","accessKeys":[{"id":"lower"}],"regions":[]}]}`, []string{"access key id"}},
		{"bad organization", `{"organization":{"id":"x","managementAccountId":"222222222222"},"accounts":[` + ok + `]}`, []string{"organization.id", "organization.managementAccountId"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sandbox.ParseWorld([]byte(tt.world))
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
		})
	}
	w, err := sandbox.ParseWorld([]byte(`{"accounts":[` + ok + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	s := w.Accounts[0].Regions[0].Stacks[0]
	if w.DefaultAccount != "111111111111" || s.Status != "CREATE_COMPLETE" || s.ID != sandbox.StackID("us-east-1", "111111111111", "S") {
		t.Errorf("defaults not filled: %+v %+v", w, s)
	}
}
