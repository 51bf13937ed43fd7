package sagemaker

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves SageMaker (JSON 1.1, PascalCase, the template's
// own shape): DescribeEndpointConfig and DescribeMonitoringSchedule answer
// the world's AWS::SageMaker::EndpointConfig and MonitoringSchedule models
// by name (the name property, else the identifier's ARN tail) as they hold
// them, with the ARN, times, and a schedule's status and MonitoringType;
// ListTags lists a model's Tags by its ARN (MaxResults, NextToken). A
// missing endpoint configuration is the ValidationException "Could not
// find endpoint configuration" SageMaker answers, a missing schedule
// ResourceNotFound.
func Service() *wire.Service {
	return wire.JSON("sagemaker", "1.1", "SageMaker.", wire.Ops{
		"DescribeEndpointConfig":     sageMakerDescribeEndpointConfig,
		"DescribeMonitoringSchedule": sageMakerDescribeMonitoringSchedule,
		"ListTags":                   wire.Read(sageMakerListTags),
	})
}
