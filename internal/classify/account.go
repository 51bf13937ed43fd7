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
//   - one of the account's AWS-managed KMS key aliases (alias/aws/<service>)
//     or keys, as the alias targets option names them, or, without them,
//     the managed alias of the resource type's own service;
//   - the default service-linked role of the resource type's own service in
//     the stack's account (role/aws-service-role/<service>.amazonaws.com/
//     AWSServiceRoleFor[Amazon|AWS]<Service>): the role AWS creates and
//     picks itself when the template names none.
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
			// One of the account's managed aliases, as ListAliases named
			// them; without them, only the type's own service's alias
			// (alias/aws/<service> is reserved to the AWS-managed key).
			alias := strings.TrimPrefix(t, "arn:aws:kms:"+region+":"+acct+":")
			if _, ok := r.opts.KMSAliasTargets[alias]; ok {
				return true
			}
			svc := ownServiceAlias(r.s.Ref.Type)
			return svc != "" && alias == svc
		case r.isManagedKey(t):
			return true
		case acct != "" && isOwnServiceLinkedRole(r.s.Ref.Type, acct, t):
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

func isAWSOwnedKeyValue(v any) bool {
	s, ok := v.(string)
	return ok && isAWSOwnedKey(s)
}

func isAWSOwnedKey(s string) bool {
	return s == "AWS_OWNED_KMS_KEY" || s == "AWS_OWNED_KEY"
}

// ownServiceAlias returns the AWS-managed KMS alias named after a resource
// type's own service ("alias/aws/kinesisvideo" for
// AWS::KinesisVideo::Stream), or "" for a non-AWS type.
func ownServiceAlias(typ string) string {
	p := strings.Split(typ, "::")
	if len(p) != 3 || p[0] != "AWS" || p[1] == "" {
		return ""
	}
	return "alias/aws/" + strings.ToLower(p[1])
}

// isOwnServiceLinkedRole reports whether s is the ARN of the default
// service-linked role of a resource type's own service in account acct:
// path aws-service-role/<service>.amazonaws.com/ (reserved to roles the
// service itself creates) and name AWSServiceRoleFor<Service>, optionally
// with the Amazon or AWS brand prefix, the service compared without case
// ("AWSServiceRoleForBatch" for AWS::Batch::ComputeEnvironment,
// "AWSServiceRoleForAmazonSSM" for AWS::SSM::MaintenanceWindowTask). Any
// other name (a custom "_suffix", a changed letter), another service's
// role, another account's or an ordinary role does not match.
func isOwnServiceLinkedRole(typ, acct, s string) bool {
	if !strings.HasPrefix(s, "arn:aws:iam::") || !strings.Contains(s, ":role/aws-service-role/") {
		return false
	}
	p := strings.Split(typ, "::")
	if len(p) != 3 || p[0] != "AWS" || p[1] == "" {
		return false
	}
	svc := strings.ToLower(p[1])
	name, ok := strings.CutPrefix(s, "arn:aws:iam::"+acct+":role/aws-service-role/"+svc+".amazonaws.com/AWSServiceRoleFor")
	if !ok {
		return false
	}
	name = strings.ToLower(name)
	return name == svc || name == "amazon"+svc || name == "aws"+svc
}

// securityGroupProps are the top-level properties, on any type, that hold
// the security groups of a resource placed in a VPC.
var securityGroupProps = map[string]bool{"SecurityGroupIds": true, "SecurityGroups": true, "GroupSet": true, "VpcSecurityGroupIds": true}

var securityGroupID = regexp.MustCompile(`^sg-[0-9a-f]{8,17}$`)

// defaultSecurityGroup reports whether an undeclared top-level
// security-group list is the one AWS attaches when the template names
// none: the VPC's default group. With the account's default groups known
// (Options.DefaultSecurityGroups) the one id must be one of them; without
// them, one well-formed group id is taken for it on its shape — shown
// atDefault, never hidden, and watched by the baseline from the first
// record. Two groups, or any other value, are never a default.
func (r *run) defaultSecurityGroup(rp string, v any) bool {
	return isDefaultSecurityGroup(rp, v, r.opts.DefaultSecurityGroups)
}

// DefaultSecurityGroupCandidate reports whether an undeclared top-level
// property value could be the VPC's default security group: the one value
// whose classification depends on the account's default groups. A read
// asks the account for them (Options.DefaultSecurityGroups) only when some
// resource has such a value.
func DefaultSecurityGroupCandidate(prop string, v any) bool {
	return isDefaultSecurityGroup(prop, v, nil)
}

// isDefaultSecurityGroup is defaultSecurityGroup given the account's
// default groups (nil: not asked).
func isDefaultSecurityGroup(rp string, v any, defaults []string) bool {
	if !securityGroupProps[rp] {
		return false
	}
	a, ok := v.([]any)
	if !ok || len(a) != 1 {
		return false
	}
	id, ok := a[0].(string)
	if !ok || !securityGroupID.MatchString(id) {
		return false
	}
	if defaults == nil {
		return true
	}
	for _, d := range defaults {
		if d == id {
			return true
		}
	}
	return false
}
