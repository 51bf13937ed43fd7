package live

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/glue"
)

// More of the Glue family: AWS::Glue::Connection through GetConnection
// (HidePassword: the password is never asked for, and any password-like
// connection property an answer still holds is dropped, never compared or
// stored) and AWS::Glue::SecurityConfiguration through
// GetSecurityConfiguration, each by its name (the physical id).

type glueMoreAPI interface {
	GetConnection(ctx context.Context, in *glue.GetConnectionInput, optFns ...func(*glue.Options)) (*glue.GetConnectionOutput, error)
	GetSecurityConfiguration(ctx context.Context, in *glue.GetSecurityConfigurationInput, optFns ...func(*glue.Options)) (*glue.GetSecurityConfigurationOutput, error)
}

var _ glueMoreAPI = (*glue.Client)(nil)

// readGlueConnection reads AWS::Glue::Connection: {CatalogId (as
// declared), ConnectionInput: {Name, Description, ConnectionType,
// MatchCriteria, ConnectionProperties, PhysicalConnectionRequirements,
// AthenaProperties, SparkProperties, PythonProperties}}.
func readGlueConnection(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.Glue == nil {
		return nil, skip("no Glue client")
	}
	in := &glue.GetConnectionInput{Name: &r.PhysicalID, HidePassword: true}
	model := map[string]any{}
	if _, ok := r.Declared["CatalogId"]; ok {
		id, err := declaredString(r.Declared, "CatalogId")
		if err != nil {
			return nil, err
		}
		in.CatalogId, model["CatalogId"] = &id, id
	}
	out, err := c.Glue.GetConnection(ctx, in)
	if err != nil {
		return nil, err
	}
	if out.Connection == nil {
		return nil, fmt.Errorf("connection %s: %w", r.PhysicalID, ErrNotFound)
	}
	m := sdkModel(*out.Connection)
	dropKeys(m, "Status", "StatusReason", "LastUpdatedBy", "ConnectionSchemaVersion", "CompatibleComputeEnvironments", "AuthenticationConfiguration")
	for _, k := range []string{"AthenaProperties", "SparkProperties", "PythonProperties"} {
		if p := objectAt(m, k); p != nil && len(p) == 0 {
			delete(m, k) // none set: no template declares an empty map
		}
	}
	if props := objectAt(m, "ConnectionProperties"); props != nil {
		for k := range props {
			if strings.Contains(strings.ToUpper(k), "PASSWORD") || strings.Contains(strings.ToUpper(k), "SECRET") {
				delete(props, k)
			}
		}
	}
	model["ConnectionInput"] = m
	return model, nil
}

// readGlueSecurityConfiguration reads AWS::Glue::SecurityConfiguration:
// {Name, EncryptionConfiguration: {S3Encryptions, CloudWatchEncryption,
// JobBookmarksEncryption}} (the API's S3Encryption is the template's
// S3Encryptions).
func readGlueSecurityConfiguration(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.Glue == nil {
		return nil, skip("no Glue client")
	}
	out, err := c.Glue.GetSecurityConfiguration(ctx, &glue.GetSecurityConfigurationInput{Name: &r.PhysicalID})
	if err != nil {
		return nil, err
	}
	if out.SecurityConfiguration == nil {
		return nil, fmt.Errorf("security configuration %s: %w", r.PhysicalID, ErrNotFound)
	}
	m := sdkModel(*out.SecurityConfiguration)
	if e := objectAt(m, "EncryptionConfiguration"); e != nil {
		renameKey(e, "S3Encryption", "S3Encryptions")
		delete(e, "DataQualityEncryption")
	}
	return m, nil
}
