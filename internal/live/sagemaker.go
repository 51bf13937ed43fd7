package live

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/smithy-go"
)

// The SageMaker family (Cloud Control cannot read it in full):
// AWS::SageMaker::EndpointConfig through DescribeEndpointConfig and
// AWS::SageMaker::MonitoringSchedule through DescribeMonitoringSchedule,
// each by its name (the physical id is its ARN; the name is its tail), and
// ListTags by the ARN, paged (the template's Key/Value list; tags that
// cannot be read skip the read). The API's JSON is the template's shape
// (PascalCase), so both are read from the answer's JSON as SageMaker sent
// it — a weight such as 0.1 stays 0.1 rather than a float32's rounding —
// keeping the template's properties only: the ARNs, times, a schedule's
// status, failure reason, last execution summary and the top-level
// MonitoringType copy are SageMaker's own. SageMaker answers a missing
// endpoint configuration with a ValidationException "Could not find …":
// not found.

type sageMakerAPI interface {
	DescribeEndpointConfig(ctx context.Context, in *sagemaker.DescribeEndpointConfigInput, optFns ...func(*sagemaker.Options)) (*sagemaker.DescribeEndpointConfigOutput, error)
	DescribeMonitoringSchedule(ctx context.Context, in *sagemaker.DescribeMonitoringScheduleInput, optFns ...func(*sagemaker.Options)) (*sagemaker.DescribeMonitoringScheduleOutput, error)
	ListTags(ctx context.Context, in *sagemaker.ListTagsInput, optFns ...func(*sagemaker.Options)) (*sagemaker.ListTagsOutput, error)
}

var _ sageMakerAPI = (*sagemaker.Client)(nil)

var (
	sageMakerEndpointConfigProps = fieldsAs("EndpointConfigName", "ProductionVariants", "DataCaptureConfig", "KmsKeyId", "AsyncInferenceConfig",
		"ExplainerConfig", "ShadowProductionVariants", "ExecutionRoleArn", "VpcConfig", "EnableNetworkIsolation")
	sageMakerMonitoringScheduleProps = fieldsAs("MonitoringScheduleName", "MonitoringScheduleConfig", "EndpointName")
)

// sageMakerName is the resource name of a physical id that may be its ARN.
func sageMakerName(pid, kind string) string {
	if i := strings.LastIndex(pid, ":"+kind+"/"); strings.HasPrefix(pid, "arn:") && i >= 0 {
		return pid[i+len(kind)+2:]
	}
	return pid
}

// sageMakerNotFound folds SageMaker's "Could not find" validation errors
// into ErrNotFound.
func sageMakerNotFound(err error, what string) error {
	var ae smithy.APIError
	if errors.As(err, &ae) && ae.ErrorCode() == "ValidationException" && strings.Contains(ae.ErrorMessage(), "Could not find") {
		return fmt.Errorf("%s: %w (%s)", what, ErrNotFound, ae.ErrorMessage())
	}
	return err
}

// readSageMakerEndpointConfig reads AWS::SageMaker::EndpointConfig.
func readSageMakerEndpointConfig(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.SageMaker == nil {
		return nil, skip("no SageMaker client")
	}
	name := sageMakerName(r.PhysicalID, "endpoint-config")
	var raw rawJSON
	out, err := c.SageMaker.DescribeEndpointConfig(ctx, &sagemaker.DescribeEndpointConfigInput{EndpointConfigName: &name},
		func(o *sagemaker.Options) { o.APIOptions = append(o.APIOptions, raw.option) })
	if err != nil {
		return nil, sageMakerNotFound(err, "endpoint configuration "+name)
	}
	m, err := raw.object("")
	if err != nil {
		return nil, err
	}
	return sageMakerTags(ctx, c, pickKeys(m, sageMakerEndpointConfigProps), aws.ToString(out.EndpointConfigArn))
}

// readSageMakerMonitoringSchedule reads AWS::SageMaker::MonitoringSchedule.
func readSageMakerMonitoringSchedule(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.SageMaker == nil {
		return nil, skip("no SageMaker client")
	}
	name := sageMakerName(r.PhysicalID, "monitoring-schedule")
	var raw rawJSON
	out, err := c.SageMaker.DescribeMonitoringSchedule(ctx, &sagemaker.DescribeMonitoringScheduleInput{MonitoringScheduleName: &name},
		func(o *sagemaker.Options) { o.APIOptions = append(o.APIOptions, raw.option) })
	if err != nil {
		return nil, sageMakerNotFound(err, "monitoring schedule "+name)
	}
	m, err := raw.object("")
	if err != nil {
		return nil, err
	}
	return sageMakerTags(ctx, c, pickKeys(m, sageMakerMonitoringScheduleProps), aws.ToString(out.MonitoringScheduleArn))
}

// sageMakerTags adds the resource's tags (every page) to m.
func sageMakerTags(ctx context.Context, c *Clients, m map[string]any, arn string) (map[string]any, error) {
	if arn == "" {
		return nil, skip("SageMaker answered no ARN: the tags cannot be read")
	}
	tags := []any{}
	p := sagemaker.NewListTagsPaginator(c.SageMaker, &sagemaker.ListTagsInput{ResourceArn: &arn})
	for p.HasMorePages() {
		out, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, t := range out.Tags {
			tags = append(tags, map[string]any{"Key": aws.ToString(t.Key), "Value": aws.ToString(t.Value)})
		}
	}
	if len(tags) > 0 {
		m["Tags"] = tags
	}
	return m, nil
}
