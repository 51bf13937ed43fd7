package live_test

import (
	"testing"

	"github.com/realdrift/realdrift/internal/live"
)

// moto 5.2.1's kafka serves clusters but no configurations
// (DescribeConfiguration, DescribeConfigurationRevision): this supplement
// is checked against the sandbox only.

func TestMSKConfigurationSupplement(t *testing.T) {
	const arn = "arn:aws:kafka:us-east-1:" + acct + ":configuration/app-conf/0b3f8a3c-1111-4222-8333-444455556666-2"
	const declared = `{"Name":"app-conf","ServerProperties":"auto.create.topics.enable=false\nlog.retention.hours=48\n"}`
	srv, url := serve(t, worldOf(
		liveOnly("AWS::MSK::Configuration", arn, `{"Arn":"`+arn+`","Name":"app-conf","ServerProperties":"auto.create.topics.enable=false\nlog.retention.hours=48\n","LatestRevision":{"Revision":2}}`),
	))
	c := live.NewClients(config(url))
	supplementRoundTrip(t, c, srv, supplementCase{
		req:  live.Request{Type: "AWS::MSK::Configuration", LogicalID: "Conf", PhysicalID: arn, Declared: declaredOf(t, declared)},
		want: map[string]any{"ServerProperties": "auto.create.topics.enable=false\nlog.retention.hours=48\n"},
		id:   arn, path: "ServerProperties", value: `"auto.create.topics.enable=true\nlog.retention.hours=48\n"`,
		deny: "kafka:DescribeConfigurationRevision",
	})
}
