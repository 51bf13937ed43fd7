package classify

import (
	"regexp"
	"strings"
	"sync"

	"github.com/realdrift/realdrift/internal/normalize"
)

// typeFacts are the hand-kept per-type facts of seed 002 §6 that neither the
// registry schema nor the mined known-values table carries. Every entry is
// a rule for the whole resource type.
type typeFacts struct {
	// identities name the identity field(s) of object arrays (schema path)
	// the generic Key/Id/AttributeName/IndexName rule does not cover.
	identities map[string]*identity
	// scalarSets are scalar arrays (generic path) compared as sets whose
	// live-only members are inventory at A[value].
	scalarSets map[string]bool
	// unorderedScalar / unorderedObject extend the schema's
	// insertionOrder:false paths with sets AWS reorders anyway.
	unorderedScalar []string
	unorderedObject []string
	// descend are identity-less object arrays (schema path) walked element
	// by element, so live-only keys inside an element surface.
	descend map[string]bool
	// descendUndeclared are fully undeclared top-level objects reported per
	// sub-key rather than as one finding at their own path.
	descendUndeclared map[string]bool
	// equivalences: schema path → the representational folds that hold
	// there (imported: trailingSlash, intelligentTiering, booleanString,
	// propertiesText); a map path's folds hold for its values.
	equivalences map[string][]string
	// jsonFills: JSON-text schema path → keys the service injects into
	// each declared object of the text (ImportedFacts.JSONFills).
	jsonFills map[string]map[string]any
	// emptyMeans: declared-empty top-level collection → canonical JSON of
	// what the service materialises for it (not drift).
	emptyMeans map[string]string
	// roundedDown: scalar schema path → unit the service rounds down to.
	roundedDown map[string]float64
	// aclString: Redis ACL access-string paths.
	aclString map[string]bool
	// watched are schema paths whose value AWS picks per resource (zones,
	// windows, addresses, patch versions): atDefault on a first check
	// whatever the value, and watched by the baseline from the first
	// record on (any later change is confirmed drift). minted are paths
	// whose value AWS or CloudFormation mints (imported, not yet folded).
	watched map[string]bool
	minted  map[string]bool
	// ordered are arrays (schema path) whose order is significant.
	ordered map[string]bool
	// orderedKeys are array keys, at any depth, whose order is significant
	// though their elements are identity-keyed (order.go).
	orderedKeys map[string]bool
	// readGapCollections are declared collections AWS never returns.
	readGapCollections map[string]bool
	// caseInsensitive, latestSentinel and versionPrefix name scalar schema
	// paths with those folds.
	caseInsensitive map[string]bool
	// caseInsensitiveKeys are free-form map paths whose keys the read
	// handler re-cases.
	caseInsensitiveKeys map[string]bool
	latestSentinel      map[string]bool
	versionPrefix       map[string]bool
	// altRepresentation: live key → declared sibling it re-represents
	// (dropped when the sibling is declared).
	altRepresentation map[string]string
	// dropTop are live top-level keys that are Cloud Control mis-echoes.
	dropTop map[string]bool
	// misEcho: live top-level key → the shape of values that are a mis-echo
	// of another property (dropped); any other value is classified.
	misEcho map[string]*regexp.Regexp
	// stripLive are live paths the read returns but no template can set.
	stripLive []string
	// siblingPolicies filters live Policies by sibling policy names.
	siblingPolicies bool
	// tagPaths locate the tags when the schema facts do not.
	tagPaths []string
	// generatedShapes: KeyPath → the shape of a value AWS mints there.
	generatedShapes map[string]*regexp.Regexp
	// knownAlias names a type whose known values hold for this type too
	// under a path prefix (two types sharing one settings model).
	knownAlias struct{ typ, prefix string }
	// offMeaningful: KeyPath → predicate saying a trivially-empty
	// (switched-off) value is a real divergence on this resource.
	offMeaningful map[string]func(r *run) bool
	// derivedDefaults: KeyPath → the value AWS gives the property when the
	// template leaves it unset, derived from the resource's own live
	// values (false when no default is known for them). The live value
	// folds only when it equals the derived one.
	derivedDefaults map[string]derivedFunc
	// nestedParameters names the top-level property through which the
	// resource passes parameters to a nested template of its own (its
	// keys are that template's parameter names): the parameter facts of
	// that template (opts nestedStackParameters, nested.go) fold what the
	// property echoes of it.
	nestedParameters string
}

