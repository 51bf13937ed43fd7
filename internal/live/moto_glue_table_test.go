package live_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/glue"
	gluetypes "github.com/aws/aws-sdk-go-v2/service/glue/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
)

// TestMotoGlueTable: a database and table created in moto through the SDK,
// the table read back by the reader.
func TestMotoGlueTable(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	g := glue.NewFromConfig(cfg)
	if _, err := g.CreateDatabase(cx, &glue.CreateDatabaseInput{DatabaseInput: &gluetypes.DatabaseInput{Name: aws.String("moto_db")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := g.CreateTable(cx, &glue.CreateTableInput{DatabaseName: aws.String("moto_db"), TableInput: &gluetypes.TableInput{Name: aws.String("events"),
		TableType: aws.String("EXTERNAL_TABLE"), Parameters: map[string]string{"classification": "json"},
		StorageDescriptor: &gluetypes.StorageDescriptor{Columns: []gluetypes.Column{{Name: aws.String("id"), Type: aws.String("string")}}, Location: aws.String("s3://moto-bucket/events/")}}}); err != nil {
		t.Fatal(err)
	}
	c := live.NewClients(cfg)
	got := live.Read(cx, c, live.Request{Type: "AWS::Glue::Table", PhysicalID: "events", Declared: map[string]any{"DatabaseName": "moto_db"}})
	if got.Status != live.Found {
		t.Fatalf("read: %+v", got)
	}
	ti, _ := got.Model["TableInput"].(map[string]any)
	if got.Model["DatabaseName"] != "moto_db" || ti["Name"] != "events" || ti["TableType"] != "EXTERNAL_TABLE" {
		t.Errorf("model %v", got.Model)
	}
	if diff := cmp.Diff(ti["Parameters"], map[string]any{"classification": "json"}); diff != "" {
		t.Errorf("parameters (-got +want):\n%s", diff)
	}
	sd, _ := ti["StorageDescriptor"].(map[string]any)
	if sd["Location"] != "s3://moto-bucket/events/" {
		t.Errorf("storage descriptor %v", sd)
	}
	for _, k := range []string{"DatabaseName", "CatalogId", "CreateTime", "UpdateTime"} {
		if _, ok := ti[k]; ok {
			t.Errorf("Glue's own %s kept in TableInput: %v", k, ti)
		}
	}
	if got := live.Read(cx, c, live.Request{Type: "AWS::Glue::Table", PhysicalID: "nope", Declared: map[string]any{"DatabaseName": "moto_db"}}); got.Status != live.NotFound {
		t.Errorf("missing table: %+v, want notFound", got)
	}
}
