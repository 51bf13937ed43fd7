package iam

import (
	"sort"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// iamListAccessKeys lists a user's access keys (query/XML): the world's
// AWS::IAM::AccessKey models naming the user (UserName), by key id (the
// identifier), with their Status (Active when the model names none).
// Only metadata is answered: a model's secret, if a world held one, is
// never read. Without UserName the caller's own user is meant, as IAM
// does. MaxItems (1-1000, default 100) and Marker page the list. A user
// that neither an AWS::IAM::User model nor an access key names is
// NoSuchEntity.
func iamListAccessKeys(st *world.State, c *wire.Call) (any, error) {
	user := c.Str("UserName")
	if user == "" {
		user = world.ARNTail(c.Who.ARN, ":user/")
		if user == c.Who.ARN {
			user = ""
		}
	}
	cur, err := iamPage(c)
	if err != nil {
		return nil, err
	}
	st.RLock()
	defer st.RUnlock()
	var keys []*world.Resource
	for _, k := range st.OfType(c.Account, "", "AWS::IAM::AccessKey") {
		if world.FieldString(k, "UserName") == user {
			keys = append(keys, k)
		}
	}
	if user != "" && len(keys) == 0 && identity(st, c, userKind, user) == nil {
		return nil, noEntity("The user with name %s cannot be found.", user)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].CCID() < keys[j].CCID() })
	var items []*wire.Node
	for _, k := range keys {
		status := world.FieldString(k, "Status")
		if status == "" {
			status = "Active"
		}
		items = append(items, wire.El("", wire.Tx("UserName", user), wire.Tx("AccessKeyId", k.CCID()), wire.Tx("Status", status), wire.Time("CreateDate", world.DefaultTime)))
	}
	lo, hi, next := cur.Cut(len(items))
	out := wire.El("", wire.Members("AccessKeyMetadata", items[lo:hi]), wire.Bool("IsTruncated", next != ""))
	if next != "" {
		out.Kids = append(out.Kids, wire.Tx("Marker", next))
	}
	return out, nil
}
