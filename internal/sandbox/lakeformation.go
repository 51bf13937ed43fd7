package sandbox

import "github.com/realdrift/realdrift/internal/sandbox/world"
import "net/http"

// lakeFormationService serves Lake Formation (REST-JSON): POST
// /DescribeResource answers the world's AWS::LakeFormation::Resource model
// registering the ResourceArn asked for: its RoleArn (the service-linked
// role when the model registered with UseServiceLinkedRole and names no
// role), WithFederation and HybridAccessEnabled as the model holds them.
// A location nothing registered is EntityNotFoundException.
func lakeFormationService() *service {
	return &service{
		name:     "lakeformation",
		protocol: protoRESTJSON,
		throttle: apiError{Status: 400, Code: "ThrottlingException"},
		deny:     apiError{Status: 403, Code: "AccessDeniedException"},
		route: func(r *http.Request) (string, map[string]string) {
			if r.Method == http.MethodPost && r.URL.Path == "/DescribeResource" {
				return "DescribeResource", map[string]string{}
			}
			return "", nil
		},
		ops: map[string]handler{
			"DescribeResource": lakeFormationDescribeResource,
		},
	}
}

func lakeFormationDescribeResource(st *world.State, c *call) (any, error) {
	var in struct{ ResourceArn string }
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	st.RLock()
	defer st.RUnlock()
	for _, r := range st.OfType(c.account, c.region, "AWS::LakeFormation::Resource") {
		m, err := fieldObject(r)
		if err != nil {
			return nil, err
		}
		if m["ResourceArn"] != in.ResourceArn {
			continue
		}
		info := map[string]any{"ResourceArn": in.ResourceArn, "LastModified": epoch(defaultStackTime)}
		if role, ok := m["RoleArn"]; ok {
			info["RoleArn"] = role
		} else if slr, _ := m["UseServiceLinkedRole"].(bool); slr {
			info["RoleArn"] = "arn:aws:iam::" + c.account + ":role/aws-service-role/lakeformation.amazonaws.com/AWSServiceRoleForLakeFormationDataAccess"
		}
		for _, k := range []string{"WithFederation", "HybridAccessEnabled"} {
			if v, ok := m[k]; ok {
				info[k] = v
			}
		}
		return map[string]any{"ResourceInfo": info}, nil
	}
	return nil, errf(400, "EntityNotFoundException", "Entity not found")
}
