package glue

import "github.com/realdrift/realdrift/internal/sandbox/world"
import "github.com/realdrift/realdrift/internal/sandbox/wire"
import "strings"

// More Glue: GetConnection answers an AWS::Glue::Connection model's
// ConnectionInput (by its Name, else the identifier) as the connection,
// without password properties when HidePassword is set, as Glue does;
// GetSecurityConfiguration answers an AWS::Glue::SecurityConfiguration
// model (Name, else the identifier) with the template's S3Encryptions as
// the API's S3Encryption.

func glueGetConnection(st *world.State, c *wire.Call, in struct {
	Name         string
	HidePassword bool
}) (any, error) {
	for _, r := range st.OfType(c.Account, c.Region, "AWS::Glue::Connection") {
		m, err := world.FieldObject(r)
		if err != nil {
			return nil, err
		}
		conn, _ := m["ConnectionInput"].(map[string]any)
		if conn == nil {
			continue
		}
		n, _ := conn["Name"].(string)
		if n == "" {
			n = r.CCID()
		}
		if n != in.Name {
			continue
		}
		conn["Name"] = n
		if props, ok := conn["ConnectionProperties"].(map[string]any); ok && in.HidePassword {
			for k := range props {
				if strings.Contains(strings.ToUpper(k), "PASSWORD") {
					delete(props, k)
				}
			}
		}
		conn["CreationTime"], conn["LastUpdatedTime"] = wire.Epoch(world.DefaultTime), wire.Epoch(world.DefaultTime)
		return map[string]any{"Connection": conn}, nil
	}
	return nil, wire.Errf(400, "EntityNotFoundException", "Connection %s not found", in.Name)
}

func glueGetSecurityConfiguration(st *world.State, c *wire.Call, in struct{ Name string }) (any, error) {
	m, err := st.Named(c.Account, c.Region, "AWS::Glue::SecurityConfiguration", in.Name)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, wire.Errf(400, "EntityNotFoundException", "Security configuration %s not found", in.Name)
	}
	if e, ok := m["EncryptionConfiguration"].(map[string]any); ok {
		if s3, ok := e["S3Encryptions"]; ok {
			delete(e, "S3Encryptions")
			e["S3Encryption"] = s3
		}
	}
	m["CreatedTimeStamp"] = wire.Epoch(world.DefaultTime)
	return map[string]any{"SecurityConfiguration": m}, nil
}
