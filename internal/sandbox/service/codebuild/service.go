package codebuild

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves CodeBuild (JSON 1.1): projects by name (or ARN)
// and report groups by ARN, from the world's AWS::CodeBuild::Project and
// AWS::CodeBuild::ReportGroup models. A project is answered as CodeBuild
// does in its camelCase shape: buildspec, badge {badgeEnabled},
// projectVisibility, tags {key, value}, with its ARN and times; exactly
// the properties the model holds, so a world built from recordings
// answers what was recorded. Names CodeBuild does not know are listed in
// projectsNotFound / reportGroupsNotFound, as CodeBuild does.
func Service() *wire.Service {
	return wire.JSON("codebuild", "1.1", "CodeBuild_20161006.", wire.Ops{
		"BatchGetProjects":     wire.Read(codeBuildBatchGetProjects),
		"BatchGetReportGroups": wire.Read(codeBuildBatchGetReportGroups),
	})
}
