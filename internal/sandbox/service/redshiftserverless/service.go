package redshiftserverless

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves Redshift Serverless (JSON 1.1,
// camelCase): GetWorkgroup from the world's
// AWS::RedshiftServerless::Workgroup models (by WorkgroupName, else the
// identifier), answering the model's ConfigParameters ({ParameterKey,
// ParameterValue} → {parameterKey, parameterValue}), SecurityGroupIds and
// SubnetIds — the top-level properties, else the copies in the model's
// read-only Workgroup echo — with its name, namespace, ARN and an
// AVAILABLE status. An unknown workgroup is the ResourceNotFoundException
// Redshift Serverless answers.
func Service() *wire.Service {
	return wire.JSON("redshift-serverless", "1.1", "RedshiftServerless.", wire.Ops{
		"GetWorkgroup": wire.Read(rsGetWorkgroup),
	})
}
