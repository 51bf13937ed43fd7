package appsync

import (
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

func appSyncListApiKeys(st *world.State, c *wire.Call) (any, error) {
	api := c.Params["api"]
	badSize := func(string) error {
		return wire.Errf(400, "BadRequestException", "maxResults must be between 0 and 25")
	}
	size := 0
	if m := c.Str("maxResults"); m != "" {
		n, err := strconv.Atoi(m)
		if err != nil {
			return nil, badSize(m)
		}
		size = n
	}
	cur, err := wire.Paging{Prefix: "appsync", Default: 25, Max: 25, BadSize: badSize,
		BadToken: wire.Errf(400, "BadRequestException", "Invalid nextToken")}.Start(c, size, c.Str("nextToken"))
	if err != nil {
		return nil, err
	}
	st.RLock()
	defer st.RUnlock()
	exists := false
	for _, g := range st.OfType(c.Account, c.Region, "AWS::AppSync::GraphQLApi") {
		exists = exists || world.FieldString(g, "ApiId") == api || strings.HasSuffix(g.CCID(), "apis/"+api)
	}
	keys := []any{}
	for _, k := range st.OfType(c.Account, c.Region, "AWS::AppSync::ApiKey") {
		m, err := world.FieldObject(k)
		if err != nil {
			return nil, err
		}
		if m["ApiId"] != api {
			continue
		}
		exists = true
		id := world.ARNTail(k.CCID(), "/apikeys/")
		item := map[string]any{"id": id, "deletes": 0}
		if e, ok := m["Expires"]; ok {
			item["expires"] = e
			item["deletes"] = e
		}
		if d, ok := m["Description"]; ok {
			item["description"] = d
		}
		keys = append(keys, item)
	}
	if !exists {
		return nil, wire.Errf(404, "NotFoundException", "GraphQL API %s not found.", api)
	}
	lo, hi, next := cur.Cut(len(keys))
	out := map[string]any{"apiKeys": keys[lo:hi]}
	if next != "" {
		out["nextToken"] = next
	}
	return out, nil
}
