package lakeformation

import "github.com/realdrift/realdrift/internal/sandbox/world"
import "github.com/realdrift/realdrift/internal/sandbox/wire"
import "net/http"

// Service serves Lake Formation (REST-JSON): POST
// /DescribeResource answers the world's AWS::LakeFormation::Resource model
// registering the ResourceArn asked for: its RoleArn (the service-linked
// role when the model registered with UseServiceLinkedRole and names no
// role), WithFederation and HybridAccessEnabled as the model holds them.
// A location nothing registered is EntityNotFoundException.
func Service() *wire.Service {
	return &wire.Service{
		Name:     "lakeformation",
		Protocol: wire.ProtoRESTJSON,
		Throttle: wire.Error{Status: 400, Code: "ThrottlingException"},
		Deny:     wire.Error{Status: 403, Code: "AccessDeniedException"},
		Route: func(r *http.Request) (string, map[string]string) {
			if r.Method == http.MethodPost && r.URL.Path == "/DescribeResource" {
				return "DescribeResource", map[string]string{}
			}
			return "", nil
		},
		Ops: map[string]wire.Handler{
			"DescribeResource": lakeFormationDescribeResource,
		},
	}
}

func lakeFormationDescribeResource(st *world.State, c *wire.Call) (any, error) {
	var in struct{ ResourceArn string }
	if err := c.Decode(&in); err != nil {
		return nil, err
	}
	st.RLock()
	defer st.RUnlock()
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
