package live

import (
	"reflect"
	"sort"
)

// readPrefixes is the IAM service prefix of each Clients field's calls:
// the one table a new reader's client is added to (TestReadActions fails
// for a Clients field without an entry). Cloud Control's actions are
// CloudFormation's; Identity (sts:GetCallerIdentity) needs no permission
// and is left out.
var readPrefixes = map[string]string{
	"CloudControl":       "cloudformation",
	"CloudFormation":     "cloudformation",
	"S3":                 "s3",
	"SQS":                "sqs",
	"SNS":                "sns",
	"IAM":                "iam",
	"Lambda":             "lambda",
	"EC2":                "ec2",
	"Logs":               "logs",
	"Events":             "events",
	"KMS":                "kms",
	"Secrets":            "secretsmanager",
	"ECS":                "ecs",
	"Cognito":            "cognito-idp",
	"SSM":                "ssm",
	"AutoScaling":        "autoscaling",
	"CodeDeploy":         "codedeploy",
	"Route53":            "route53",
	"ACM":                "acm",
	"CodeBuild":          "codebuild",
	"Scheduler":          "scheduler",
	"Config":             "config",
	"ServiceDiscovery":   "servicediscovery",
	"ELBv2":              "elasticloadbalancing",
	"ElastiCache":        "elasticache",
	"DAX":                "dax",
	"SES":                "ses",
	"Glue":               "glue",
	"AppSync":            "appsync",
	"LakeFormation":      "lakeformation",
	"MediaConvert":       "mediaconvert",
	"MemoryDB":           "memorydb",
	"Kafka":              "kafka",
	"DocDB":              "rds",
	"DMS":                "dms",
	"Budgets":            "budgets",
	"DLM":                "dlm",
	"SageMaker":          "sagemaker",
	"CognitoIdentity":    "cognito-identity",
	"CloudWatch":         "cloudwatch",
	"ElasticBeanstalk":   "elasticbeanstalk",
	"RedshiftServerless": "redshift-serverless",
	"LexModels":          "lex",
	"RDS":                "rds",
	"AppAutoScaling":     "application-autoscaling",
}

// readActionNames are the calls whose IAM action is not named after the
// operation ("prefix:Operation" → action).
var readActionNames = map[string]string{
	"budgets:DescribeBudget":  "budgets:ViewBudget",
	"budgets:DescribeBudgets": "budgets:ViewBudget",
}

// deniedDataReads are calls a reader makes that the member read role
// denies by design (infra dataReadDenials: reads of data, not
// configuration): left out of ReadActions. The reader is best effort
// there — the Glue Job supplement's s3:GetObject of the job's script
// fails in the service and ScriptSha256 is reported unread (an
// informational readGap); with a role that grants it (a user's own
// credentials) the hash is read.
var deniedDataReads = map[string]bool{
	"s3:GetObject": true,
}

// extendedReadAPIs are the wider interfaces a reader asserts a Clients
// field to (a method the field's own interface does not name).
var extendedReadAPIs = map[string][]reflect.Type{
	"CloudControl": {reflect.TypeFor[ccListAPI]()},
}

// ReadActions lists, sorted and without duplicates, every IAM action the
// readers, supplements and enumerators call through Clients (less
// deniedDataReads): the member
// read role's explicit grants (infra holds its read role equal to them
// through the committed copy testdata/iam/member-read-role.json, checked
// in the service's tests), so a reader's call never depends on what an
// AWS managed policy happens to grant.
func ReadActions() []string {
	seen := map[string]bool{}
	ct := reflect.TypeFor[Clients]()
	for i := range ct.NumField() {
		f := ct.Field(i)
		prefix, ok := readPrefixes[f.Name]
		if !ok || f.Type.Kind() != reflect.Interface {
			continue
		}
		for _, it := range append([]reflect.Type{f.Type}, extendedReadAPIs[f.Name]...) {
			for m := range it.NumMethod() {
				a := prefix + ":" + it.Method(m).Name
				if n, ok := readActionNames[a]; ok {
					a = n
				}
				if !deniedDataReads[a] {
					seen[a] = true
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for a := range seen {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}
