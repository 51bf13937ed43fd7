package sandbox

import (
	"regexp"
	"strconv"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

func stsService(s *Server) *wire.Service {
	return wire.Query("sts", "https://sts.amazonaws.com/doc/2011-06-15/", wire.Ops{
		"GetCallerIdentity": wire.Bound(s.stsGetCallerIdentity),
		"AssumeRole":        wire.Bound(s.stsAssumeRole),
	})
}

var roleArnRE = regexp.MustCompile(`^arn:aws[-a-z]*:iam::([0-9]{12}):role/(?:[\x21-\x7e]+/)?([\w+=,.@-]{1,64})$`)

func (s *Server) stsGetCallerIdentity(c *wire.Call) (any, error) {
	return wire.El("", wire.Tx("Arn", c.Who.ARN), wire.Tx("UserId", c.Who.UserID), wire.Tx("Account", c.Account)), nil
}

func (s *Server) stsAssumeRole(c *wire.Call) (any, error) {
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
	if s.faults.deniesAssume(role) {
		return nil, denied()
	}
	q := world.Request{Action: "sts:AssumeRole", Resource: "arn:aws:iam::" + account + ":role/" + role, Caller: c.Who,
		Keys: s.conditionKeys(c.Who, c.Region, c.HTTP.TLS != nil, roleArn)}
	for k, v := range map[string]string{"sts:externalid": c.Str("ExternalId"), "sts:rolesessionname": session, "sts:sourceidentity": c.Str("SourceIdentity")} {
		if v != "" {
			q.Keys[k] = []string{v}
		}
	}
	s.st.Lock()
	defer s.st.Unlock()
	a := s.st.Account(account)
	if a == nil {
		return nil, denied()
	}
	// The role's trust policy must allow the caller, whatever its identity
	// policies allow (authorize has checked those): both, as AWS requires.
	if d, ok := a.TrustDecision(role, q); ok && d != world.Allowed {
		return nil, denied()
	}
	s.reqSeq++
	seed := roleArn + "/" + session + "/" + strconv.Itoa(s.reqSeq)
	key := "ASIA" + world.ShortHash("key/"+seed, 16)
	p := world.RolePrincipal(account, role, session)
	p.SourceIdentity = c.Str("SourceIdentity")
	p.Secret = world.ShortHash("secret/"+seed, 40)
	p.Token = "FwoG" + world.ShortHash("token/"+seed, 52)
	s.st.Keys[key] = p
	exp := s.opts.now().Add(time.Duration(dur) * time.Second)
	return wire.El("",
		wire.El("Credentials", wire.Tx("AccessKeyId", key), wire.Tx("SecretAccessKey", p.Secret), wire.Tx("SessionToken", p.Token), wire.Time("Expiration", exp)),
		wire.El("AssumedRoleUser", wire.Tx("AssumedRoleId", p.UserID), wire.Tx("Arn", p.ARN)),
	), nil
}