func set(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

func ids(fields ...string) *identity { return &identity{fields: fields, perElement: true} }

// subsetIDs is an identity-keyed subset set (seed 002 §6
// IDENTITY_KEYED_SUBSET_ARRAYS).
func subsetIDs(fields ...string) *identity {
	return &identity{fields: fields, perElement: true, subset: true}
}

var (
	reKMSKey      = regexp.MustCompile(`^(arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key/)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	reSHA256B64   = regexp.MustCompile(`^[A-Za-z0-9+/]{43}=$`)
	reSHA256Hex   = regexp.MustCompile(`^[0-9a-f]{64}$`)
	reShortID     = regexp.MustCompile(`^[a-z0-9]{6,10}$`)
	reSGList      = regexp.MustCompile(`^\["sg-[0-9a-f]{8,17}"(,"sg-[0-9a-f]{8,17}")*\]$`)
	reCfnAutoName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9]{12}$`)
)

var rdsVersion = set("EngineVersion")

// typeTable is the one registration point of per-type facts. It is built
// once and only read after.
var typeTable = sync.OnceValue(func() map[string]*typeFacts {
	m := map[string]*typeFacts{
		"AWS::IAM::Role": {siblingPolicies: true},
		// A nested stack's stack resource echoes its nested template's
		// parameter defaults and NoEcho masks (seed 003).
		"AWS::CloudFormation::Stack": {nestedParameters: "Parameters"},
		"AWS::IAM::ManagedPolicy": {
			scalarSets: set("Roles", "Users", "Groups"),
		},
		"AWS::EC2::Instance": {
			identities: map[string]*identity{
				"BlockDeviceMappings": subsetIDs("DeviceName"),
				"Volumes":             subsetIDs("Device"),
			},
		},
		"AWS::EC2::VPNConnection": {
			identities: map[string]*identity{"VpnTunnelOptionsSpecifications": subsetIDs("TunnelInsideCidr")},
		},
		"AWS::Cognito::UserPool": {
			// Cognito keeps the deprecated UnusedAccountValidityDays equal
			// to the password policy's TemporaryPasswordValidityDays.
			derivedDefaults: map[string]derivedFunc{
				"AdminCreateUserConfig.UnusedAccountValidityDays": func(r *run, _ string) (any, bool) {
					return getPath(r.live, "Policies.PasswordPolicy.TemporaryPasswordValidityDays")
				},
			},
			identities: map[string]*identity{"Schema": {
				fields: []string{"Name"}, perElement: true, subset: true,
				// Custom attributes are declared bare and read back
				// with the service's "custom:" prefix.
				match: func(k string) string { return strings.TrimPrefix(k, "custom:") },
			}},
		},
		"AWS::Cognito::UserPoolUser": {
			identities: map[string]*identity{"UserAttributes": ids("Name")},
		},
		// An environment and a configuration template carry the same
		// option-settings model, with the same service defaults.
		"AWS::ElasticBeanstalk::ConfigurationTemplate": {
			identities: map[string]*identity{"OptionSettings": subsetIDs("Namespace", "OptionName")},
			knownAlias: struct{ typ, prefix string }{"AWS::ElasticBeanstalk::Environment", "OptionSettings["},
		},
		"AWS::ElasticBeanstalk::Environment": {
			identities: map[string]*identity{"OptionSettings": subsetIDs("Namespace", "OptionName")},
			knownAlias: struct{ typ, prefix string }{"AWS::ElasticBeanstalk::ConfigurationTemplate", "OptionSettings["},
		},
		// A workgroup's parameters read back as the resolved set (about
		// nine), of which a template declares one or two (seed 002
		// NAME_VALUE_SUBSET_PATHS): the declared ones are compared, the
		// ones AWS filled in are folded whatever their value and watched
		// by the baseline (a later change is confirmed drift).
		"AWS::RedshiftServerless::Workgroup": {
			identities: map[string]*identity{"ConfigParameters": subsetIDs("ParameterKey")},
			watched:    set("ConfigParameters.*"),
		},
		"AWS::RDS::OptionGroup": {
			identities: map[string]*identity{"OptionConfigurations.*.OptionSettings": ids("Name")},
			descend:    set("OptionConfigurations"),
		},
		"AWS::ApiGateway::Stage": {
			identities: map[string]*identity{"MethodSettings": ids("HttpMethod")},
		},
		"AWS::ApiGateway::Method": {
			identities: map[string]*identity{
				"Integration.IntegrationResponses": ids("StatusCode"),
				"MethodResponses":                  ids("StatusCode"),
			},
		},
		"AWS::Backup::BackupPlan": {
			identities: map[string]*identity{"BackupPlan.BackupPlanRule": ids("RuleName")},
		},
		"AWS::Route53Resolver::FirewallRuleGroup": {
			identities: map[string]*identity{"FirewallRules": ids("Priority")},
		},
		"AWS::SecretsManager::Secret": {
			identities: map[string]*identity{"ReplicaRegions": ids("Region")},
		},
		"AWS::DLM::LifecyclePolicy": {
			identities: map[string]*identity{"PolicyDetails.Schedules": ids("Name")},
		},
		"AWS::WAFv2::WebACL": {
			identities:        map[string]*identity{"Rules": ids("Name")},
			altRepresentation: map[string]string{"SearchStringBase64": "SearchString"},
		},
		"AWS::WAFv2::RuleGroup": {
			identities:        map[string]*identity{"Rules": ids("Name")},
			altRepresentation: map[string]string{"SearchStringBase64": "SearchString"},
		},
		"AWS::ECS::TaskDefinition": {
			identities: map[string]*identity{"ContainerDefinitions": ids("Name")},
		},
		"AWS::Batch::JobDefinition": {readGapCollections: set("Timeout")},
		"AWS::CloudTrail::Trail": {
			// No selectors means the default management-events selector.
			emptyMeans: map[string]string{"EventSelectors": `[{"DataResources":[],"ExcludeManagementEventSources":[],"IncludeManagementEvents":true,"ReadWriteType":"All"}]`},
		},
		"AWS::DataBrew::Recipe":  {caseInsensitiveKeys: set("Steps.*.Action.Parameters")},
		"AWS::AppSync::ApiKey":   {roundedDown: map[string]float64{"Expires": 3600}},
		"AWS::MemoryDB::User":    {aclString: set("AccessString")},
		"AWS::ElastiCache::User": {aclString: set("AccessString")},
		"AWS::SSM::Document":     {altRepresentation: map[string]string{"DocumentFormat": "Content"}},
		"AWS::GuardDuty::Filter": {
			// The deprecated short operators read back long-form.
			altRepresentation: map[string]string{
				"GreaterThanOrEqual": "Gte", "GreaterThan": "Gt", "LessThanOrEqual": "Lte",
				"LessThan": "Lt", "Equals": "Eq", "NotEquals": "Neq",
			},
		},
		"AWS::Budgets::Budget": {readGapCollections: set("NotificationsWithSubscribers")},
		"AWS::DynamoDB::Table": {
			readGapCollections: set("SSESpecification"),
			derivedDefaults: map[string]derivedFunc{
				"WarmThroughput": warmFromProvisioned,
				"GlobalSecondaryIndexes[*].WarmThroughput": warmFromProvisioned,
			},
		},
		"AWS::EC2::Subnet": {altRepresentation: map[string]string{"AvailabilityZoneId": "AvailabilityZone"}},
		"AWS::EC2::Route": {
			// Cloud Control echoes a route's gateway target as its
			// VpcEndpointId; only a vpce- value is a real endpoint route.
			misEcho: map[string]*regexp.Regexp{"VpcEndpointId": regexp.MustCompile(`^(igw|nat|eigw|vgw|tgw|pcx|eni|i)-[0-9a-f]{8,17}$`)},
		},
		"AWS::ElasticLoadBalancingV2::LoadBalancer": {
			altRepresentation: map[string]string{"SubnetMappings": "Subnets", "Subnets": "SubnetMappings"},
		},
		"AWS::Route53::RecordSet": {
			caseInsensitive: set("AliasTarget.DNSName"),
			unorderedScalar: []string{"ResourceRecords"},
		},
		"AWS::Batch::ComputeEnvironment":     {caseInsensitive: set("Type", "ComputeResources.Type")},
		"AWS::ECS::Service":                  {latestSentinel: set("PlatformVersion")},
		"AWS::ECS::TaskSet":                  {latestSentinel: set("PlatformVersion")},
		"AWS::RDS::DBInstance":               {versionPrefix: rdsVersion, unorderedScalar: []string{"EnableCloudwatchLogsExports"}},
		"AWS::RDS::DBCluster":                {versionPrefix: rdsVersion, unorderedScalar: []string{"EnableCloudwatchLogsExports"}},
		"AWS::Neptune::DBCluster":            {versionPrefix: rdsVersion, unorderedScalar: []string{"EnableCloudwatchLogsExports"}},
		"AWS::DocDB::DBCluster":              {versionPrefix: rdsVersion, unorderedScalar: []string{"EnableCloudwatchLogsExports"}},
		"AWS::ElastiCache::ReplicationGroup": {versionPrefix: rdsVersion},
		"AWS::ElastiCache::CacheCluster":     {versionPrefix: rdsVersion},
		"AWS::Cognito::UserPoolClient": {
			unorderedScalar: []string{"AllowedOAuthFlows", "AllowedOAuthScopes", "CallbackURLs", "LogoutURLs", "SupportedIdentityProviders", "ExplicitAuthFlows"},
		},
		"AWS::WAFv2::IPSet":                    {unorderedScalar: []string{"Addresses"}},
		"AWS::CodeDeploy::DeploymentGroup":     {unorderedScalar: []string{"AutoRollbackConfiguration.Events"}},
		"AWS::Cognito::UserPoolResourceServer": {unorderedObject: []string{"Scopes"}},
		"AWS::EC2::SecurityGroup":              {unorderedObject: []string{"SecurityGroupIngress", "SecurityGroupEgress"}},
		"AWS::ApiGatewayV2::Stage":             {generatedShapes: map[string]*regexp.Regexp{"DeploymentId": reShortID}},
		"AWS::Lambda::Function":                {generatedShapes: map[string]*regexp.Regexp{"CodeSha256": reSHA256B64}},
		"AWS::Lambda::Version":                 {generatedShapes: map[string]*regexp.Regexp{"CodeSha256": reSHA256B64}},
		// The script hash the Glue supplement computes (seed 002
		// GENERATED_TOPLEVEL_PATHS), recordable like CodeSha256.
		"AWS::Glue::Job": {generatedShapes: map[string]*regexp.Regexp{"ScriptSha256": reSHA256Hex}},
		"AWS::AutoScaling::AutoScalingGroup": {
			generatedShapes: map[string]*regexp.Regexp{
				"LaunchTemplate.LaunchTemplateName":                                                  reCfnAutoName,
				"MixedInstancesPolicy.LaunchTemplate.LaunchTemplateSpecification.LaunchTemplateName": reCfnAutoName,
			},
		},
		"AWS::MSK::Cluster": {
			generatedShapes: map[string]*regexp.Regexp{"BrokerNodeGroupInfo.SecurityGroups": reSGList},
		},
		"AWS::OpenSearchService::Domain": {
			generatedShapes: map[string]*regexp.Regexp{"EncryptionAtRestOptions.KmsKeyId": reKMSKey},
		},
		"AWS::KMS::Key": {
			// A key disabled out of band breaks every consumer.
			offMeaningful: map[string]func(r *run) bool{"Enabled": always},
		},
		"AWS::S3::Bucket": {
			// Every public-access block switched off.
			offMeaningful: map[string]func(r *run) bool{"PublicAccessBlockConfiguration": always},
		},
		"AWS::GuardDuty::Detector": {
			offMeaningful: map[string]func(r *run) bool{"DataSources": always},
		},
		"AWS::CloudFront::Distribution": {
			// IPv6 switched off on a distribution whose template leaves
			// it at the default (on).
			offMeaningful: map[string]func(r *run) bool{"DistributionConfig.IPV6Enabled": always},
		},
		"AWS::EC2::Volume": {
			// EBS CreateVolume: the volume type defaults to gp2; gp3 has a
			// 3000 IOPS / 125 MiB/s baseline, gp2 3 IOPS per GiB between
			// 100 and 16000.
			derivedDefaults: map[string]derivedFunc{
				"VolumeType": constant("gp2"),
				"Iops":       ebsBaselineIops,
				"Throughput": func(r *run, _ string) (any, bool) { return 125.0, r.live["VolumeType"] == "gp3" },
			},
		},
		"AWS::Route53::HealthCheck": {
			// Route 53 health checks: every 30 s, unhealthy after 3 fails.
			derivedDefaults: map[string]derivedFunc{
				"HealthCheckConfig.RequestInterval":  constant(30.0),
				"HealthCheckConfig.FailureThreshold": constant(3.0),
			},
		},
		"AWS::Kinesis::Stream": {
			// 24 h retention; an on-demand stream starts with 4 shards.
			derivedDefaults: map[string]derivedFunc{
				"RetentionPeriodHours": constant(24.0),
				"ShardCount": func(r *run, _ string) (any, bool) {
					m, _ := r.live["StreamModeDetails"].(map[string]any)
					return 4.0, m["StreamMode"] == "ON_DEMAND"
				},
			},
		},
		"AWS::Config::ConfigurationRecorder": {
			derivedDefaults: map[string]derivedFunc{"RecordingGroup.RecordingStrategy": recordingStrategy},
		},
		"AWS::EC2::NetworkInterface": {
			derivedDefaults: map[string]derivedFunc{"SecondaryPrivateIpAddressCount": secondaryIPCount},
		},
		"AWS::SQS::Queue": {
			offMeaningful: map[string]func(r *run) bool{
				// SSE-SQS switched off on a queue with no KMS key: the queue
				// is now unencrypted.
				"SqsManagedSseEnabled": func(r *run) bool {
					_, kms := r.live["KmsMasterKeyId"]
					_, declKMS := r.decl["KmsMasterKeyId"]
					return !kms && !declKMS
				},
			},
		},
	}
	mergeImported(m)
	return m
})

var emptyFacts = &typeFacts{}

func always(*run) bool { return true }

func factsFor(typ string) *typeFacts {
	if f, ok := typeTable()[typ]; ok {
		return f
	}
	return emptyFacts
}

// meaningfulWhenOff reports whether a trivially-empty live value is a real
// switch-off on this resource (the predicate-gated carve-outs of seed 002
// §6), so it surfaces instead of being dropped.
func (r *run) meaningfulWhenOff(rp string, v any) bool {
	p, ok := r.tf.offMeaningful[KeyPath(rp)]
	return ok && p(r)
}

// derivedDefault reports whether an undeclared value equals the default AWS
// derives for it from the resource's own values (typeFacts.derivedDefaults).
func (r *run) derivedDefault(rp string, v any) bool {
	f, ok := r.tf.derivedDefaults[KeyPath(rp)]
	if !ok {
		return false
	}
	d, ok := f(r, rp)
	return ok && normalize.Equal(d, v)
}

// derivedFunc derives a property's default from the resource's own live
// values; rp is the finding's report path (an element's key in it).
type derivedFunc func(r *run, rp string) (any, bool)

// warmFromProvisioned is the warm throughput DynamoDB gives a provisioned
// table or global secondary index (its own ProvisionedThroughput) when the
// template asks for none: the provisioned capacity itself.
func warmFromProvisioned(r *run, rp string) (any, bool) {
	owner := r.live
	if segs := splitPath(rp); len(segs) == 2 && segs[0].name == "GlobalSecondaryIndexes" && segs[0].key != "" {
		owner = nil
		list, _ := r.live["GlobalSecondaryIndexes"].([]any)
		for _, e := range list {
			if m, ok := e.(map[string]any); ok && m["IndexName"] == segs[0].key {
				owner = m
			}
		}
	}
	pt, ok := owner["ProvisionedThroughput"].(map[string]any)
	if !ok || r.live["BillingMode"] == "PAY_PER_REQUEST" {
		return nil, false
	}
	rc, ok1 := normalize.Number(pt["ReadCapacityUnits"])
	wc, ok2 := normalize.Number(pt["WriteCapacityUnits"])
	if !ok1 || !ok2 {
		return nil, false
	}
	return map[string]any{"ReadUnitsPerSecond": rc, "WriteUnitsPerSecond": wc}, true
}

// ebsBaselineIops is the IOPS an EBS volume gets when none is asked for:
// gp3's 3000 baseline, or gp2's 3 per GiB of its size within [100, 16000].
func ebsBaselineIops(r *run, _ string) (any, bool) {
	switch r.live["VolumeType"] {
	case "gp3":
		return 3000.0, true
	case "gp2":
		size, ok := r.live["Size"].(float64)
		if !ok || size <= 0 {
			return nil, false
		}
		return min(max(3*size, 100), 16000), true
	}
	return nil, false
}

// recordingStrategy is the strategy AWS Config derives from a recording
// group: every supported type, an exclusion list, or the listed types.
func recordingStrategy(r *run, _ string) (any, bool) {
	g, ok := r.live["RecordingGroup"].(map[string]any)
	if !ok {
		return nil, false
	}
	use := ""
	switch {
	case g["AllSupported"] == true:
		use = "ALL_SUPPORTED_RESOURCE_TYPES"
	case !normalize.TriviallyEmpty(g["ExclusionByResourceTypes"]):
		use = "EXCLUSION_BY_RESOURCE_TYPES"
	case !normalize.TriviallyEmpty(g["ResourceTypes"]):
		use = "INCLUSION_BY_RESOURCE_TYPES"
	default:
		return nil, false
	}
	return map[string]any{"UseOnly": use}, true
}

// secondaryIPCount is the number of non-primary private addresses an
// interface holds.
func secondaryIPCount(r *run, _ string) (any, bool) {
	ips, ok := r.live["PrivateIpAddresses"].([]any)
	if !ok || len(ips) == 0 {
		return nil, false
	}
	n := 0.0
	for _, e := range ips {
		if m, ok := e.(map[string]any); ok && m["Primary"] == false {
			n++
		}
	}
	return n, true
}

// constant is a derived default that does not depend on the resource.
func constant(v any) derivedFunc {
	return func(*run, string) (any, bool) { return v, true }
}
