package sandbox

import "github.com/realdrift/realdrift/internal/sandbox/wire"
import "github.com/realdrift/realdrift/internal/sandbox/world"
import "strings"

// iamPrefixes maps a SigV4 signing name to the service prefix of its IAM
// actions where the two differ: Cloud Control's actions are CloudFormation's
// (cloudformation:GetResource, not cloudcontrol:GetResource).
var iamPrefixes = map[string]string{
	"cloudcontrolapi": "cloudformation",
	// CloudWatch signs as monitoring; its actions are cloudwatch:*.
	"monitoring": "cloudwatch",
}

// iamActionNames are the operations whose IAM action is not named after the
// operation, keyed "signing-name:Operation" (S3's are the known
// exceptions; listed ahead of the sandbox serving them all).
var iamActionNames = map[string]string{
	"s3:ListBuckets":                        "s3:ListAllMyBuckets",
	"s3:HeadBucket":                         "s3:ListBucket",
	"s3:ListObjectsV2":                      "s3:ListBucket",
	"s3:GetBucketEncryption":                "s3:GetEncryptionConfiguration",
	"s3:PutBucketEncryption":                "s3:PutEncryptionConfiguration",
	"s3:GetBucketLifecycleConfiguration":    "s3:GetLifecycleConfiguration",
	"s3:PutBucketLifecycleConfiguration":    "s3:PutLifecycleConfiguration",
	"s3:GetPublicAccessBlock":               "s3:GetBucketPublicAccessBlock",
	"s3:PutPublicAccessBlock":               "s3:PutBucketPublicAccessBlock",
	"s3:GetBucketCors":                      "s3:GetBucketCORS",
	"s3:PutBucketCors":                      "s3:PutBucketCORS",
	"s3:GetBucketNotificationConfiguration": "s3:GetBucketNotification",
	"s3:GetBucketReplication":               "s3:GetReplicationConfiguration",
	// Budgets reads are authorized as ViewBudget.
	"budgets:DescribeBudget":  "budgets:ViewBudget",
	"budgets:DescribeBudgets": "budgets:ViewBudget",
}

// unauthenticated are operations no policy governs: AWS answers
// GetCallerIdentity even for a principal whose policies deny everything.
var unauthenticated = map[string]bool{
	"sts:GetCallerIdentity": true,
}

// IAMAction returns the IAM action an operation of a service (by its SigV4
// signing name) is authorized as.
func IAMAction(signingName, operation string) string {
	if a, ok := iamActionNames[signingName+":"+operation]; ok {
		return a
	}
	prefix := signingName
	if p, ok := iamPrefixes[signingName]; ok {
		prefix = p
	}
	return prefix + ":" + operation
}

// iamResource returns the ARN a call is authorized against: the stack a
// CloudFormation call names, the queue or topic of an SQS or SNS call, the
// role AssumeRole asks for; "*" for actions the sandbox does not scope (on
// AWS, actions without resource-level permissions are authorized against
// "*" too, so a statement naming an ARN never covers them).
func (s *Server) iamResource(c *wire.Call) string {
	part := "aws"
	switch c.Service.Name {
	case "cloudformation":
		name := c.Str("StackName")
		if name == "" {
			return "*"
		}
		if strings.HasPrefix(name, "arn:") {
			return name
		}
		s.st.RLock()
		st := s.st.FindStack(c.Account, c.Region, name)
		s.st.RUnlock()
		if st != nil {
			return st.ID
		}
		return world.StackID(c.Region, c.Account, name)
	case "sts":
		if c.Action == "AssumeRole" {
			return c.Str("RoleArn")
		}
	case "sns":
		if t := c.Str("TopicArn"); t != "" {
			return t
		}
	case "securityhub":
		// As AWS authorizes them: an import against the account's
		// default product, a query against its hub.
		switch c.Action {
		case "BatchImportFindings":
			return "arn:" + part + ":securityhub:" + c.Region + ":" + c.Account + ":product/" + c.Account + "/default"
		case "GetFindings", "BatchUpdateFindings":
			return "arn:" + part + ":securityhub:" + c.Region + ":" + c.Account + ":hub/default"
		}
	case "sqs":
		u := c.Str("QueueUrl")
		if u == "" && c.Service.Protocol == wire.ProtoJSON {
			var in struct{ QueueUrl string }
			if c.Decode(&in) == nil {
				u = in.QueueUrl
			}
		}
		if name := u[strings.LastIndexByte(u, '/')+1:]; name != "" {
			return "arn:" + part + ":sqs:" + c.Region + ":" + c.Account + ":" + name
		}
	case "s3":
		// As S3 authorizes them: an object operation against the
		// object's ARN, a bucket operation against the bucket's.
		if b := c.Params["bucket"]; b != "" {
			if k := c.Params["key"]; k != "" {
				return "arn:" + part + ":s3:::" + b + "/" + k
			}
			return "arn:" + part + ":s3:::" + b
		}
	}
	return "*"
}
