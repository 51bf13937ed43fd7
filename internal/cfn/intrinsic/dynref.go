package intrinsic

import (
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

const dynamicRefMarker = "{{resolve:"

// publicDynamicRefServices are the dynamic-reference services whose values
// are not secret. Every other service (secretsmanager, ssm-secure, and any
// service this package does not know) is treated as secret-bearing.
var publicDynamicRefServices = map[string]bool{"ssm": true}

// dynamicRef reports whether s holds a dynamic reference. CloudFormation
// resolves those at deploy time, so the value is Unknown here; it is
// secret-bearing unless every reference in s is to a public service. The
// reason names only the service, never the reference.
func dynamicRef(s string) (drift.Unknown, bool) {
	i := strings.Index(s, dynamicRefMarker)
	if i < 0 {
		return drift.Unknown{}, false
	}
	secret := false
	service := ""
	for i >= 0 {
		rest := s[i+len(dynamicRefMarker):]
		svc, _, ok := strings.Cut(rest, ":")
		if !ok || !publicDynamicRefServices[svc] {
			secret = true
		}
		if service == "" && ok {
			service = svc
		}
		next := strings.Index(rest, dynamicRefMarker)
		if next < 0 {
			break
		}
		s, i = rest, next
	}
	if secret {
		return drift.Unknown{Reason: "secret-bearing dynamic reference is resolved only at deploy time", Secret: true}, true
	}
	return drift.Unknown{Reason: "dynamic reference to " + service + " is resolved only at deploy time"}, true
}
