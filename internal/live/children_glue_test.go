package live_test

import (
	"testing"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestEnumerateGlueTables: a database's out-of-band table is added with
// the Glue Table reader's projection as its model; the declared table
// (by name, or "<database>|<name>"), one a sibling stack owns and a table
// of another database are not; GetTables denied skips the database.
func TestEnumerateGlueTables(t *testing.T) {
	table := func(db, name string) string {
		return `{"DatabaseName":"` + db + `","CatalogId":"` + acct + `","TableInput":{"Name":"` + name + `","TableType":"EXTERNAL_TABLE","Parameters":{"classification":"json"}}}`
	}
	runFamily(t, familyCase{
		world: []*sandbox.Resource{
			liveOnly("AWS::Glue::Database", "sales", `{"DatabaseName":"sales","DatabaseInput":{"Name":"sales"}}`),
			liveOnly("AWS::Glue::Database", "other", `{"DatabaseName":"other","DatabaseInput":{"Name":"other"}}`),
			liveOnly("AWS::Glue::Table", "orders", table("sales", "orders")),
			liveOnly("AWS::Glue::Table", "sales|refunds", table("sales", "refunds")),
			liveOnly("AWS::Glue::Table", "console_made", table("sales", "console_made")),
			liveOnly("AWS::Glue::Table", "elsewhere", table("other", "elsewhere")),
		},
		sibling: []*sandbox.Resource{owned("Shared", "AWS::Glue::Table", "shared", table("sales", "shared"))},
		parent:  live.StackResource{LogicalID: "Db", Type: "AWS::Glue::Database", PhysicalID: "sales", Declared: map[string]any{"CatalogId": acct}},
		stack: []live.StackResource{
			{LogicalID: "Db", Type: "AWS::Glue::Database", PhysicalID: "sales"},
			{LogicalID: "Orders", Type: "AWS::Glue::Table", PhysicalID: "orders"},
			{LogicalID: "Refunds", Type: "AWS::Glue::Table", PhysicalID: "sales|refunds"},
		},
		want: []string{"AWS::Glue::Table sales|console_made"},
		models: map[string]map[string]any{"sales|console_made": {"DatabaseName": "sales", "TableInput": map[string]any{
			"Name": "console_made", "TableType": "EXTERNAL_TABLE", "Parameters": map[string]any{"classification": "json"}}}},
		service: "glue", action: "GetTables", denied: "Glue GetTables: AccessDenied",
	})
}
