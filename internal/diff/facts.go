package diff

import (
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/schema"
)

// replacementOf decides whether a change at path (dotted, with list indices)
// replaces a resource of type typ with these facts: a create-only path
// equal to it or holding it is Always; a conditionally create-only one, or
// a create-only path inside the changed value (a container replaced whole),
// is Conditional, unless resolvedConditional settles that conditional path
// from what the service's update API allows. No facts: Never (the verdict
// needs the schema).
func replacementOf(typ string, f *schema.Facts, path string) Replacement {
	if f == nil {
		return Never
	}
	p := wildcard(path)
	verdict := Never
	for _, c := range createOnly(f) {
		switch {
		case c == p || within(p, c):
			return Always
		case within(c, p):
			verdict = Conditional
		}
	}
	for _, c := range f.ConditionalCreateOnlyPaths {
		if c == p || within(p, c) || within(c, p) {
			v := Conditional
			if r, ok := resolvedConditional[typ][c]; ok {
				v = r.verdict
			}
			if v == Always && (c == p || within(p, c)) {
				return Always
			}
			if v > verdict {
				verdict = min(v, Conditional)
			}
		}
	}
	return verdict
}

// propagatedReplacement is the verdict of a propagated change of the
// top-level property prop (its template text did not change, its resolved
// value will): a whole create-only property replaces, a conditionally
// create-only one may (seed 000, "Replacement propagation to dependents"),
// as it does when changed directly; resolvedConditional settles it the
// same way.
func propagatedReplacement(typ string, f *schema.Facts, prop string) Replacement {
	if f == nil {
		return Never
	}
	if wholeCreateOnly(f, prop) {
		return Always
	}
	for _, c := range f.ConditionalCreateOnlyPaths {
		if c != prop {
			continue
		}
		if r, ok := resolvedConditional[typ][c]; ok {
			return r.verdict
		}
		return Conditional
	}
	return Never
}

// resolution settles one conditionally create-only property from the
// service's documented update behaviour, with where that is stated.
type resolution struct {
	verdict Replacement
	source  string
}

// resolvedConditional settles conditionally create-only properties (the
// registry's conditionalCreateOnlyProperties) that AWS's update APIs decide
// for every value: Always when the service's update call has no parameter
// for the property (CloudFormation must create a new resource), Never when
// it has one and the property is updated in place. Keyed by type, then by
// the schema's path. Unlisted conditional paths stay Conditional.
var resolvedConditional = map[string]map[string]resolution{
	"AWS::DynamoDB::Table": {
		"KeySchema": {Always, "botocore dynamodb 2012-08-10 UpdateTable: no KeySchema member (a table's key schema is set by CreateTable only)"},
	},
	"AWS::DynamoDB::GlobalTable": {
		"KeySchema":             {Always, "botocore dynamodb 2012-08-10 UpdateTable: no KeySchema member"},
		"LocalSecondaryIndexes": {Always, "botocore dynamodb 2012-08-10 UpdateTable: no LocalSecondaryIndexes member (GlobalSecondaryIndexUpdates covers global indexes only)"},
	},
	"AWS::RDS::DBCluster": {
		"MasterUsername": {Always, "botocore rds 2014-10-31 ModifyDBCluster: no MasterUsername member"},
		"Engine":         {Always, "botocore rds 2014-10-31 ModifyDBCluster: no Engine member (EngineMode and EngineVersion only)"},
	},
	"AWS::RDS::DBInstance": {
		"AutoMinorVersionUpgrade":    {Never, "botocore rds 2014-10-31 ModifyDBInstance: AutoMinorVersionUpgrade member; registry schema text: Update requires No interruption"},
		"PreferredMaintenanceWindow": {Never, "botocore rds 2014-10-31 ModifyDBInstance: PreferredMaintenanceWindow member; registry schema text: Update requires No interruption"},
	},
	"AWS::Neptune::DBInstance": {
		"AutoMinorVersionUpgrade":    {Never, "botocore neptune 2014-10-31 ModifyDBInstance: AutoMinorVersionUpgrade member"},
		"PreferredMaintenanceWindow": {Never, "botocore neptune 2014-10-31 ModifyDBInstance: PreferredMaintenanceWindow member"},
	},
}

// wholeCreateOnly reports whether the top-level property is create-only as
// a whole (the only kind a propagated reference can replace through: seed
// 000, "Replacement propagation to dependents").
func wholeCreateOnly(f *schema.Facts, prop string) bool {
	if f == nil {
		return false
	}
	for _, c := range createOnly(f) {
		if c == prop {
			return true
		}
	}
	return false
}

func createOnly(f *schema.Facts) []string {
	if len(f.CreateOnlyPaths) > 0 {
		return f.CreateOnlyPaths
	}
	return f.CreateOnly
}

// within reports whether path p lies inside path c (c is a proper prefix).
func within(p, c string) bool {
	return strings.HasPrefix(p, c+".")
}

