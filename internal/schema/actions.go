package schema

import (
	_ "embed"
	"strings"
	"sync"
)

// notActions holds the handler permissions of the embedded snapshot that
// are not IAM actions (scripts/gen-notactions.sh writes it from cfn-lint's
// action catalogue): registry schemas list a few misspelt, retired or
// internal names beside the real actions.
//
//go:embed notactions.txt
var notActionsTxt string

var notActions = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(notActionsTxt, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out[strings.ToLower(line)] = true
		}
	}
	return out
})

// IAMAction reports whether perm, one of a handler's permissions, names an
// IAM action a policy can grant: "service:Action" without wildcards, and
// not one of the names the schemas list that IAM does not know. Policies
// synthesized from handler permissions keep only these.
func IAMAction(perm string) bool {
	svc, act, ok := strings.Cut(perm, ":")
	if !ok || svc == "" || act == "" || strings.ContainsAny(perm, "*? ") {
		return false
	}
	return !notActions()[strings.ToLower(perm)]
}
