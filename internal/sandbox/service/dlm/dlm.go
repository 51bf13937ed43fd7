package dlm

import (
	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// dlmDefaultPolicyProps are the PolicyDetails fields a default policy's
// template declares at the top level.
var dlmDefaultPolicyProps = []string{"CreateInterval", "RetainInterval", "CopyTags", "ExtendDeletion", "Exclusions", "CrossRegionCopyTargets"}

func dlmGetLifecyclePolicy(st *world.State, c *wire.Call) (any, error) {
	id := c.Params["policyId"]
	st.RLock()
	defer st.RUnlock()
	r := st.Resource(c.Account, c.Region, "AWS::DLM::LifecyclePolicy", id)
	if r == nil {
		return nil, wire.Errf(404, "ResourceNotFoundException", "Policy %s not found", id)
	}
	m, err := world.FieldObject(r)
	if err != nil {
		return nil, err
	}
	p := map[string]any{"PolicyId": id, "PolicyArn": "arn:aws:dlm:" + c.Region + ":" + c.Account + ":policy/" + id, "DefaultPolicy": false}
	for _, k := range []string{"Description", "State", "ExecutionRoleArn", "PolicyDetails"} {
		if v, ok := m[k]; ok {
			p[k] = v
		}
	}
	if t, ok := m["DefaultPolicy"].(string); ok {
		d := map[string]any{"ResourceType": t, "PolicyLanguage": "SIMPLIFIED", "PolicyType": "EBS_SNAPSHOT_MANAGEMENT"}
		for _, k := range dlmDefaultPolicyProps {
			if v, ok := m[k]; ok {
				d[k] = v
			}
		}
		p["DefaultPolicy"], p["PolicyDetails"] = true, d
	}
	tags := map[string]any{}
	for _, t := range world.Objects(m["Tags"]) {
		if k, ok := t["Key"].(string); ok {
			tags[k] = t["Value"]
		}
	}
	p["Tags"] = tags
	return map[string]any{"Policy": p}, nil
}
