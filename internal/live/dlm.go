package live

import (
	"context"
	"fmt"
	"sort"

	"github.com/aws/aws-sdk-go-v2/service/dlm"
)

// AWS::DLM::LifecyclePolicy (Cloud Control cannot read it in full) through
// GetLifecyclePolicy by its id (the physical id): {Description, State,
// ExecutionRoleArn, PolicyDetails, Tags (the API's map as the template's
// Key/Value list)}. A default policy (the API's DefaultPolicy true) is in
// the template's shape of one: DefaultPolicy is its resource type (VOLUME
// or INSTANCE), and CreateInterval, RetainInterval, CopyTags,
// ExtendDeletion, Exclusions and CrossRegionCopyTargets, which the API
// answers inside PolicyDetails, are top-level. The policy's id, ARN,
// status message and dates are DLM's own and dropped.

type dlmAPI interface {
	GetLifecyclePolicy(ctx context.Context, in *dlm.GetLifecyclePolicyInput, optFns ...func(*dlm.Options)) (*dlm.GetLifecyclePolicyOutput, error)
}

var _ dlmAPI = (*dlm.Client)(nil)

// dlmDefaultPolicyProps are the PolicyDetails fields a default policy
// declares at the top level.
var dlmDefaultPolicyProps = []string{"CreateInterval", "RetainInterval", "CopyTags", "ExtendDeletion", "Exclusions", "CrossRegionCopyTargets"}

// readLifecyclePolicy reads AWS::DLM::LifecyclePolicy.
func readLifecyclePolicy(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.DLM == nil {
		return nil, skip("no DLM client")
	}
	out, err := c.DLM.GetLifecyclePolicy(ctx, &dlm.GetLifecyclePolicyInput{PolicyId: &r.PhysicalID})
	if err != nil {
		return nil, err
	}
	if out.Policy == nil {
		return nil, fmt.Errorf("lifecycle policy %s: %w", r.PhysicalID, ErrNotFound)
	}
	p := out.Policy
	m := sdkModel(*p)
	dropKeys(m, "PolicyId", "PolicyArn", "StatusMessage", "DefaultPolicy", "Tags")
	if p.DefaultPolicy != nil && *p.DefaultPolicy {
		details := objectAt(m, "PolicyDetails")
		delete(m, "PolicyDetails")
		if t, ok := details["ResourceType"]; ok {
			m["DefaultPolicy"] = t
		}
		for _, k := range dlmDefaultPolicyProps {
			if v, ok := details[k]; ok {
				m[k] = v
			}
		}
	}
	if len(p.Tags) > 0 {
		tags := []any{}
		for _, k := range sortedStrings(p.Tags) {
			tags = append(tags, map[string]any{"Key": k, "Value": p.Tags[k]})
		}
		m["Tags"] = tags
	}
	return m, nil
}

// sortedStrings returns the keys of m in order.
func sortedStrings(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
