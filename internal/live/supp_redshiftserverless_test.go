package live_test

import (
	"testing"

	"github.com/realdrift/realdrift/internal/live"
)

// moto 5.2.1 does not serve redshift-serverless at all: this supplement is
// checked against the sandbox only.

func TestRSWorkgroupSupplement(t *testing.T) {
	const declared = `{"WorkgroupName":"analytics","NamespaceName":"analytics-ns","BaseCapacity":8,` +
		`"ConfigParameters":[{"ParameterKey":"max_query_execution_time","ParameterValue":"3600"}],` +
		`"SecurityGroupIds":["sg-0aa","sg-0bb"],"SubnetIds":["subnet-01","subnet-02","subnet-03"]}`
	srv, url := serve(t, worldOf(
		liveOnly("AWS::RedshiftServerless::Workgroup", "analytics", `{"WorkgroupName":"analytics","NamespaceName":"analytics-ns","BaseCapacity":8,`+
			`"ConfigParameters":[{"ParameterKey":"auto_mv","ParameterValue":"true"},{"ParameterKey":"datestyle","ParameterValue":"ISO, MDY"},`+
			`{"ParameterKey":"max_query_execution_time","ParameterValue":"3600"}],`+
			`"SecurityGroupIds":["sg-0bb","sg-0aa"],"SubnetIds":["subnet-03","subnet-01","subnet-02"]}`),
	))
	c := live.NewClients(config(url))
	supplementRoundTrip(t, c, srv, supplementCase{
		req: live.Request{Type: "AWS::RedshiftServerless::Workgroup", LogicalID: "Wg", PhysicalID: "analytics", Declared: declaredOf(t, declared)},
		want: map[string]any{
			"ConfigParameters": []any{
				map[string]any{"ParameterKey": "auto_mv", "ParameterValue": "true"},
				map[string]any{"ParameterKey": "datestyle", "ParameterValue": "ISO, MDY"},
				map[string]any{"ParameterKey": "max_query_execution_time", "ParameterValue": "3600"},
			},
			"SecurityGroupIds": []any{"sg-0bb", "sg-0aa"},
			"SubnetIds":        []any{"subnet-03", "subnet-01", "subnet-02"},
		},
		id: "analytics", path: "SecurityGroupIds", value: `["sg-0aa","sg-0cc"]`,
		deny: "redshift-serverless:GetWorkgroup",
	})
}
