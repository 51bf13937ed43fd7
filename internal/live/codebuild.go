package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/codebuild"
)

// The CodeBuild family: AWS::CodeBuild::Project (by name) through
// BatchGetProjects and AWS::CodeBuild::ReportGroup (by ARN) through
// BatchGetReportGroups; Cloud Control cannot read either in full. The
// SDK's field names are the template's but for a few, renamed here
// (buildspec, the badge, the visibility); what the API answers and no
// template declares (ARN, times, webhook, public alias, bucket owner
// access) is dropped. Triggers (the webhook in the template's shape) and
// a report group's DeleteReports cannot be read: readGaps.

type codeBuildAPI interface {
	BatchGetProjects(ctx context.Context, in *codebuild.BatchGetProjectsInput, optFns ...func(*codebuild.Options)) (*codebuild.BatchGetProjectsOutput, error)
	BatchGetReportGroups(ctx context.Context, in *codebuild.BatchGetReportGroupsInput, optFns ...func(*codebuild.Options)) (*codebuild.BatchGetReportGroupsOutput, error)
}

var _ codeBuildAPI = (*codebuild.Client)(nil)

// readProject reads AWS::CodeBuild::Project by its name.
func readProject(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.CodeBuild == nil {
		return nil, skip("no CodeBuild client")
	}
	out, err := c.CodeBuild.BatchGetProjects(ctx, &codebuild.BatchGetProjectsInput{Names: []string{r.PhysicalID}})
	if err != nil {
		return nil, err
	}
	for _, p := range out.Projects {
		if deref(p.Name) != r.PhysicalID && deref(p.Arn) != r.PhysicalID {
			continue
		}
		m := sdkModel(p)
		dropKeys(m, "Arn", "Webhook", "PublicProjectAlias")
		renameKey(m, "ProjectVisibility", "Visibility")
		if b := objectAt(m, "Badge"); b != nil {
			m["BadgeEnabled"] = b["BadgeEnabled"]
		}
		delete(m, "Badge")
		for _, s := range append(objectsAt(m, "SecondarySources"), objectAt(m, "Source")) {
			if s != nil {
				renameKey(s, "Buildspec", "BuildSpec")
			}
		}
		for _, a := range append(objectsAt(m, "SecondaryArtifacts"), objectAt(m, "Artifacts")) {
			if a != nil {
				delete(a, "BucketOwnerAccess")
			}
		}
		if s3 := objectAt(objectAt(m, "LogsConfig"), "S3Logs"); s3 != nil {
			delete(s3, "BucketOwnerAccess")
		}
		return m, nil
	}
	return nil, fmt.Errorf("project %s: %w", r.PhysicalID, ErrNotFound)
}

// readReportGroup reads AWS::CodeBuild::ReportGroup by its ARN: {Name,
// Type, ExportConfig, Tags}.
func readReportGroup(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.CodeBuild == nil {
		return nil, skip("no CodeBuild client")
	}
	out, err := c.CodeBuild.BatchGetReportGroups(ctx, &codebuild.BatchGetReportGroupsInput{ReportGroupArns: []string{r.PhysicalID}})
	if err != nil {
		return nil, err
	}
	for _, g := range out.ReportGroups {
		if deref(g.Arn) != r.PhysicalID {
			continue
		}
		m := sdkModel(g)
		dropKeys(m, "Arn", "Status")
		return m, nil
	}
	return nil, fmt.Errorf("report group %s: %w", r.PhysicalID, ErrNotFound)
}
