package live_test

import (
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const glueTable = `{"DatabaseName":"logs_db","TableInput":{"Name":"access_logs","TableType":"EXTERNAL_TABLE","Parameters":{"classification":"csv","skip.header.line.count":"1"},` +
	`"PartitionKeys":[{"Name":"dt","Type":"string"}],"StorageDescriptor":{"Columns":[{"Name":"id","Type":"string"},{"Name":"status","Type":"int"}],` +
	`"Location":"s3://logs-bucket/access/","InputFormat":"org.apache.hadoop.mapred.TextInputFormat","Compressed":false,` +
	`"SerdeInfo":{"SerializationLibrary":"org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe","Parameters":{"field.delim":","}}}}}`

// moto 5.2.1 serves Glue tables: see TestMotoGlueTable.
func TestGlueTableRoundTrip(t *testing.T) {
	srv, url := serve(t, worldOf(liveOnly("AWS::Glue::Table", "access_logs", glueTable)))
	c := live.NewClients(config(url))
	req := live.Request{Type: "AWS::Glue::Table", LogicalID: "Table", PhysicalID: "access_logs", Declared: declaredOf(t, glueTable)}
	overrideRoundTrip(t, c, srv, region, req, glueTable, "access_logs", "TableInput.TableType", `"VIRTUAL_VIEW"`)
	// The CatalogId is read as declared, and the identifier <database>|<name> names the table too.
	d := declaredOf(t, glueTable)
	d["CatalogId"] = acct
	if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: "logs_db|access_logs", Declared: d}); got.Status != live.Found || got.Model["CatalogId"] != acct {
		t.Errorf("by compound id with a catalog: %+v", got)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: "gone", Declared: declaredOf(t, glueTable)}); got.Status != live.NotFound {
		t.Errorf("missing table: %+v, want notFound", got)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: "access_logs"}); got.Status != live.Skipped {
		t.Errorf("no declared database: %+v, want skipped", got)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "glue", Action: "GetTable", Code: "AccessDeniedException", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, req); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "Glue GetTable: AccessDeniedException") {
		t.Errorf("denied: %+v, want skipped", got)
	}
}
