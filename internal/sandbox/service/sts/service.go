package sts

import (
	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// Service is the service's registration: STS (query/XML). deniesAssume
// reports whether the server's fault rules deny assuming a role (by name);
// trusts whether the role's trust policy lets the call's principal assume
// it (iamauth.Trusts; the caller's identity policies are decided before
// the handler, and AWS requires both); nil denies nothing, trusts all.
func Service(deniesAssume func(role string) bool, trusts func(st *world.State, c *wire.Call, account, role string) bool) *wire.Service {
	s := &sessions{deniesAssume: deniesAssume, trusts: trusts}
	svc := wire.Query("sts", "https://sts.amazonaws.com/doc/2011-06-15/", wire.Ops{
		"GetCallerIdentity": getCallerIdentity,
		"AssumeRole":        s.assumeRole,
	})
	// AWS answers GetCallerIdentity even to a principal whose policies
	// deny everything; AssumeRole is authorized against the role.
	svc.IAM.Public = map[string]bool{"GetCallerIdentity": true}
	svc.IAM.Resource = func(_ *world.State, c *wire.Call) string {
		if c.Action == "AssumeRole" {
			return c.Str("RoleArn")
		}
		return ""
	}
	return svc
}
