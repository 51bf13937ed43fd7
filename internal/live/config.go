package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/configservice"
)

// The AWS Config family: AWS::Config::ConfigurationRecorder through
// DescribeConfigurationRecorders and AWS::Config::DeliveryChannel through
// DescribeDeliveryChannels, each by its name (the physical id). The SDK's
// field names are the template's; the recorder's ARN, service principal,
// scope and connector (service-linked recorders only) are dropped.

type configAPI interface {
	DescribeConfigurationRecorders(ctx context.Context, in *configservice.DescribeConfigurationRecordersInput, optFns ...func(*configservice.Options)) (*configservice.DescribeConfigurationRecordersOutput, error)
	DescribeDeliveryChannels(ctx context.Context, in *configservice.DescribeDeliveryChannelsInput, optFns ...func(*configservice.Options)) (*configservice.DescribeDeliveryChannelsOutput, error)
}

var _ configAPI = (*configservice.Client)(nil)

// readConfigurationRecorder reads AWS::Config::ConfigurationRecorder:
// {Name, RoleARN, RecordingGroup, RecordingMode}.
func readConfigurationRecorder(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.Config == nil {
		return nil, skip("no AWS Config client")
	}
	out, err := c.Config.DescribeConfigurationRecorders(ctx, &configservice.DescribeConfigurationRecordersInput{ConfigurationRecorderNames: []string{r.PhysicalID}})
	if err != nil {
		return nil, err
	}
	for _, rec := range out.ConfigurationRecorders {
		if deref(rec.Name) == r.PhysicalID {
			m := sdkModel(rec)
			dropKeys(m, "Arn", "ServicePrincipal", "RecordingScope", "ConnectorArn", "ScopeConfiguration")
			return m, nil
		}
	}
	return nil, fmt.Errorf("configuration recorder %s: %w", r.PhysicalID, ErrNotFound)
}

// readDeliveryChannel reads AWS::Config::DeliveryChannel: {Name,
// S3BucketName, S3KeyPrefix, S3KmsKeyArn, SnsTopicARN,
// ConfigSnapshotDeliveryProperties}.
func readDeliveryChannel(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.Config == nil {
		return nil, skip("no AWS Config client")
	}
	out, err := c.Config.DescribeDeliveryChannels(ctx, &configservice.DescribeDeliveryChannelsInput{DeliveryChannelNames: []string{r.PhysicalID}})
	if err != nil {
		return nil, err
	}
	for _, ch := range out.DeliveryChannels {
		if deref(ch.Name) == r.PhysicalID {
			return sdkModel(ch), nil
		}
	}
	return nil, fmt.Errorf("delivery channel %s: %w", r.PhysicalID, ErrNotFound)
}
