package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/kafka"
)

// AWS::MSK::Configuration: ServerProperties (the properties file, a
// string in the template) is write-only to Cloud Control. MSK answers it
// per revision: DescribeConfiguration names the latest revision and
// DescribeConfigurationRevision answers that revision's properties (a
// blob: the file's bytes).

type kafkaAPI interface {
	DescribeConfiguration(ctx context.Context, in *kafka.DescribeConfigurationInput, optFns ...func(*kafka.Options)) (*kafka.DescribeConfigurationOutput, error)
	DescribeConfigurationRevision(ctx context.Context, in *kafka.DescribeConfigurationRevisionInput, optFns ...func(*kafka.Options)) (*kafka.DescribeConfigurationRevisionOutput, error)
}

var _ kafkaAPI = (*kafka.Client)(nil)

var mskConfigurationProps = []string{"ServerProperties"}

// readMSKConfigurationSupplement reads the latest revision's server
// properties (physical id: the configuration ARN).
func readMSKConfigurationSupplement(ctx context.Context, c *Clients, r Request, _ map[string]any) (map[string]any, error) {
	if c.Kafka == nil {
		return nil, skip("no MSK client")
	}
	arn := r.PhysicalID
	conf, err := c.Kafka.DescribeConfiguration(ctx, &kafka.DescribeConfigurationInput{Arn: &arn})
	if err != nil {
		return nil, err
	}
	if conf.LatestRevision == nil || conf.LatestRevision.Revision == nil {
		return nil, fmt.Errorf("latest revision of MSK configuration %s: %w", arn, ErrNotFound)
	}
	rev, err := c.Kafka.DescribeConfigurationRevision(ctx, &kafka.DescribeConfigurationRevisionInput{Arn: &arn, Revision: conf.LatestRevision.Revision})
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	if rev.ServerProperties != nil {
		out["ServerProperties"] = string(rev.ServerProperties)
	}
	return out, nil
}
