package cognitoidp

import "github.com/realdrift/realdrift/internal/sandbox/world"
import "github.com/realdrift/realdrift/internal/sandbox/wire"
import "sort"

// poolChildren returns the models of typ in pool, sorted by key, or a
// ResourceNotFoundException when the pool does not exist.
func poolChildren(st *world.State, c *wire.Call, pool, typ, key string) ([]*world.Resource, error) {
	exists := false
	for _, p := range st.OfType(c.Account, c.Region, "AWS::Cognito::UserPool") {
		exists = exists || world.FieldString(p, "UserPoolId") == pool || p.CCID() == pool
	}
	var out []*world.Resource
	for _, typ2 := range []string{"AWS::Cognito::UserPoolClient", "AWS::Cognito::UserPoolGroup"} {
		for _, r := range st.OfType(c.Account, c.Region, typ2) {
			if world.FieldString(r, "UserPoolId") != pool {
				continue
			}
			exists = true
			if typ2 == typ {
				out = append(out, r)
			}
		}
	}
	if !exists {
		return nil, wire.Errf(400, "ResourceNotFoundException", "User pool %s does not exist.", pool)
	}
	sort.Slice(out, func(i, j int) bool { return world.FieldString(out[i], key) < world.FieldString(out[j], key) })
	return out, nil
}

func cognitoListUserPoolClients(st *world.State, c *wire.Call, in struct {
	UserPoolID string `json:"UserPoolId"`
	MaxResults int
	NextToken  string
}) (any, error) {
	cur, err := wire.Paging{Prefix: "clients", Default: 60, Max: 60,
		BadSize: func(n string) error {
			return wire.Errf(400, "InvalidParameterException", "1 validation error detected: Value '%s' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to 60", n)
		},
		BadToken: wire.Errf(400, "InvalidParameterException", "Invalid pagination token")}.Start(c, in.MaxResults, in.NextToken)
	if err != nil {
		return nil, err
	}
	rs, err := poolChildren(st, c, in.UserPoolID, "AWS::Cognito::UserPoolClient", "ClientId")
	if err != nil {
		return nil, err
	}
	lo, hi, next := cur.Cut(len(rs))
	items := []map[string]any{}
	for _, r := range rs[lo:hi] {
		id := world.FieldString(r, "ClientId")
		if id == "" {
			id = r.PhysicalID
		}
		items = append(items, map[string]any{"ClientId": id, "ClientName": world.FieldString(r, "ClientName"), "UserPoolId": in.UserPoolID})
	}
	out := map[string]any{"UserPoolClients": items}
	if next != "" {
		out["NextToken"] = next
	}
	return out, nil
}

func cognitoListGroups(st *world.State, c *wire.Call, in struct {
	UserPoolID string `json:"UserPoolId"`
	Limit      int
	NextToken  string
}) (any, error) {
	cur, err := wire.Paging{Prefix: "groups", Default: 60, Max: 60,
		BadSize: func(n string) error {
			return wire.Errf(400, "InvalidParameterException", "1 validation error detected: Value '%s' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 60", n)
		},
		BadToken: wire.Errf(400, "InvalidParameterException", "Invalid pagination token")}.Start(c, in.Limit, in.NextToken)
	if err != nil {
		return nil, err
	}
	rs, err := poolChildren(st, c, in.UserPoolID, "AWS::Cognito::UserPoolGroup", "GroupName")
	if err != nil {
		return nil, err
	}
	lo, hi, next := cur.Cut(len(rs))
	items := []map[string]any{}
	for _, r := range rs[lo:hi] {
		g := map[string]any{"GroupName": world.FieldString(r, "GroupName"), "UserPoolId": in.UserPoolID,
			"CreationDate": wire.Epoch(world.DefaultTime), "LastModifiedDate": wire.Epoch(world.DefaultTime)}
		for _, k := range []string{"Description", "RoleArn"} {
			if v := world.FieldString(r, k); v != "" {
				g[k] = v
			}
		}
		if p, ok := world.FieldValue(r, "Precedence").(float64); ok {
			g["Precedence"] = p
		}
		items = append(items, g)
	}
	out := map[string]any{"Groups": items}
	if next != "" {
		out["NextToken"] = next
	}
	return out, nil
}
