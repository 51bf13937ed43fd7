package classify

import "sort"

// Options are the facts about the resource's stack and account the
// classifier may use. The zero value is valid: every missing fact makes the
// classifier behave as it would without it (an unknown option is never a
// guess).
type Options struct {
	// AccountID and Region of the stack; they gate name ↔ ARN folds.
	AccountID string
	Region    string
	// StackName of the resource's stack; it gates CloudFormation auto-name
	// detection. When empty, the stack name is taken from the live
	// aws:cloudformation:stack-name tag, when present.
	StackName string
	// KMSAliasTargets maps a managed alias (alias/aws/...) to its key id.
	// When the map names the alias, the alias ↔ key fold is strict.
	KMSAliasTargets map[string]string
	// DefaultSecurityGroups are the ids of the account's default VPC
	// security groups in the region (the group AWS attaches when a template
	// names none). Non-nil, a security-group list folds only when it is
	// one of them; nil (not asked), a list of exactly one group id folds on
	// its shape alone, atDefault and watched by the baseline.
	DefaultSecurityGroups []string
	// OAICanonicalIDs maps an origin access identity id to its S3 canonical
	// user id.
	OAICanonicalIDs map[string]string
	// StackTags are the stack-level tags CloudFormation propagates; they are
	// subtracted from the live tags.
	StackTags map[string]string
	// Known is the known-values table; nil means the embedded one.
	Known *KnownTable
	// Sibling holds the rare per-type sibling and account facts, keyed by
	// their corpus option name (siblingSgRules, accountDefaults, ...), as
	// JSON-shaped values.
	Sibling map[string]any
}

// OptionsFromMap builds Options from the corpus "opts" object. Keys it does
// not know are kept in Sibling; malformed values are ignored (the fact is
// then unknown).
func OptionsFromMap(m map[string]any) Options {
	var o Options
	for k, v := range m {
		switch k {
		case "accountId":
			o.AccountID, _ = v.(string)
		case "region":
			o.Region, _ = v.(string)
		case "stackName":
			o.StackName, _ = v.(string)
		case "kmsAliasTargets":
			o.KMSAliasTargets = stringMap(v)
		case "defaultSecurityGroups":
			o.DefaultSecurityGroups = stringList(v)
		case "oaiCanonicalIds":
			o.OAICanonicalIDs = stringMap(v)
		case "stackTags":
			o.StackTags = stringMap(v)
		default:
			if o.Sibling == nil {
				o.Sibling = map[string]any{}
			}
			o.Sibling[k] = v
		}
	}
	return o
}

func stringMap(v any) map[string]string {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, e := range m {
		if s, ok := e.(string); ok {
			out[k] = s
		}
	}
	return out
}

func sortedKeys[M ~map[string]V, V any](m M) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// stringList returns the strings of a JSON array (nil when v is not one).
func stringList(v any) []string {
	a, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(a))
	for _, e := range a {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
