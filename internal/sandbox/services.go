package sandbox

import (
	"github.com/realdrift/realdrift/internal/sandbox/service/acm"
	"github.com/realdrift/realdrift/internal/sandbox/service/applicationautoscaling"
	"github.com/realdrift/realdrift/internal/sandbox/service/appsync"
	"github.com/realdrift/realdrift/internal/sandbox/service/autoscaling"
	"github.com/realdrift/realdrift/internal/sandbox/service/budgets"
	"github.com/realdrift/realdrift/internal/sandbox/service/cloudtrail"
	"github.com/realdrift/realdrift/internal/sandbox/service/codebuild"
	"github.com/realdrift/realdrift/internal/sandbox/service/codedeploy"
	"github.com/realdrift/realdrift/internal/sandbox/service/cognitoidentity"
	"github.com/realdrift/realdrift/internal/sandbox/service/cognitoidp"
	"github.com/realdrift/realdrift/internal/sandbox/service/config"
	"github.com/realdrift/realdrift/internal/sandbox/service/dax"
	"github.com/realdrift/realdrift/internal/sandbox/service/dlm"
	"github.com/realdrift/realdrift/internal/sandbox/service/dms"
	"github.com/realdrift/realdrift/internal/sandbox/service/ec2"
	"github.com/realdrift/realdrift/internal/sandbox/service/ecs"
	"github.com/realdrift/realdrift/internal/sandbox/service/elasticache"
	"github.com/realdrift/realdrift/internal/sandbox/service/elasticbeanstalk"
	"github.com/realdrift/realdrift/internal/sandbox/service/elasticloadbalancing"
	"github.com/realdrift/realdrift/internal/sandbox/service/events"
	"github.com/realdrift/realdrift/internal/sandbox/service/glue"
	"github.com/realdrift/realdrift/internal/sandbox/service/kafka"
	"github.com/realdrift/realdrift/internal/sandbox/service/kms"
	"github.com/realdrift/realdrift/internal/sandbox/service/lakeformation"
	"github.com/realdrift/realdrift/internal/sandbox/service/lambda"
	"github.com/realdrift/realdrift/internal/sandbox/service/lex"
	"github.com/realdrift/realdrift/internal/sandbox/service/logs"
	"github.com/realdrift/realdrift/internal/sandbox/service/mediaconvert"
	"github.com/realdrift/realdrift/internal/sandbox/service/memorydb"
	"github.com/realdrift/realdrift/internal/sandbox/service/monitoring"
	"github.com/realdrift/realdrift/internal/sandbox/service/organizations"
	"github.com/realdrift/realdrift/internal/sandbox/service/rds"
	"github.com/realdrift/realdrift/internal/sandbox/service/redshiftserverless"
	"github.com/realdrift/realdrift/internal/sandbox/service/route53"
	"github.com/realdrift/realdrift/internal/sandbox/service/sagemaker"
	"github.com/realdrift/realdrift/internal/sandbox/service/scheduler"
	"github.com/realdrift/realdrift/internal/sandbox/service/secretsmanager"
	"github.com/realdrift/realdrift/internal/sandbox/service/servicediscovery"
	"github.com/realdrift/realdrift/internal/sandbox/service/ses"
	"github.com/realdrift/realdrift/internal/sandbox/service/sns"
	"github.com/realdrift/realdrift/internal/sandbox/service/sqs"
	"github.com/realdrift/realdrift/internal/sandbox/service/ssm"
	"github.com/realdrift/realdrift/internal/sandbox/wire"
)

// services is the one registration table of emulated services, one line
// a service, keyed by SigV4 signing name. A service in its own folder
// (internal/sandbox/service/NAME) registers as NAME.Service(); the rest
// still live in this package, and those given srv need the server itself
// (Cloud Control requests, STS sessions, S3 objects, Security Hub
// findings, schema facts).
func services(srv *Server) map[string]*wire.Service {
	out := map[string]*wire.Service{}
	for _, svc := range []*wire.Service{
		acm.Service(),
		applicationautoscaling.Service(),
		appsync.Service(),
		autoscaling.Service(),
		budgets.Service(),
		cloudtrail.Service(),
		codebuild.Service(),
		codedeploy.Service(),
		cognitoidentity.Service(),
		cognitoidp.Service(),
		config.Service(),
		dax.Service(),
		dlm.Service(),
		dms.Service(),
		ec2.Service(),
		ecs.Service(),
		elasticache.Service(),
		elasticbeanstalk.Service(),
		elasticloadbalancing.Service(),
		events.Service(),
		glue.Service(),
		kafka.Service(),
		kms.Service(),
		lakeformation.Service(),
		lambda.Service(),
		lex.Service(),
		logs.Service(),
		mediaconvert.Service(),
		memorydb.Service(),
		monitoring.Service(),
		organizations.Service(),
		rds.Service(),
		redshiftserverless.Service(),
		route53.Service(),
		sagemaker.Service(),
		scheduler.Service(),
		secretsmanager.Service(),
		servicediscovery.Service(),
		ses.Service(),
		sns.Service(),
		sqs.Service(),
		ssm.Service(),

		cloudFormationService(srv),
		cloudControlService(srv),
		stsService(srv),
		s3Service(srv),
		iamService(),
		securityHubService(srv),
	} {
		out[svc.Name] = svc
	}
	return out
}
