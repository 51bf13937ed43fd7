package applicationautoscaling

import (
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// aasPolicyProps are the ScalingPolicy fields answered as the model holds
// them.
var aasPolicyProps = []string{"PolicyName", "PolicyType", "StepScalingPolicyConfiguration", "TargetTrackingScalingPolicyConfiguration", "PredictiveScalingPolicyConfiguration"}

func aasDescribeScalingPolicies(st *world.State, c *wire.Call, in struct {
	ServiceNamespace, ResourceId, ScalableDimension, NextToken string
	PolicyNames                                                []string
	MaxResults                                                 int
}) (any, error) {
	if in.ServiceNamespace == "" {
		return nil, wire.Errf(400, "ValidationException", "1 validation error detected: Value null at 'serviceNamespace' failed to satisfy constraint: Member must not be null")
	}
	cur, err := wire.Paging{Prefix: "aas", Default: 50, Min: 1, Max: 50,
		BadSize: func(string) error {
			return wire.Errf(400, "ValidationException", "MaxResults must be between 1 and 50")
		},
		BadToken: wire.Errf(400, "InvalidNextTokenException", "Invalid token")}.Start(c, in.MaxResults, in.NextToken)
	if err != nil {
		return nil, err
	}
	byName := map[string]map[string]any{}
	for _, r := range st.OfType(c.Account, c.Region, "AWS::ApplicationAutoScaling::ScalingPolicy") {
		m, err := world.FieldObject(r)
		if err != nil {
			return nil, err
		}
		ns, res, dim := str(m["ServiceNamespace"]), str(m["ResourceId"]), str(m["ScalableDimension"])
		if parts := strings.Split(str(m["ScalingTargetId"]), "|"); len(parts) == 3 && ns == "" {
			res, dim, ns = parts[0], parts[1], parts[2]
		}
		arn := str(m["Arn"])
		if arn == "" {
			arn, _, _ = strings.Cut(r.CCID(), "|")
		}
		name := str(m["PolicyName"])
		if ns != in.ServiceNamespace || (in.ResourceId != "" && res != in.ResourceId) || (in.ScalableDimension != "" && dim != in.ScalableDimension) ||
			(len(in.PolicyNames) > 0 && !world.Contains(in.PolicyNames, name)) {
			continue
		}
		p := map[string]any{"PolicyARN": arn, "ServiceNamespace": ns, "ResourceId": res, "ScalableDimension": dim, "CreationTime": wire.Epoch(world.DefaultTime), "Alarms": []any{}}
		for _, k := range aasPolicyProps {
			if v, ok := m[k]; ok {
				p[k] = v
			}
		}
		byName[res+"\x00"+dim+"\x00"+name] = p
	}
	keys := world.SortedKeys(byName)
	lo, hi, next := cur.Cut(len(keys))
	list := make([]any, 0, hi-lo)
	for _, k := range keys[lo:hi] {
		list = append(list, byName[k])
	}
	out := map[string]any{"ScalingPolicies": list}
	if next != "" {
		out["NextToken"] = next
	}
	return out, nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
