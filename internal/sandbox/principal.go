package sandbox

// principal is who a request acts as.
type principal struct {
	account string
	arn     string
	userID  string
	// role and session are set for AssumeRole sessions.
	role, session string
	secret, token string
}

func userPrincipal(account, user string) principal {
	if user == "" {
		return principal{account: account, arn: "arn:aws:iam::" + account + ":root", userID: account}
	}
	return principal{account: account, arn: "arn:aws:iam::" + account + ":user/" + user, userID: "AIDA" + shortHash(account+user, 17)}
}

// rolePrincipal is a session of an account's role.
func rolePrincipal(account, role, session string) principal {
	roleID := "AROA" + shortHash("role/"+account+"/"+role, 17)
	return principal{
		account: account,
		arn:     "arn:aws:sts::" + account + ":assumed-role/" + role + "/" + session,
		userID:  roleID + ":" + session,
		role:    role, session: session,
	}
}
