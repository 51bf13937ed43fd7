package world

import "crypto/sha256"
import "encoding/base32"

// principal is who a request acts as.
type Principal struct {
	Account string
	ARN     string
	UserID  string
	// role and session are set for AssumeRole sessions.
	Role, session string
	Secret, Token string
	// SourceIdentity is the source identity an AssumeRole call set.
	SourceIdentity string
}

func UserPrincipal(account, user string) Principal {
	if user == "" {
		return Principal{Account: account, ARN: "arn:aws:iam::" + account + ":root", UserID: account}
	}
	return Principal{Account: account, ARN: "arn:aws:iam::" + account + ":user/" + user, UserID: "AIDA" + ShortHash(account+user, 17)}
}

// rolePrincipal is a session of an account's role.
func RolePrincipal(account, role, session string) Principal {
	roleID := "AROA" + ShortHash("role/"+account+"/"+role, 17)
	return Principal{
		Account: account,
		ARN:     "arn:aws:sts::" + account + ":assumed-role/" + role + "/" + session,
		UserID:  roleID + ":" + session,
		Role:    role, session: session,
	}
}

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

// shortHash returns n upper-case base32 characters derived from s.
func ShortHash(s string, n int) string {
	sum := sha256.Sum256([]byte(s))
	h := b32.EncodeToString(sum[:])
	if n > len(h) {
		n = len(h)
	}
	return h[:n]
}
