package live

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
)

// overrideReader reads one resource through its service API and projects the
// answer into the type's CloudFormation property shape.
type overrideReader func(ctx context.Context, c *Clients, r Request) (map[string]any, error)

// overrides is the one registration table of SDK override readers: types
// Cloud Control cannot read. Their projections match the golden corpus's
// liveRaw for the type (same keys, same shapes).
func overrides() map[string]overrideReader {
	return map[string]overrideReader{
		"AWS::S3::BucketPolicy":   readBucketPolicy,
		"AWS::SQS::QueuePolicy":   readQueuePolicy,
		"AWS::SNS::TopicPolicy":   readTopicPolicy,
		"AWS::IAM::Policy":        readInlinePolicy,
		"AWS::IAM::ManagedPolicy": readManagedPolicy,
		"AWS::IAM::AccessKey":     readAccessKey,
		"AWS::Lambda::Permission": readPermission,

		"AWS::EC2::EIP":             readEIP,
		"AWS::EC2::NetworkAclEntry": readNetworkAclEntry,
		"AWS::EC2::LaunchTemplate":  readLaunchTemplate,
		"AWS::Logs::MetricFilter":   readMetricFilter,

		"AWS::Route53::RecordSet":      readRecordSet,
		"AWS::Route53::RecordSetGroup": readRecordSetGroup,

		"AWS::CertificateManager::Certificate":             readCertificate,
		"AWS::CodeBuild::Project":                          readProject,
		"AWS::CodeBuild::ReportGroup":                      readReportGroup,
		"AWS::Scheduler::Schedule":                         readSchedule,
		"AWS::Config::ConfigurationRecorder":               readConfigurationRecorder,
		"AWS::Config::DeliveryChannel":                     readDeliveryChannel,
		"AWS::ServiceDiscovery::HttpNamespace":             readNamespace,
		"AWS::ServiceDiscovery::PrivateDnsNamespace":       readNamespace,
		"AWS::ServiceDiscovery::PublicDnsNamespace":        readNamespace,
		"AWS::ServiceDiscovery::Service":                   readCloudMapService,
		"AWS::ElasticLoadBalancingV2::ListenerCertificate": readListenerCertificate,
		"AWS::ElastiCache::ParameterGroup":                 readCacheParameterGroup,
		"AWS::DAX::Cluster":                                readDAXCluster,
		"AWS::DAX::SubnetGroup":                            readDAXSubnetGroup,
		"AWS::DAX::ParameterGroup":                         readDAXParameterGroup,
		"AWS::SES::ReceiptFilter":                          readReceiptFilter,
		"AWS::SES::ReceiptRuleSet":                         readReceiptRuleSet,
		"AWS::SES::ReceiptRule":                            readReceiptRule,
		"AWS::SES::ConfigurationSetEventDestination":       readEventDestination,
		"AWS::Glue::Classifier":                            readGlueClassifier,
		"AWS::Glue::Workflow":                              readGlueWorkflow,
		"AWS::AppSync::ApiKey":                             readAppSyncApiKey,
		"AWS::Glue::Connection":                            readGlueConnection,
		"AWS::Glue::SecurityConfiguration":                 readGlueSecurityConfiguration,
		"AWS::LakeFormation::Resource":                     readLakeFormationResource,
		"AWS::MediaConvert::Queue":                         readMediaConvertQueue,
		"AWS::DocDB::DBCluster":                            readDocDBCluster,
		"AWS::DocDB::DBInstance":                           readDocDBInstance,
		"AWS::DMS::Endpoint":                               readDMSEndpoint,
		"AWS::DMS::ReplicationInstance":                    readDMSReplicationInstance,
		"AWS::DMS::ReplicationSubnetGroup":                 readDMSReplicationSubnetGroup,
		"AWS::DMS::ReplicationTask":                        readDMSReplicationTask,
		"AWS::EC2::ClientVpnEndpoint":                      readClientVpnEndpoint,
		"AWS::EC2::ClientVpnTargetNetworkAssociation":      readClientVpnTargetNetworkAssociation,
		"AWS::EC2::ClientVpnAuthorizationRule":             readClientVpnAuthorizationRule,
		"AWS::Budgets::Budget":                             readBudget,
		"AWS::DLM::LifecyclePolicy":                        readLifecyclePolicy,
		"AWS::Glue::Table":                                 readGlueTable,
		"AWS::MediaConvert::JobTemplate":                   readMediaConvertJobTemplate,
		"AWS::SageMaker::EndpointConfig":                   readSageMakerEndpointConfig,
		"AWS::SageMaker::MonitoringSchedule":               readSageMakerMonitoringSchedule,
		"AWS::Cognito::IdentityPool":                       readIdentityPool,
		"AWS::CloudWatch::AnomalyDetector":                 readAnomalyDetector,
	}
}

// parsePolicy decodes a policy document as services return it: JSON text,
// or (IAM) URL-encoded JSON text.
func parsePolicy(text string) (map[string]any, error) {
	s := strings.TrimSpace(text)
	if !strings.HasPrefix(s, "{") {
		dec, err := url.PathUnescape(s)
		if err != nil {
			return nil, skip("policy document is neither JSON nor URL-encoded JSON")
		}
		s = dec
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(s), &doc); err != nil {
		return nil, skip("policy document is not a JSON object: " + err.Error())
	}
	return doc, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func strList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
