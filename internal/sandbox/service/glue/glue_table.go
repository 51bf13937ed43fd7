package glue

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// Glue tables: GetTable answers the world's AWS::Glue::Table model whose
// DatabaseName and TableInput.Name (else the identifier's part after
// "<database>|") are the ones asked, as Glue's Table: the TableInput as the
// model holds it (parameters as the text Glue stores) with the database,
// the catalog (the account) and the times added. An unknown table is
// EntityNotFoundException. GetTables lists a database's tables so, ordered
// by name, in pages of MaxResults (default 100, at most 1000) and
// NextToken; a database that neither an AWS::Glue::Database model
// (DatabaseName, DatabaseInput.Name, else the identifier) nor a table
// names is EntityNotFoundException.

// glueTables returns the tables of database db in Glue's shape, by name.
func glueTables(st *world.State, c *wire.Call, db string) (map[string]map[string]any, error) {
	out := map[string]map[string]any{}
	for _, r := range st.OfType(c.Account, c.Region, "AWS::Glue::Table") {
		m, err := world.FieldObject(r)
		if err != nil {
			return nil, err
		}
		t, _ := m["TableInput"].(map[string]any)
		if t == nil {
			t = map[string]any{}
		}
		rdb, _ := m["DatabaseName"].(string)
		name, _ := t["Name"].(string)
		if name == "" {
			name = r.CCID()
			for _, sep := range []string{"|", "/"} {
				name = strings.TrimPrefix(name, rdb+sep)
			}
		}
		if rdb != db {
			continue
		}
		t["Name"], t["DatabaseName"], t["CatalogId"] = name, rdb, c.Account
		glueTextParams(t)
		if sd, ok := t["StorageDescriptor"].(map[string]any); ok {
			glueTextParams(sd)
			if serde, ok := sd["SerdeInfo"].(map[string]any); ok {
				glueTextParams(serde)
			}
		}
		t["CreateTime"], t["UpdateTime"], t["IsRegisteredWithLakeFormation"] = wire.Epoch(world.DefaultTime), wire.Epoch(world.DefaultTime), false
		out[name] = t
	}
	return out, nil
}

// glueDatabaseExists reports whether the world holds database db.
func glueDatabaseExists(st *world.State, c *wire.Call, db string) (bool, error) {
	for _, r := range st.OfType(c.Account, c.Region, "AWS::Glue::Database") {
		m, err := world.FieldObject(r)
		if err != nil {
			return false, err
		}
		name, _ := m["DatabaseName"].(string)
		if in, ok := m["DatabaseInput"].(map[string]any); ok && name == "" {
			name, _ = in["Name"].(string)
		}
		if name == "" {
			name = r.CCID()
		}
		if name == db {
			return true, nil
		}
	}
	return false, nil
}

func glueGetTable(st *world.State, c *wire.Call, in struct{ CatalogId, DatabaseName, Name string }) (any, error) {
	if in.CatalogId != "" && in.CatalogId != c.Account {
		return nil, wire.Errf(400, "AccessDeniedException", "Catalog %s is not the caller's", in.CatalogId)
	}
	tables, err := glueTables(st, c, in.DatabaseName)
	if err != nil {
		return nil, err
	}
	if t := tables[in.Name]; t != nil {
		return map[string]any{"Table": t}, nil
	}
	return nil, wire.Errf(400, "EntityNotFoundException", "Table %s not found.", in.Name)
}

func glueGetTables(st *world.State, c *wire.Call, in struct {
	CatalogId, DatabaseName, NextToken string
	MaxResults                         int
}) (any, error) {
	if in.CatalogId != "" && in.CatalogId != c.Account {
		return nil, wire.Errf(400, "AccessDeniedException", "Catalog %s is not the caller's", in.CatalogId)
	}
	cur, err := wire.Paging{Prefix: "gluetables", Default: 100, Min: 1, Max: 1000,
		BadSize: func(string) error {
			return wire.Errf(400, "InvalidInputException", "MaxResults must be between 1 and 1000")
		},
		BadToken: wire.Errf(400, "InvalidInputException", "Invalid NextToken")}.Start(c, in.MaxResults, in.NextToken)
	if err != nil {
		return nil, err
	}
	tables, err := glueTables(st, c, in.DatabaseName)
	if err != nil {
		return nil, err
	}
	if len(tables) == 0 {
		exists, err := glueDatabaseExists(st, c, in.DatabaseName)
		if err != nil {
			return nil, err
		}
		if !exists {
			return nil, wire.Errf(400, "EntityNotFoundException", "Database %s not found.", in.DatabaseName)
		}
	}
	names := world.SortedKeys(tables)
	lo, hi, next := cur.Cut(len(names))
	list := make([]any, 0, hi-lo)
	for _, n := range names[lo:hi] {
		list = append(list, tables[n])
	}
	out := map[string]any{"TableList": list}
	if next != "" {
		out["NextToken"] = next
	}
	return out, nil
}

// glueTextParams turns an object's Parameters values into the text Glue
// stores them as.
func glueTextParams(o map[string]any) {
	p, ok := o["Parameters"].(map[string]any)
	if !ok {
		return
	}
	for k, v := range p {
		switch t := v.(type) {
		case json.Number:
			p[k] = t.String()
		case bool:
			p[k] = strconv.FormatBool(t)
		}
	}
}
