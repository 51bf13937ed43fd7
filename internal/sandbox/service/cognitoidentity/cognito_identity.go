package cognitoidentity

import (
	"bytes"
	"encoding/json"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

func cognitoIdentityDescribePool(st *world.State, c *wire.Call, in struct{ IdentityPoolId string }) (any, error) {
	r := st.Resource(c.Account, c.Region, "AWS::Cognito::IdentityPool", in.IdentityPoolId)
	if r == nil {
		return nil, wire.Errf(400, "ResourceNotFoundException", "IdentityPool '%s' not found.", in.IdentityPoolId)
	}
	m, err := world.FieldObject(r)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"IdentityPoolId": in.IdentityPoolId}
	for _, k := range []string{"IdentityPoolName", "AllowUnauthenticatedIdentities", "AllowClassicFlow", "SupportedLoginProviders",
		"DeveloperProviderName", "OpenIdConnectProviderARNs", "CognitoIdentityProviders", "SamlProviderARNs"} {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	if _, ok := m["IdentityPoolTags"]; ok {
		var b bytes.Buffer
		b.WriteByte('{')
		for i, t := range world.Objects(m["IdentityPoolTags"]) {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := world.MarshalNoEscape(t["Key"])
			v, _ := world.MarshalNoEscape(t["Value"])
			b.Write(bytes.TrimSpace(k))
			b.WriteByte(':')
			b.Write(bytes.TrimSpace(v))
		}
		b.WriteByte('}')
		out["IdentityPoolTags"] = json.RawMessage(b.Bytes())
	}
	return out, nil
}
