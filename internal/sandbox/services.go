package sandbox

import (
	"github.com/realdrift/realdrift/internal/sandbox/iamauth"
	"github.com/realdrift/realdrift/internal/sandbox/service/acm"
	"github.com/realdrift/realdrift/internal/sandbox/service/applicationautoscaling"
	"github.com/realdrift/realdrift/internal/sandbox/service/appsync"
	"github.com/realdrift/realdrift/internal/sandbox/service/autoscaling"
	"github.com/realdrift/realdrift/internal/sandbox/service/budgets"
	"github.com/realdrift/realdrift/internal/sandbox/service/cloudcontrolapi"
	"github.com/realdrift/realdrift/internal/sandbox/service/cloudformation"
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
	"github.com/realdrift/realdrift/internal/sandbox/service/iam"
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
	"github.com/realdrift/realdrift/internal/sandbox/service/s3"
	"github.com/realdrift/realdrift/internal/sandbox/service/sagemaker"
	"github.com/realdrift/realdrift/internal/sandbox/service/scheduler"
	"github.com/realdrift/realdrift/internal/sandbox/service/secretsmanager"
	"github.com/realdrift/realdrift/internal/sandbox/service/securityhub"
	"github.com/realdrift/realdrift/internal/sandbox/service/servicediscovery"
	"github.com/realdrift/realdrift/internal/sandbox/service/ses"
	"github.com/realdrift/realdrift/internal/sandbox/service/sns"
	"github.com/realdrift/realdrift/internal/sandbox/service/sqs"
	"github.com/realdrift/realdrift/internal/sandbox/service/ssm"
	"github.com/realdrift/realdrift/internal/sandbox/service/sts"
	"github.com/realdrift/realdrift/internal/sandbox/wire"
)

// services is the one registration table of emulated services, one line
// a service, keyed by SigV4 signing name. Each lives in its own folder
// (internal/sandbox/service/NAME) and registers as NAME.Service(), given
// the state of its own the server keeps (S3's objects, Security Hub's
// findings, Cloud Control's requests) or what of the server it needs
// (STS: the fault rules that deny assuming a role; CloudFormation and
// Cloud Control: the schema facts the options give; Cloud Control: IAM's
// check of a type's handlers).
func services(srv *Server) map[string]*wire.Service {
	out := map[string]*wire.Service{}
	for _, svc := range []*wire.Service{
		acm.Service(),
		applicationautoscaling.Service(),
		appsync.Service(),
		autoscaling.Service(),
		budgets.Service(),
		cloudcontrolapi.Service(srv.requests, srv.opts.Facts, iamauth.HandlerRefused),
		cloudformation.Service(srv.opts.Facts),
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
		iam.Service(),
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
		s3.Service(srv.objects),
		sagemaker.Service(),
		scheduler.Service(),
		secretsmanager.Service(),
		securityhub.Service(srv.hub),
		servicediscovery.Service(),
		ses.Service(),
		sns.Service(srv.outbox, kms.Key),
		sqs.Service(),
		ssm.Service(),
		sts.Service(srv.faults.deniesAssume, iamauth.Trusts),
	} {
		out[svc.Name] = svc
	}
	return out
}
