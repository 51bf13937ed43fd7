package sts

import (
	"regexp"
	"strconv"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// sessions issues AssumeRole's session credentials.
type sessions struct {
	deniesAssume func(role string) bool
	trusts       func(st *world.State, c *wire.Call, account, role string) bool
	// seq numbers the sessions issued, so each gets its own keys; guarded
	// by the world state's write lock.
	seq int
}

var roleArnRE = regexp.MustCompile(`^arn:aws[-a-z]*:iam::([0-9]{12}):role/(?:[\x21-\x7e]+/)?([\w+=,.@-]{1,64})$`)

func getCallerIdentity(_ *world.State, c *wire.Call) (any, error) {
	return wire.El("", wire.Tx("Arn", c.Who.ARN), wire.Tx("UserId", c.Who.UserID), wire.Tx("Account", c.Account)), nil
}

// assumeRole issues a session of a role of a world account: its keys act
// as the assumed role (world.State.Keys) until the server stops.
func (s *sessions) assumeRole(st *world.State, c *wire.Call) (any, error) {
	roleArn, session := c.Str("RoleArn"), c.Str("RoleSessionName")
	if session == "" || len(session) > 64 {
		return nil, wire.Validation("1 validation error detected: Value at 'roleSessionName' failed to satisfy constraint: Member must have length between 2 and 64")
	}
	m := roleArnRE.FindStringSubmatch(roleArn)
	if m == nil {
		return nil, wire.Validation("%s is not a valid role ARN", roleArn)
	}
	account, role := m[1], m[2]
	dur := 3600
	if d := c.Str("DurationSeconds"); d != "" {
		n, err := strconv.Atoi(d)
		if err != nil || n < 900 || n > 43200 {
			return nil, wire.Validation("The requested DurationSeconds %s is not within 900..43200", d)
		}
		dur = n
	}
	denied := func() error {
		e := c.Service.Deny
		e.Message = "User: " + c.Who.ARN + " is not authorized to perform: sts:AssumeRole on resource: " + roleArn
		return &e
	}
	if s.deniesAssume != nil && s.deniesAssume(role) {
		return nil, denied()
	}
	// Refused by the role's trust policy: AWS's message names no reason.
	if s.trusts != nil && !s.trusts(st, c, account, role) {
		return nil, denied()
	}
	st.Lock()
	defer st.Unlock()
	if st.Account(account) == nil {
		return nil, denied()
	}
	s.seq++
	seed := roleArn + "/" + session + "/" + strconv.Itoa(s.seq)
	key := "ASIA" + world.ShortHash("key/"+seed, 16)
	p := world.RolePrincipal(account, role, session)
	p.SourceIdentity = c.Str("SourceIdentity")
	p.Secret = world.ShortHash("secret/"+seed, 40)
	p.Token = "FwoG" + world.ShortHash("token/"+seed, 52)
	st.Keys[key] = p
	exp := c.Now().Add(time.Duration(dur) * time.Second)
	return wire.El("",
		wire.El("Credentials", wire.Tx("AccessKeyId", key), wire.Tx("SecretAccessKey", p.Secret), wire.Tx("SessionToken", p.Token), wire.Time("Expiration", exp)),
		wire.El("AssumedRoleUser", wire.Tx("AssumedRoleId", p.UserID), wire.Tx("Arn", p.ARN)),
	), nil
}
