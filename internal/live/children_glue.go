package live

import (
	"context"
	"encoding/json"

	"github.com/aws/aws-sdk-go-v2/service/glue"
)

// The Glue family's children: the out-of-band tables of a declared
// AWS::Glue::Database, listed by GetTables (paged by NextToken).

type glueTablesAPI interface {
	GetTables(ctx context.Context, in *glue.GetTablesInput, optFns ...func(*glue.Options)) (*glue.GetTablesOutput, error)
}

var _ glueTablesAPI = (*glue.Client)(nil)

// databaseTables lists the tables of a declared database (physical id: its
// name; in the declared CatalogId, when declared) that the stack does not
// declare. A table's physical id is its name (the Glue Table reader also
// takes "<database>|<name>" and "<database>/<name>", so those count as
// declared too). Each child is identified "<database>|<name>" and its
// model is the Glue Table reader's projection of the listed table
// ({DatabaseName, TableInput}), so no second read happens. A database
// that is gone lists nothing: it is reported deleted itself.
func databaseTables(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.Glue == nil {
		return nil, skip("no Glue client")
	}
	db := parent.PhysicalID
	in := &glue.GetTablesInput{DatabaseName: &db}
	if _, ok := parent.Declared["CatalogId"]; ok {
		id, err := declaredString(parent.Declared, "CatalogId")
		if err != nil {
			return nil, err
		}
		in.CatalogId = &id
	}
	declared := declaredIDs(stack, "AWS::Glue::Table")
	var out []candidate
	for {
		var raw rawJSON
		page, err := c.Glue.GetTables(ctx, in, func(o *glue.Options) { o.APIOptions = append(o.APIOptions, raw.option) })
		if isNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		var body struct{ TableList []map[string]any }
		if err := json.Unmarshal(raw.body, &body); err != nil {
			return nil, skip("the GetTables answer is not JSON: " + err.Error())
		}
		for _, t := range body.TableList {
			name, _ := t["Name"].(string)
			if name == "" || declared[name] || declared[db+"|"+name] || declared[db+"/"+name] {
				continue
			}
			out = append(out, candidate{typ: "AWS::Glue::Table", id: db + "|" + name, physical: name,
				model: map[string]any{"DatabaseName": db, "TableInput": pickKeys(t, glueTableInputProps)}})
		}
		if deref(page.NextToken) == "" {
			return out, nil
		}
		in.NextToken = page.NextToken
	}
}
