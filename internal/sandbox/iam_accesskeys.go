package sandbox

import (
	"github.com/realdrift/realdrift/internal/sandbox/world"
	"sort"
	"strconv"
)

// iamListAccessKeys lists a user's access keys (query/XML): the world's
// AWS::IAM::AccessKey models naming the user (UserName), by key id (the
// identifier), with their Status (Active when the model names none).
// Only metadata is answered: a model's secret, if a world held one, is
// never read. Without UserName the caller's own user is meant, as IAM
// does. MaxItems (1-1000, default 100) and Marker page the list. A user
// that neither an AWS::IAM::User model nor an access key names is
// NoSuchEntity.
func iamListAccessKeys(st *world.State, c *call) (any, error) {
	user := c.str("UserName")
	if user == "" {
		user = world.ARNTail(c.who.ARN, ":user/")
		if user == c.who.ARN {
			user = ""
		}
	}
	size := 100
	if m := c.str("MaxItems"); m != "" {
		n, err := strconv.Atoi(m)
		if err != nil || n < 1 || n > 1000 {
			return nil, validation("1 validation error detected: Value '%s' at 'maxItems' failed to satisfy constraint: Member must have value between 1 and 1000", m)
		}
		size = n
	}
	off, ok := pageOffset("iam", c.str("Marker"))
	if !ok {
		return nil, validation("Invalid Marker")
	}
	st.RLock()
	defer st.RUnlock()
	var keys []*world.Resource
	for _, k := range st.OfType(c.account, "", "AWS::IAM::AccessKey") {
		if world.FieldString(k, "UserName") == user {
			keys = append(keys, k)
		}
	}
	if user != "" && len(keys) == 0 && identity(st, c, userKind, user) == nil {
		return nil, noEntity("The user with name %s cannot be found.", user)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].CCID() < keys[j].CCID() })
	var items []*xnode
	for _, k := range keys {
		status := world.FieldString(k, "Status")
		if status == "" {
			status = "Active"
		}
		items = append(items, el("", tx("UserName", user), tx("AccessKeyId", k.CCID()), tx("Status", status), xtime("CreateDate", defaultStackTime)))
	}
	lo, hi, next := page(len(items), off, size)
	out := el("", members("AccessKeyMetadata", items[lo:hi]), xbool("IsTruncated", next >= 0))
	if next >= 0 {
		out.kids = append(out.kids, tx("Marker", pageToken("iam", next)))
	}
	return out, nil
}
