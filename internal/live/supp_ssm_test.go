package live_test

import (
	"testing"

	"github.com/realdrift/realdrift/internal/live"
)

func TestSSMParameterSupplement(t *testing.T) {
	const declared = `{"Name":"/app/flag","Type":"String","Value":"on","Description":"feature flag","AllowedPattern":"^(on|off)$","Tier":"Standard"}`
	srv, url := serve(t, worldOf(
		liveOnly("AWS::SSM::Parameter", "/app/flag", `{"Name":"/app/flag","Type":"String","Value":"on","DataType":"text","Description":"feature flag","AllowedPattern":"^(on|off)$","Tier":"Standard"}`),
		liveOnly("AWS::SSM::Parameter", "/app/flag-other", `{"Name":"/app/flag-other","Type":"String","Value":"x","Description":"not this one"}`),
	))
	c := live.NewClients(config(url))
	supplementRoundTrip(t, c, srv, supplementCase{
		req:  live.Request{Type: "AWS::SSM::Parameter", LogicalID: "Flag", PhysicalID: "/app/flag", Declared: declaredOf(t, declared)},
		want: map[string]any{"Description": "feature flag", "AllowedPattern": "^(on|off)$", "Tier": "Standard"},
		id:   "/app/flag", path: "Description", value: `"changed in the console"`,
		deny: "ssm:DescribeParameters",
	})
}
