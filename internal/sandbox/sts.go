package sandbox

import (
	"github.com/realdrift/realdrift/internal/sandbox/world"
	"regexp"
	"strconv"
	"time"
)

func stsService(s *Server) *service {
	return &service{
		name:     "sts",
		protocol: protoQuery,
		xmlns:    "https://sts.amazonaws.com/doc/2011-06-15/",
		throttle: apiError{Status: 400, Code: "Throttling"},
		deny:     apiError{Status: 403, Code: "AccessDenied"},
		ops: map[string]handler{
			"GetCallerIdentity": serverOp(s.stsGetCallerIdentity),
			"AssumeRole":        serverOp(s.stsAssumeRole),
		},
	}
}

var roleArnRE = regexp.MustCompile(`^arn:aws[-a-z]*:iam::([0-9]{12}):role/(?:[\x21-\x7e]+/)?([\w+=,.@-]{1,64})$`)

func (s *Server) stsGetCallerIdentity(c *call) (any, error) {
	return el("", tx("Arn", c.who.ARN), tx("UserId", c.who.UserID), tx("Account", c.account)), nil
}

func (s *Server) stsAssumeRole(c *call) (any, error) {
	roleArn, session := c.str("RoleArn"), c.str("RoleSessionName")
	if session == "" || len(session) > 64 {
		return nil, validation("1 validation error detected: Value at 'roleSessionName' failed to satisfy constraint: Member must have length between 2 and 64")
	}
	m := roleArnRE.FindStringSubmatch(roleArn)
	if m == nil {
		return nil, validation("%s is not a valid role ARN", roleArn)
	}
	account, role := m[1], m[2]
	dur := 3600
	if d := c.str("DurationSeconds"); d != "" {
		n, err := strconv.Atoi(d)
		if err != nil || n < 900 || n > 43200 {
			return nil, validation("The requested DurationSeconds %s is not within 900..43200", d)
		}
		dur = n
	}
	denied := func() error {
		e := c.svc.deny
		e.Message = "User: " + c.who.ARN + " is not authorized to perform: sts:AssumeRole on resource: " + roleArn
		return &e
	}
	if s.faults.deniesAssume(role) {
		return nil, denied()
	}
	s.st.Lock()
	defer s.st.Unlock()
	if s.st.Account(account) == nil {
		return nil, denied()
	}
	s.reqSeq++
	seed := roleArn + "/" + session + "/" + strconv.Itoa(s.reqSeq)
	key := "ASIA" + world.ShortHash("key/"+seed, 16)
	p := world.RolePrincipal(account, role, session)
	p.Secret = world.ShortHash("secret/"+seed, 40)
	p.Token = "FwoG" + world.ShortHash("token/"+seed, 52)
	s.st.Keys[key] = p
	exp := s.opts.now().Add(time.Duration(dur) * time.Second)
	return el("",
		el("Credentials", tx("AccessKeyId", key), tx("SecretAccessKey", p.Secret), tx("SessionToken", p.Token), xtime("Expiration", exp)),
		el("AssumedRoleUser", tx("AssumedRoleId", p.UserID), tx("Arn", p.ARN)),
	), nil
}
