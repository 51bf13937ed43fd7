package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/mediaconvert"
)

// AWS::MediaConvert::Queue (Cloud Control cannot read it) through GetQueue
// by its name (the physical id) and ListTagsForResource by its ARN:
// {Name, Description, PricingPlan, Status, ConcurrentJobs, Tags (the
// template's map)}; job counts, the queue type, reservation plan and
// service overrides are MediaConvert's own and dropped.

type mediaConvertAPI interface {
	GetQueue(ctx context.Context, in *mediaconvert.GetQueueInput, optFns ...func(*mediaconvert.Options)) (*mediaconvert.GetQueueOutput, error)
	ListTagsForResource(ctx context.Context, in *mediaconvert.ListTagsForResourceInput, optFns ...func(*mediaconvert.Options)) (*mediaconvert.ListTagsForResourceOutput, error)
	mediaConvertJobTemplateAPI
}

var _ mediaConvertAPI = (*mediaconvert.Client)(nil)

// readMediaConvertQueue reads AWS::MediaConvert::Queue.
func readMediaConvertQueue(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.MediaConvert == nil {
		return nil, skip("no MediaConvert client")
	}
	out, err := c.MediaConvert.GetQueue(ctx, &mediaconvert.GetQueueInput{Name: &r.PhysicalID})
	if err != nil {
		return nil, err
	}
	if out.Queue == nil {
		return nil, fmt.Errorf("queue %s: %w", r.PhysicalID, ErrNotFound)
	}
	m := sdkModel(*out.Queue)
	dropKeys(m, "Arn", "ProgressingJobsCount", "SubmittedJobsCount", "Type", "ReservationPlan", "ServiceOverrides", "MaximumConcurrentFeeds")
	arn := deref(out.Queue.Arn)
	if arn == "" {
		return nil, skip("MediaConvert GetQueue answered no ARN: the tags cannot be read")
	}
	tags, err := c.MediaConvert.ListTagsForResource(ctx, &mediaconvert.ListTagsForResourceInput{Arn: &arn})
	if err != nil {
		return nil, err
	}
	if tags.ResourceTags != nil && len(tags.ResourceTags.Tags) > 0 {
		ts := map[string]any{}
		for k, v := range tags.ResourceTags.Tags {
			ts[k] = v
		}
		m["Tags"] = ts
	}
	return m, nil
}
