package live

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/cognitoidentity"
)

// AWS::Cognito::IdentityPool (Cloud Control cannot read it in full) through
// Cognito Identity's DescribeIdentityPool by its id (the physical id): the
// API's IdentityPool is the template's shape (PascalCase), read from the
// answer's JSON as sent, with Id and Name (the schema's read-only copies
// of the id and name) added and IdentityPoolTags, the API's map, as the
// template's Key/Value list in the answer's order. CognitoEvents,
// CognitoStreams and PushSync are Cognito Sync settings (an API with no
// SDK client here): never read, readGaps.

type cognitoIdentityAPI interface {
	DescribeIdentityPool(ctx context.Context, in *cognitoidentity.DescribeIdentityPoolInput, optFns ...func(*cognitoidentity.Options)) (*cognitoidentity.DescribeIdentityPoolOutput, error)
}

var _ cognitoIdentityAPI = (*cognitoidentity.Client)(nil)

var identityPoolProps = fieldsAs("IdentityPoolName", "AllowUnauthenticatedIdentities", "AllowClassicFlow", "SupportedLoginProviders",
	"DeveloperProviderName", "OpenIdConnectProviderARNs", "CognitoIdentityProviders", "SamlProviderARNs")

// readIdentityPool reads AWS::Cognito::IdentityPool.
func readIdentityPool(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.CognitoIdentity == nil {
		return nil, skip("no Cognito Identity client")
	}
	var raw rawJSON
	out, err := c.CognitoIdentity.DescribeIdentityPool(ctx, &cognitoidentity.DescribeIdentityPoolInput{IdentityPoolId: &r.PhysicalID},
		func(o *cognitoidentity.Options) { o.APIOptions = append(o.APIOptions, raw.option) })
	if err != nil {
		return nil, err
	}
	whole, err := raw.object("")
	if err != nil {
		return nil, err
	}
	if deref(out.IdentityPoolId) != r.PhysicalID {
		return nil, fmt.Errorf("identity pool %s: %w", r.PhysicalID, ErrNotFound)
	}
	m := pickKeys(whole, identityPoolProps)
	m["Id"] = r.PhysicalID
	if n, ok := m["IdentityPoolName"]; ok {
		m["Name"] = n
	}
	if _, ok := whole["IdentityPoolTags"]; ok {
		tags, err := orderedTags(raw.body, "IdentityPoolTags")
		if err != nil {
			return nil, err
		}
		m["IdentityPoolTags"] = tags
	}
	return m, nil
}

// orderedTags reads the string map member name of a JSON object as a
// Key/Value list in the order the JSON holds it.
func orderedTags(body []byte, name string) ([]any, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return nil, skip("the answer is not a JSON object: " + err.Error())
	}
	tags := []any{}
	b := top[name]
	if len(b) == 0 || string(b) == "null" {
		return tags, nil
	}
	d := json.NewDecoder(bytes.NewReader(b))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, skip("the answer's " + name + " is not a JSON object")
	}
	for d.More() {
		k, err := d.Token()
		if err != nil {
			return nil, skip("the answer's " + name + " cannot be read: " + err.Error())
		}
		var v string
		if err := d.Decode(&v); err != nil {
			return nil, skip("the answer's " + name + " holds a value that is not text: " + err.Error())
		}
		key, _ := k.(string)
		tags = append(tags, map[string]any{"Key": key, "Value": v})
	}
	return tags, nil
}
