package secretsmanager

import "github.com/realdrift/realdrift/internal/sandbox/wire"
import "github.com/realdrift/realdrift/internal/sandbox/world"

// secretArn is a secret model's ARN (Id, else its identifier).
func secretArn(r *world.Resource) string {
	if id := world.FieldString(r, "Id"); id != "" {
		return id
	}
	return r.CCID()
}

func smGetResourcePolicy(st *world.State, c *wire.Call, in struct{ SecretId string }) (any, error) {
	if in.SecretId == "" {
		return nil, wire.Errf(400, "InvalidParameterException", "You must provide a SecretId.")
	}
	var secret *world.Resource
	for _, r := range st.OfType(c.Account, c.Region, "AWS::SecretsManager::Secret") {
		if secretArn(r) == in.SecretId || world.FieldString(r, "Name") == in.SecretId {
			secret = r
		}
	}
	if secret == nil {
		return nil, wire.Errf(400, "ResourceNotFoundException", "Secrets Manager can't find the specified secret.")
	}
	arn, name := secretArn(secret), world.FieldString(secret, "Name")
	out := map[string]any{"ARN": arn, "Name": name}
	for _, p := range st.OfType(c.Account, c.Region, "AWS::SecretsManager::ResourcePolicy") {
		if id := world.FieldString(p, "SecretId"); id == arn || (name != "" && id == name) {
			if doc := world.Field(p, "ResourcePolicy"); doc != nil {
				if str := world.FieldString(p, "ResourcePolicy"); str != "" {
					out["ResourcePolicy"] = str
				} else {
					out["ResourcePolicy"] = world.CompactJSON(doc)
				}
			}
		}
	}
	return out, nil
}
