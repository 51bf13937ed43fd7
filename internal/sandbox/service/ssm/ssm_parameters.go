package ssm

import (
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// ssmDescribeParameters serves DescribeParameters from the world's
// AWS::SSM::Parameter models (name: the model's Name, else the physical
// id), filtered by ParameterFilters on Name (Equals, BeginsWith) or Type
// (Equals) and paged by MaxResults (1-50, default 10) and NextToken. The
// metadata is the model's: Description, AllowedPattern and Tier only when
// the model holds them, DataType "text" when it holds none. The value is
// never answered, as DescribeParameters does not.
func ssmDescribeParameters(st *world.State, c *wire.Call) (any, error) {
	var in struct {
		ParameterFilters []struct {
			Key, Option string
			Values      []string
		}
		MaxResults int
		NextToken  string
	}
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	if in.MaxResults != 0 && (in.MaxResults < 1 || in.MaxResults > 50) {
		return nil, wire.Errf(400, "ValidationException", "1 validation error detected: Value '%d' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to 50", in.MaxResults)
	}
	for _, f := range in.ParameterFilters {
		switch {
		case f.Key != "Name" && f.Key != "Type":
			return nil, wire.Errf(400, "InvalidFilterKey", "The following filter key is not valid: %s", f.Key)
		case f.Option != "" && f.Option != "Equals" && !(f.Key == "Name" && f.Option == "BeginsWith"):
			return nil, wire.Errf(400, "InvalidFilterOption", "The following filter option is not valid: %s", f.Option)
		}
	}
	cur, err := wire.Paging{Prefix: "Parameters", Default: 10,
		BadToken: wire.Errf(400, "InvalidNextToken", "The specified token is not valid.")}.Start(c, in.MaxResults, in.NextToken)
	if err != nil {
		return nil, err
	}
	name := func(r *world.Resource) string {
		if v := world.FieldString(r, "Name"); v != "" {
			return v
		}
		return r.PhysicalID
	}
	match := func(r *world.Resource) bool {
		for _, f := range in.ParameterFilters {
			v := world.FieldString(r, f.Key)
			if f.Key == "Name" {
				v = name(r)
			}
			hit := false
			for _, want := range f.Values {
				if f.Option == "BeginsWith" {
					hit = hit || strings.HasPrefix(v, want)
				} else {
					hit = hit || v == want
				}
			}
			if !hit {
				return false
			}
		}
		return true
	}
	st.RLock()
	defer st.RUnlock()
	var rs []*world.Resource
	for _, r := range st.OfType(c.Account, c.Region, "AWS::SSM::Parameter") {
		if !r.Deleted && match(r) {
			rs = append(rs, r)
		}
	}
	sort.Slice(rs, func(i, j int) bool { return name(rs[i]) < name(rs[j]) })
	lo, hi, next := cur.Cut(len(rs))
	items := []map[string]any{}
	for _, r := range rs[lo:hi] {
		n := name(r)
		m := map[string]any{
			"Name": n, "Type": world.FieldString(r, "Type"), "Version": 1,
			"ARN": "arn:aws:ssm:" + c.Region + ":" + c.Account + ":parameter/" + strings.TrimPrefix(n, "/"),
		}
		m["DataType"] = "text"
		for _, k := range []string{"Description", "AllowedPattern", "Tier", "DataType"} {
			if v := world.FieldString(r, k); v != "" {
				m[k] = v
			}
		}
		items = append(items, m)
	}
	out := map[string]any{"Parameters": items}
	if next != "" {
		out["NextToken"] = next
	}
	return out, nil
}