// wildcard turns list indices into "*", the schema facts' item segment.
func wildcard(path string) string {
	segs := strings.Split(path, ".")
	for i, s := range segs {
		if _, err := strconv.Atoi(s); err == nil {
			segs[i] = "*"
		}
	}
	return strings.Join(segs, ".")
}

// statefulTypes hold data a replacement or deletion destroys (seed 000,
// "Replacement detection": the stateful-replacement guard).
var statefulTypes = map[string]bool{
	"AWS::RDS::DBInstance":                 true,
	"AWS::RDS::DBCluster":                  true,
	"AWS::DocDB::DBCluster":                true,
	"AWS::Neptune::DBCluster":              true,
	"AWS::Redshift::Cluster":               true,
	"AWS::DynamoDB::Table":                 true,
	"AWS::DynamoDB::GlobalTable":           true,
	"AWS::S3::Bucket":                      true,
	"AWS::EFS::FileSystem":                 true,
	"AWS::FSx::FileSystem":                 true,
	"AWS::EC2::Volume":                     true,
	"AWS::SecretsManager::Secret":          true,
	"AWS::SSM::Parameter":                  true,
	"AWS::KMS::Key":                        true,
	"AWS::Kinesis::Stream":                 true,
	"AWS::KinesisFirehose::DeliveryStream": true,
	"AWS::SQS::Queue":                      true,
	"AWS::Logs::LogGroup":                  true,
	"AWS::ECR::Repository":                 true,
	"AWS::Cognito::UserPool":               true,
	"AWS::ElastiCache::ReplicationGroup":   true,
	"AWS::ElastiCache::CacheCluster":       true,
	"AWS::OpenSearchService::Domain":       true,
	"AWS::Elasticsearch::Domain":           true,
	"AWS::Backup::BackupVault":             true,
	"AWS::Timestream::Table":               true,
	"AWS::QLDB::Ledger":                    true,
	"AWS::MSK::Cluster":                    true,
	"AWS::AmazonMQ::Broker":                true,
}

// hiddenTypes are left out of the diff unless Input.Strict: resources a
// tool adds for itself that the deploy changes on every synthesis (the
// CDK's version-reporting resource).
var hiddenTypes = map[string]bool{
	"AWS::CDK::Metadata": true,
}

// insideParent lists the resources AWS stores inside another resource: when
// the parent is replaced they go with the old one and are created again,
// whatever their resolved value (seed 000, "Replacement propagation to
// dependents", the children of a replaced parent). Keyed by the dependent's
// type: the parent's type and the dependent's property naming it.
var insideParent = map[string]struct{ parent, prop string }{
	"AWS::Lambda::Permission":                    {"AWS::Lambda::Function", "FunctionName"},
	"AWS::Lambda::Version":                       {"AWS::Lambda::Function", "FunctionName"},
	"AWS::Lambda::Alias":                         {"AWS::Lambda::Function", "FunctionName"},
	"AWS::Lambda::EventInvokeConfig":             {"AWS::Lambda::Function", "FunctionName"},
	"AWS::SNS::Subscription":                     {"AWS::SNS::Topic", "TopicArn"},
	"AWS::SNS::TopicPolicy":                      {"AWS::SNS::Topic", "Topics"},
	"AWS::SQS::QueuePolicy":                      {"AWS::SQS::Queue", "Queues"},
	"AWS::S3::BucketPolicy":                      {"AWS::S3::Bucket", "Bucket"},
	"AWS::Logs::MetricFilter":                    {"AWS::Logs::LogGroup", "LogGroupName"},
	"AWS::Logs::SubscriptionFilter":              {"AWS::Logs::LogGroup", "LogGroupName"},
	"AWS::IAM::Policy":                           {"AWS::IAM::Role", "Roles"},
	"AWS::ApplicationAutoScaling::ScalingPolicy": {"AWS::ApplicationAutoScaling::ScalableTarget", "ScalingTargetId"},
}

// derivedAttributes are attributes an in-place update moves although they
// name no property (seed 000, "In-place attribute propagation").
var derivedAttributes = map[string]map[string]bool{
	"AWS::EC2::LaunchTemplate": {"LatestVersionNumber": true, "DefaultVersionNumber": true},
}

// isCustom reports a custom resource: every attribute is its handler's
// answer, and its Ref may move on an update.
func isCustom(typ string) bool {
	return strings.HasPrefix(typ, "Custom::") || typ == "AWS::CloudFormation::CustomResource"
}

// attributeMoves reports whether an in-place update of a resource of type
// typ, whose changed top-level properties are changed, can move attr
// ("" is its Ref).
func attributeMoves(typ, attr string, changed map[string]bool) bool {
	if isCustom(typ) {
		return true
	}
	if attr == "" {
		return false // an in-place update keeps the physical id
	}
	if attr == "*" {
		return true // an attribute named by an intrinsic: it may be any
	}
	if typ == "AWS::CloudFormation::Stack" && strings.HasPrefix(attr, "Outputs.") {
		return true
	}
	if derivedAttributes[typ][attr] {
		return true
	}
	top, _, _ := strings.Cut(attr, ".")
	return changed[top]
}
