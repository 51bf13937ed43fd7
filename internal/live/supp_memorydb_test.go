package live_test

import (
	"testing"

	"github.com/realdrift/realdrift/internal/live"
)

// moto 5.2.1's MemoryDB serves clusters, subnet groups and snapshots but
// no users (DescribeUsers) and no parameter groups (DescribeParameters):
// these supplements are checked against the sandbox only.

func TestMemoryDBUserSupplement(t *testing.T) {
	const declared = `{"UserName":"app","AccessString":"on ~app:* &* +@read","AuthenticationMode":{"Type":"iam"}}`
	srv, url := serve(t, worldOf(
		liveOnly("AWS::MemoryDB::User", "app", declared),
		liveOnly("AWS::MemoryDB::User", "app2", `{"UserName":"app2","AccessString":"off"}`),
	))
	c := live.NewClients(config(url))
	supplementRoundTrip(t, c, srv, supplementCase{
		req:  live.Request{Type: "AWS::MemoryDB::User", LogicalID: "App", PhysicalID: "app", Declared: declaredOf(t, declared)},
		want: map[string]any{"AccessString": "on ~app:* &* +@read"},
		id:   "app", path: "AccessString", value: `"on ~* &* +@all"`,
		deny: "memorydb:DescribeUsers",
	})
}

// TestMemoryDBParameterGroupSupplement: only the declared parameters are
// read (the group answers the family's defaults too).
func TestMemoryDBParameterGroupSupplement(t *testing.T) {
	const declared = `{"ParameterGroupName":"app-pg","Family":"memorydb_redis7","Description":"app","Parameters":{"maxmemory-policy":"allkeys-lru","timeout":"300"}}`
	srv, url := serve(t, worldOf(
		liveOnly("AWS::MemoryDB::ParameterGroup", "app-pg", `{"ParameterGroupName":"app-pg","Family":"memorydb_redis7","Description":"app","Parameters":{"maxmemory-policy":"allkeys-lru","timeout":300,"activedefrag":"no"}}`),
	))
	c := live.NewClients(config(url))
	supplementRoundTrip(t, c, srv, supplementCase{
		req:  live.Request{Type: "AWS::MemoryDB::ParameterGroup", LogicalID: "Pg", PhysicalID: "app-pg", Declared: declaredOf(t, declared)},
		want: map[string]any{"Parameters": map[string]any{"maxmemory-policy": "allkeys-lru", "timeout": "300"}},
		id:   "app-pg", path: "Parameters", value: `{"maxmemory-policy":"noeviction","timeout":"300","activedefrag":"no"}`,
		deny: "memorydb:DescribeParameters",
	})
}
