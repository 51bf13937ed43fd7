package lakeformation

import "github.com/realdrift/realdrift/internal/sandbox/world"
import "github.com/realdrift/realdrift/internal/sandbox/wire"

func lakeFormationDescribeResource(st *world.State, c *wire.Call, in struct{ ResourceArn string }) (any, error) {
	for _, r := range st.OfType(c.Account, c.Region, "AWS::LakeFormation::Resource") {
		m, err := world.FieldObject(r)
		if err != nil {
			return nil, err
		}
		if m["ResourceArn"] != in.ResourceArn {
			continue
		}
		info := map[string]any{"ResourceArn": in.ResourceArn, "LastModified": wire.Epoch(world.DefaultTime)}
		if role, ok := m["RoleArn"]; ok {
			info["RoleArn"] = role
		} else if slr, _ := m["UseServiceLinkedRole"].(bool); slr {
			info["RoleArn"] = "arn:aws:iam::" + c.Account + ":role/aws-service-role/lakeformation.amazonaws.com/AWSServiceRoleForLakeFormationDataAccess"
		}
		for _, k := range []string{"WithFederation", "HybridAccessEnabled"} {
			if v, ok := m[k]; ok {
				info[k] = v
			}
		}
		return map[string]any{"ResourceInfo": info}, nil
	}
	return nil, wire.Errf(400, "EntityNotFoundException", "Entity not found")
}
