package redshiftserverless

import "github.com/realdrift/realdrift/internal/sandbox/world"
import "github.com/realdrift/realdrift/internal/sandbox/wire"

func rsGetWorkgroup(st *world.State, c *wire.Call, in struct {
	WorkgroupName string `json:"workgroupName"`
}) (any, error) {
	if in.WorkgroupName == "" {
		return nil, wire.Errf(400, "ValidationException", "1 validation error detected: Value null at 'workgroupName' failed to satisfy constraint: Member must not be null")
	}
	var m map[string]any
	for _, r := range st.OfType(c.Account, c.Region, "AWS::RedshiftServerless::Workgroup") {
		if r.Deleted {
			continue
		}
		name := world.FieldString(r, "WorkgroupName")
		if name == "" {
			name = r.CCID()
		}
		if name == in.WorkgroupName {
			obj, err := world.FieldObject(r)
			if err != nil {
				return nil, err
			}
			m = obj
		}
	}
	if m == nil {
		return nil, wire.Errf(400, "ResourceNotFoundException", "Workgroup %s not found.", in.WorkgroupName)
	}
	echo, _ := m["Workgroup"].(map[string]any)
	prop := func(k string) any {
		if v, ok := m[k]; ok {
			return v
		}
		return echo[k]
	}
	w := map[string]any{
		"workgroupName": in.WorkgroupName,
		"workgroupArn":  "arn:aws:redshift-serverless:" + c.Region + ":" + c.Account + ":workgroup/" + in.WorkgroupName,
		"status":        "AVAILABLE",
	}
	if ns, ok := prop("NamespaceName").(string); ok {
		w["namespaceName"] = ns
	}
	if ps, ok := prop("ConfigParameters").([]any); ok {
		out := []map[string]any{}
		for _, e := range ps {
			p, ok := e.(map[string]any)
			if !ok {
				continue
			}
			q := map[string]any{}
			if v, ok := p["ParameterKey"]; ok {
				q["parameterKey"] = world.ScalarString(v)
			}
			if v, ok := p["ParameterValue"]; ok {
				q["parameterValue"] = world.ScalarString(v)
			}
			out = append(out, q)
		}
		w["configParameters"] = out
	}
	for k, api := range map[string]string{"SecurityGroupIds": "securityGroupIds", "SubnetIds": "subnetIds"} {
		if v, ok := prop(k).([]any); ok {
			w[api] = v
		}
	}
	return map[string]any{"workgroup": w}, nil
}
