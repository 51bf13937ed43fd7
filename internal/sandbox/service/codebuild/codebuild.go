package codebuild

import (
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

func codeBuildBatchGetProjects(st *world.State, c *wire.Call, in struct{ Names []string }) (any, error) {
	if len(in.Names) < 1 || len(in.Names) > 100 {
		return nil, wire.Errf(400, "InvalidInputException", "1 validation error detected: Value at 'names' failed to satisfy constraint: Member must have length between 1 and 100")
	}
	projects, missing := []any{}, []string{}
	for _, name := range in.Names {
		name := world.ARNTail(name, ":project/")
		p := st.Resource(c.Account, c.Region, "AWS::CodeBuild::Project", name)
		if p == nil {
			missing = append(missing, name)
			continue
		}
		m, err := world.FieldObject(p)
		if err != nil {
			return nil, err
		}
		badge, hasBadge := m["BadgeEnabled"]
		delete(m, "BadgeEnabled")
		out := wire.CamelModel(m, map[string]string{"BuildSpec": "buildspec", "Visibility": "projectVisibility"}).(map[string]any)
		out["name"] = name
		out["arn"] = "arn:aws:codebuild:" + c.Region + ":" + c.Account + ":project/" + name
		out["created"], out["lastModified"] = wire.Epoch(world.DefaultTime), wire.Epoch(world.DefaultTime)
		if hasBadge {
			out["badge"] = map[string]any{"badgeEnabled": badge}
		}
		projects = append(projects, out)
	}
	return map[string]any{"projects": projects, "projectsNotFound": missing}, nil
}

func codeBuildBatchGetReportGroups(st *world.State, c *wire.Call, in struct{ ReportGroupArns []string }) (any, error) {
	if len(in.ReportGroupArns) < 1 || len(in.ReportGroupArns) > 100 {
		return nil, wire.Errf(400, "InvalidInputException", "1 validation error detected: Value at 'reportGroupArns' failed to satisfy constraint: Member must have length between 1 and 100")
	}
	groups, missing := []any{}, []string{}
	for _, arn := range in.ReportGroupArns {
		if !strings.Contains(arn, ":report-group/") {
			return nil, wire.Errf(400, "InvalidInputException", "Invalid report group ARN: %s", arn)
		}
		g := st.Resource(c.Account, c.Region, "AWS::CodeBuild::ReportGroup", arn)
		if g == nil {
			missing = append(missing, arn)
			continue
		}
		m, err := world.FieldObject(g)
		if err != nil {
			return nil, err
		}
		delete(m, "DeleteReports")
		out := wire.CamelModel(m, nil).(map[string]any)
		out["arn"] = arn
		if out["name"] == nil {
			out["name"] = world.ARNTail(arn, ":report-group/")
		}
		out["status"] = "ACTIVE"
		out["created"], out["lastModified"] = wire.Epoch(world.DefaultTime), wire.Epoch(world.DefaultTime)
		groups = append(groups, out)
	}
	return map[string]any{"reportGroups": groups, "reportGroupsNotFound": missing}, nil
}
