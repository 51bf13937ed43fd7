package sandbox

import "github.com/realdrift/realdrift/internal/sandbox/world"
import "sort"

// codeDeployService serves CodeDeploy (JSON 1.1): an application's
// deployment groups, from the world's AWS::CodeDeploy::DeploymentGroup
// models (ApplicationName). An application exists when an
// AWS::CodeDeploy::Application model names it or a group is in it.
func codeDeployService() *service {
	return &service{
		name:          "codedeploy",
		protocol:      protoJSON,
		jsonNamespace: "com.amazonaws.codedeploy#",
		jsonVersion:   "1.1",
		targetPrefix:  "CodeDeploy_20141006.",
		throttle:      apiError{Status: 400, Code: "ThrottlingException"},
		deny:          apiError{Status: 400, Code: "AccessDeniedException"},
		ops: map[string]handler{
			"ListDeploymentGroups": cdListDeploymentGroups,
		},
	}
}

func cdListDeploymentGroups(st *world.State, c *call) (any, error) {
	var in struct {
		ApplicationName string `json:"applicationName"`
		NextToken       string `json:"nextToken"`
	}
	if err := c.decode(&in); err != nil {
		return nil, err
	}
	if in.ApplicationName == "" {
		return nil, errf(400, "ApplicationNameRequiredException", "The minimum number of required application names was not specified.")
	}
	off, ok := pageOffset("dg", in.NextToken)
	if !ok {
		return nil, errf(400, "InvalidNextTokenException", "The next token was specified in an invalid format.")
	}
	st.RLock()
	defer st.RUnlock()
	exists := false
	for _, a := range st.OfType(c.account, c.region, "AWS::CodeDeploy::Application") {
		exists = exists || world.FieldString(a, "ApplicationName") == in.ApplicationName || a.CCID() == in.ApplicationName
	}
	var names []string
	for _, g := range st.OfType(c.account, c.region, "AWS::CodeDeploy::DeploymentGroup") {
		if world.FieldString(g, "ApplicationName") != in.ApplicationName {
			continue
		}
		exists = true
		name := world.FieldString(g, "DeploymentGroupName")
		if name == "" {
			name = g.PhysicalID
		}
		names = append(names, name)
	}
	if !exists {
		return nil, errf(400, "ApplicationDoesNotExistException", "No application found for name: %s", in.ApplicationName)
	}
	sort.Strings(names)
	lo, hi, next := page(len(names), off, 100)
	out := map[string]any{"applicationName": in.ApplicationName, "deploymentGroups": append([]string{}, names[lo:hi]...)}
	if next >= 0 {
		out["nextToken"] = pageToken("dg", next)
	}
	return out, nil
}
