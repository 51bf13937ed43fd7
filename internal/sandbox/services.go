package sandbox

import (
	"github.com/realdrift/realdrift/internal/sandbox/service/dms"
	"github.com/realdrift/realdrift/internal/sandbox/service/kms"
	"github.com/realdrift/realdrift/internal/sandbox/service/lex"
	"github.com/realdrift/realdrift/internal/sandbox/service/route53"
	"github.com/realdrift/realdrift/internal/sandbox/service/sns"
	"github.com/realdrift/realdrift/internal/sandbox/service/sqs"
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
		dms.Service(),
		kms.Service(),
		lex.Service(),
		route53.Service(),
		sns.Service(),
		sqs.Service(),

		cloudFormationService(srv),
		cloudControlService(srv),
		stsService(srv),
		organizationsService(),
		s3Service(srv),
		iamService(),
		lambdaService(),
		ec2Service(),
		logsService(),
		eventsService(),
		secretsManagerService(),
		ecsService(),
		cognitoService(),
		ssmService(),
		autoScalingService(),
		codeDeployService(),
		acmService(),
		codeBuildService(),
		schedulerService(),
		configService(),
		serviceDiscoveryService(),
		elbv2Service(srv),
		elastiCacheService(),
		daxService(),
		sesService(),
		glueService(),
		appSyncService(),
		lakeFormationService(),
		mediaConvertService(),
		docDBService(),
		budgetsService(),
		dlmService(),
		sageMakerService(),
		cognitoIdentityService(),
		cloudWatchService(),
		memoryDBService(),
		kafkaService(),
		elasticBeanstalkService(),
		redshiftServerlessService(),
		securityHubService(srv),
		applicationAutoScalingService(),
	} {
		out[svc.Name] = svc
	}
	return out
}
