package codedeploy

import "github.com/realdrift/realdrift/internal/sandbox/wire"
import "github.com/realdrift/realdrift/internal/sandbox/world"
import "sort"

func cdListDeploymentGroups(st *world.State, c *wire.Call, in struct {
	ApplicationName string `json:"applicationName"`
	NextToken       string `json:"nextToken"`
}) (any, error) {
	if in.ApplicationName == "" {
		return nil, wire.Errf(400, "ApplicationNameRequiredException", "The minimum number of required application names was not specified.")
	}
	cur, err := wire.Paging{Prefix: "dg", Default: 100,
		BadToken: wire.Errf(400, "InvalidNextTokenException", "The next token was specified in an invalid format.")}.Start(c, 0, in.NextToken)
	if err != nil {
		return nil, err
	}
	exists := false
	for _, a := range st.OfType(c.Account, c.Region, "AWS::CodeDeploy::Application") {
		exists = exists || world.FieldString(a, "ApplicationName") == in.ApplicationName || a.CCID() == in.ApplicationName
	}
	var names []string
	for _, g := range st.OfType(c.Account, c.Region, "AWS::CodeDeploy::DeploymentGroup") {
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
		return nil, wire.Errf(400, "ApplicationDoesNotExistException", "No application found for name: %s", in.ApplicationName)
	}
	sort.Strings(names)
	lo, hi, next := cur.Cut(len(names))
	out := map[string]any{"applicationName": in.ApplicationName, "deploymentGroups": append([]string{}, names[lo:hi]...)}
	if next != "" {
		out["nextToken"] = next
	}
	return out, nil
}
