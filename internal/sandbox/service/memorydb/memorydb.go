package memorydb

import (
	"sort"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// memoryDBNamed maps the models of typ by nameProp (else the identifier).
func memoryDBNamed(st *world.State, c *wire.Call, typ, nameProp string) map[string]*world.Resource {
	out := map[string]*world.Resource{}
	for _, r := range st.OfType(c.Account, c.Region, typ) {
		if r.Deleted {
			continue
		}
		n := world.FieldString(r, nameProp)
		if n == "" {
			n = r.CCID()
		}
		out[n] = r
	}
	return out
}

type memoryDBPageIn struct {
	MaxResults int
	NextToken  string
}

func memoryDBPage(c *wire.Call, in memoryDBPageIn, prefix string, total int) (lo, hi int, next string, err error) {
	cur, err := wire.Paging{Prefix: prefix, Default: 100, Max: 100,
		BadSize: func(string) error {
			return wire.Errf(400, "InvalidParameterValueException", "MaxResults must be between 1 and 100")
		},
		BadToken: wire.Errf(400, "InvalidParameterValueException", "Invalid NextToken")}.Start(c, in.MaxResults, in.NextToken)
	if err != nil {
		return 0, 0, "", err
	}
	lo, hi, next = cur.Cut(total)
	return lo, hi, next, nil
}

func memoryDBDescribeUsers(st *world.State, c *wire.Call, in struct {
	UserName string
	memoryDBPageIn
}) (any, error) {
	users := memoryDBNamed(st, c, "AWS::MemoryDB::User", "UserName")
	names := world.SortedKeys(users)
	if in.UserName != "" {
		if users[in.UserName] == nil {
			return nil, wire.Errf(400, "UserNotFoundFault", "User %s not found", in.UserName)
		}
		names = []string{in.UserName}
	}
	lo, hi, next, err := memoryDBPage(c, in.memoryDBPageIn, "memorydb-users", len(names))
	if err != nil {
		return nil, err
	}
	items := []map[string]any{}
	for _, n := range names[lo:hi] {
		u := map[string]any{"Name": n, "Status": "active", "ARN": "arn:aws:memorydb:" + c.Region + ":" + c.Account + ":user/" + n}
		if v := world.FieldString(users[n], "AccessString"); v != "" {
			u["AccessString"] = v
		}
		items = append(items, u)
	}
	out := map[string]any{"Users": items}
	if next != "" {
		out["NextToken"] = next
	}
	return out, nil
}

func memoryDBDescribeParameters(st *world.State, c *wire.Call, in struct {
	ParameterGroupName string
	memoryDBPageIn
}) (any, error) {
	g := memoryDBNamed(st, c, "AWS::MemoryDB::ParameterGroup", "ParameterGroupName")[in.ParameterGroupName]
	if g == nil {
		return nil, wire.Errf(400, "ParameterGroupNotFoundFault", "ParameterGroup %s not found", in.ParameterGroupName)
	}
	params, _ := world.FieldValue(g, "Parameters").(map[string]any)
	names := make([]string, 0, len(params))
	for k := range params {
		names = append(names, k)
	}
	sort.Strings(names)
	lo, hi, next, err := memoryDBPage(c, in.memoryDBPageIn, "memorydb-params", len(names))
	if err != nil {
		return nil, err
	}
	items := []map[string]any{}
	for _, n := range names[lo:hi] {
		items = append(items, map[string]any{"Name": n, "Value": world.ScalarString(params[n]), "DataType": "string"})
	}
	out := map[string]any{"Parameters": items}
	if next != "" {
		out["NextToken"] = next
	}
	return out, nil
}
