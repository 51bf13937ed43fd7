package sandbox

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Glue tables: GetTable answers the world's AWS::Glue::Table model whose
// DatabaseName and TableInput.Name (else the identifier's part after
// "<database>|") are the ones asked, as Glue's Table: the TableInput as the
// model holds it (parameters as the text Glue stores) with the database,
// the catalog (the account) and the times added. An unknown table is
// EntityNotFoundException.

func (s *Server) glueGetTable(c *call) (any, error) {
	var in struct{ CatalogId, DatabaseName, Name string }
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	if in.CatalogId != "" && in.CatalogId != c.account {
		return nil, errf(400, "AccessDeniedException", "Catalog %s is not the caller's", in.CatalogId)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, r := range s.st.ofType(c.account, c.region, "AWS::Glue::Table") {
		m, err := fieldObject(r)
		if err != nil {
			return nil, err
		}
		t, _ := m["TableInput"].(map[string]any)
		if t == nil {
			t = map[string]any{}
		}
		db, _ := m["DatabaseName"].(string)
		name, _ := t["Name"].(string)
		if name == "" {
			name = r.ccID()
			for _, sep := range []string{"|", "/"} {
				name = strings.TrimPrefix(name, db+sep)
			}
		}
		if db != in.DatabaseName || name != in.Name {
			continue
		}
		t["Name"], t["DatabaseName"], t["CatalogId"] = name, db, c.account
		glueTextParams(t)
		if sd, ok := t["StorageDescriptor"].(map[string]any); ok {
			glueTextParams(sd)
			if serde, ok := sd["SerdeInfo"].(map[string]any); ok {
				glueTextParams(serde)
			}
		}
		t["CreateTime"], t["UpdateTime"], t["IsRegisteredWithLakeFormation"] = epoch(defaultStackTime), epoch(defaultStackTime), false
		return map[string]any{"Table": t}, nil
	}
	return nil, errf(400, "EntityNotFoundException", "Table %s not found.", in.Name)
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
