package live

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/glue"
)

// AWS::Glue::Table (Cloud Control cannot read it in full) through GetTable
// by the declared DatabaseName (and CatalogId, when declared) and the
// table's name (the physical id, or its part after "<database>|" or
// "<database>/"): {CatalogId (as declared), DatabaseName, TableInput}. The
// API's Table is the template's TableInput with Glue's own members added;
// it is read from the answer's JSON as Glue sent it, so a member Glue
// leaves out stays absent (the SDK's output reads a missing Retention as
// 0), and the members that are Glue's own (database, catalog, times,
// creator, version, Lake Formation registration, status, federation) are
// dropped. OpenTableFormatInput is input only: a readGap.

type glueTableAPI interface {
	GetTable(ctx context.Context, in *glue.GetTableInput, optFns ...func(*glue.Options)) (*glue.GetTableOutput, error)
}

var _ glueTableAPI = (*glue.Client)(nil)

// glueTableInputProps are the members of Glue's Table that are the
// template's TableInput.
var glueTableInputProps = fieldsAs("Name", "Description", "Owner", "Retention", "StorageDescriptor", "PartitionKeys", "ViewOriginalText",
	"ViewExpandedText", "TableType", "Parameters", "TargetTable", "ViewDefinition")

// readGlueTable reads AWS::Glue::Table.
func readGlueTable(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.Glue == nil {
		return nil, skip("no Glue client")
	}
	db, err := declaredString(r.Declared, "DatabaseName")
	if err != nil {
		return nil, err
	}
	name := r.PhysicalID
	for _, sep := range []string{"|", "/"} {
		name = strings.TrimPrefix(name, db+sep)
	}
	in := &glue.GetTableInput{DatabaseName: &db, Name: &name}
	model := map[string]any{"DatabaseName": db}
	if _, ok := r.Declared["CatalogId"]; ok {
		id, err := declaredString(r.Declared, "CatalogId")
		if err != nil {
			return nil, err
		}
		in.CatalogId, model["CatalogId"] = &id, id
	}
	var raw rawJSON
	out, err := c.Glue.GetTable(ctx, in, func(o *glue.Options) { o.APIOptions = append(o.APIOptions, raw.option) })
	if err != nil {
		return nil, err
	}
	t, err := raw.object("Table")
	if err != nil {
		return nil, err
	}
	if out.Table == nil || t == nil {
		return nil, fmt.Errorf("Glue table %s.%s: %w", db, name, ErrNotFound)
	}
	model["TableInput"] = pickKeys(t, glueTableInputProps)
	return model, nil
}
