package classify

import (
	"regexp"
	"strings"

	"github.com/realdrift/realdrift/internal/normalize"
)

// accountDefault reports whether an undeclared value is one AWS fills in
// from the caller's own account when the template says nothing, on any
// resource type:
//   - the stack's own account id, its root ARN, its own region (or a list of
//     just that region);
//   - encryption with an AWS-owned key (the AWS_OWNED_KMS_KEY /
//     AWS_OWNED_KEY sentinels, UseAwsOwnedKey: true, alone in their
//     object);
//   - the account's AWS-managed KMS key alias (alias/aws/<service>) in the
//     stack's account and region;
//   - a service-linked role of the stack's account.
//
// Each is equality-gated on the account and region the options name: the
// same shape pointing at another account, another region or a customer key
// surfaces. Without the account (or region) the rule does not apply.
func (r *run) accountDefault(v any) bool {
	acct, region := r.opts.AccountID, r.opts.Region
	switch t := v.(type) {
	case string:
		switch {
		case acct != "" && (t == acct || t == "arn:aws:iam::"+acct+":root"):
			return true
		case region != "" && t == region:
			return true
		case isAWSOwnedKey(t):
			return true
		case acct != "" && region != "" && strings.HasPrefix(t, "arn:aws:kms:"+region+":"+acct+":alias/aws/"):
			return isLowerAlnum(strings.TrimPrefix(t, "arn:aws:kms:"+region+":"+acct+":alias/aws/"))
		case acct != "" && strings.HasPrefix(t, "arn:aws:iam::"+acct+":role/aws-service-role/"):
			return reServiceLinkedRole.MatchString(strings.TrimPrefix(t, "arn:aws:iam::"+acct+":role/aws-service-role/"))
		case r.isManagedKey(t):
			return true
		}
	case []any:
		return region != "" && len(t) == 1 && t[0] == region
	case map[string]any:
		owned := false
		for k, e := range t {
			switch {
			case k == "UseAwsOwnedKey" && e == true:
				owned = true
			case isAWSOwnedKeyValue(e):
				owned = true
			case normalize.TriviallyEmpty(e):
			default:
				return false
			}
		}
		return owned
	}
	return false
}

// isManagedKey reports whether s is (the ARN of) one of the account's
// AWS-managed KMS keys, as the alias targets (opts kmsAliasTargets) name
// them: encryption with the service's own key, never a customer key.
func (r *run) isManagedKey(s string) bool {
	if len(r.opts.KMSAliasTargets) == 0 {
		return false
	}
	id := s
	if a, ok := normalize.ParseARN(s); ok {
		if a.Service != "kms" || (r.opts.AccountID != "" && a.Account != r.opts.AccountID) || (r.opts.Region != "" && a.Region != r.opts.Region) {
			return false
		}
		id = strings.TrimPrefix(a.Resource, "key/")
	}
	for alias, target := range r.opts.KMSAliasTargets {
		if !strings.HasPrefix(alias, "alias/aws/") {
			continue
		}
		if a, ok := normalize.ParseARN(target); ok {
			target = strings.TrimPrefix(a.Resource, "key/")
		}
		if target == id {
			return true
		}
	}
	return false
}

// reServiceLinkedRole is the path and name of a service-linked role:
// <service>.amazonaws.com/AWSServiceRoleFor<Name>.
var reServiceLinkedRole = regexp.MustCompile(`^[a-z0-9.-]+\.amazonaws\.com/AWSServiceRoleFor[A-Za-z0-9]+$`)

func isLowerAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

func isAWSOwnedKeyValue(v any) bool {
	s, ok := v.(string)
	return ok && isAWSOwnedKey(s)
}

func isAWSOwnedKey(s string) bool {
	return s == "AWS_OWNED_KMS_KEY" || s == "AWS_OWNED_KEY"
}

// placedInOwnRegion reports whether an undeclared AvailabilityZone(s)
// value is a zone (or a list of zones) of the stack's own region: the
// placement the service picks when the template names none.
func (r *run) placedInOwnRegion(k string, v any) bool {
	if r.opts.Region == "" || (k != "AvailabilityZone" && k != "AvailabilityZones") {
		return false
	}
	inRegion := func(e any) bool {
		s, ok := e.(string)
		return ok && len(s) == len(r.opts.Region)+1 && strings.HasPrefix(s, r.opts.Region) && s[len(s)-1] >= 'a' && s[len(s)-1] <= 'z'
	}
	if a, ok := v.([]any); ok {
		for _, e := range a {
			if !inRegion(e) {
				return false
			}
		}
		return len(a) > 0
	}
	return inRegion(v)
}

// serviceAssigned reports whether an undeclared value at key k is one the
// service picks itself when the template names none, on any type: a
// maintenance / backup / snapshot window (…Window) in the service's window
// format, or the service's default parameter or option group
// (default.<family> / default:<engine>). A window or group of any other
// form (a chosen custom group) surfaces.
func serviceAssigned(k string, v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	switch {
	case strings.HasSuffix(k, "Window"):
		return reWindow.MatchString(s)
	case strings.HasSuffix(k, "ParameterGroupName"), strings.HasSuffix(k, "OptionGroupName"),
		strings.HasSuffix(k, "ParameterGroup"), strings.HasSuffix(k, "OptionGroup"):
		return reDefaultGroup.MatchString(s)
	}
	return false
}

var (
	reWindow       = regexp.MustCompile(`^(?:(?:mon|tue|wed|thu|fri|sat|sun):)?[0-2]\d:[0-5]\d-(?:(?:mon|tue|wed|thu|fri|sat|sun):)?[0-2]\d:[0-5]\d$`)
	reDefaultGroup = regexp.MustCompile(`^default[.:][a-z0-9][a-z0-9.-]*[0-9]$`)
)
