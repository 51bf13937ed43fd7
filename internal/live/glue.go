package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/glue"
)

// The Glue family (Cloud Control cannot read these): AWS::Glue::Classifier
// through GetClassifier and AWS::Glue::Workflow through GetWorkflow (and
// GetTags), each by its name (the physical id). The SDK's field names are
// the template's; a classifier's Version and a workflow's runs, graph and
// blueprint are the API's own and dropped.

type glueAPI interface {
	GetClassifier(ctx context.Context, in *glue.GetClassifierInput, optFns ...func(*glue.Options)) (*glue.GetClassifierOutput, error)
	GetWorkflow(ctx context.Context, in *glue.GetWorkflowInput, optFns ...func(*glue.Options)) (*glue.GetWorkflowOutput, error)
	GetTags(ctx context.Context, in *glue.GetTagsInput, optFns ...func(*glue.Options)) (*glue.GetTagsOutput, error)
	glueMoreAPI
	glueTableAPI
	glueTablesAPI
}

var _ glueAPI = (*glue.Client)(nil)

// readGlueClassifier reads AWS::Glue::Classifier: {CsvClassifier |
// GrokClassifier | JsonClassifier | XMLClassifier}.
func readGlueClassifier(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.Glue == nil {
		return nil, skip("no Glue client")
	}
	out, err := c.Glue.GetClassifier(ctx, &glue.GetClassifierInput{Name: &r.PhysicalID})
	if err != nil {
		return nil, err
	}
	if out.Classifier == nil {
		return nil, fmt.Errorf("classifier %s: %w", r.PhysicalID, ErrNotFound)
	}
	m := sdkModel(*out.Classifier)
	for _, kind := range m {
		if o, ok := kind.(map[string]any); ok {
			delete(o, "Version")
		}
	}
	return m, nil
}

// readGlueWorkflow reads AWS::Glue::Workflow: {Name, Description,
// DefaultRunProperties, MaxConcurrentRuns, Tags (the template's map)}.
func readGlueWorkflow(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.Glue == nil {
		return nil, skip("no Glue client")
	}
	out, err := c.Glue.GetWorkflow(ctx, &glue.GetWorkflowInput{Name: &r.PhysicalID})
	if err != nil {
		return nil, err
	}
	if out.Workflow == nil {
		return nil, fmt.Errorf("workflow %s: %w", r.PhysicalID, ErrNotFound)
	}
	m := sdkModel(*out.Workflow)
	dropKeys(m, "LastRun", "Graph", "BlueprintDetails")
	s, err := c.scope(ctx)()
	if err != nil {
		return nil, err
	}
	arn := "arn:" + s.Partition + ":glue:" + s.Region + ":" + s.Account + ":workflow/" + r.PhysicalID
	tags, err := c.Glue.GetTags(ctx, &glue.GetTagsInput{ResourceArn: &arn})
	if err != nil {
		return nil, err
	}
	if len(tags.Tags) > 0 {
		ts := map[string]any{}
		for k, v := range tags.Tags {
			ts[k] = v
		}
		m["Tags"] = ts
	}
	return m, nil
}
