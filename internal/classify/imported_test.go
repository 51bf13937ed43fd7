package classify

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/schema"
)

// The imported facts fold a value only when it equals the fact; a value
// moved away from it surfaces.
func TestImportedFolds(t *testing.T) {
	opts := Options{Known: &KnownTable{}, AccountID: "111111111111", Region: "eu-west-1"}
	tests := []struct {
		name string
		typ  string
		decl map[string]any
		live map[string]any
		want []string
	}{
		{"a plain default folds", "AWS::AmazonMQ::Broker", nil,
			map[string]any{"AuthenticationStrategy": "SIMPLE"},
			[]string{`atDefault AuthenticationStrategy "SIMPLE"`}},
		{"a changed plain default surfaces", "AWS::AmazonMQ::Broker", nil,
			map[string]any{"AuthenticationStrategy": "LDAP"},
			[]string{`undeclared AuthenticationStrategy "LDAP"`}},
		{"an object default folds with empty extras", "AWS::CodeBuild::Project", nil,
			map[string]any{"Cache": map[string]any{"Type": "NO_CACHE", "Modes": []any{}}},
			[]string{`atDefault Cache {"Modes":[],"Type":"NO_CACHE"}`}},
		{"an object default with a set extra leaf surfaces", "AWS::CodeBuild::Project", nil,
			map[string]any{"Cache": map[string]any{"Type": "NO_CACHE", "Location": "bucket/x"}},
			[]string{`undeclared Cache {"Location":"bucket/x","Type":"NO_CACHE"}`}},
		{"the own region's managed key folds", "AWS::CodeBuild::Project", nil,
			map[string]any{"EncryptionKey": "arn:aws:kms:eu-west-1:111111111111:alias/aws/s3"},
			[]string{`atDefault EncryptionKey "arn:aws:kms:eu-west-1:111111111111:alias/aws/s3"`}},
		{"another account's key surfaces", "AWS::CodeBuild::Project", nil,
			map[string]any{"EncryptionKey": "arn:aws:kms:eu-west-1:222222222222:alias/aws/s3"},
			[]string{`undeclared EncryptionKey "arn:aws:kms:eu-west-1:222222222222:alias/aws/s3"`}},
		{"a protocol-dependent attribute default folds under its protocol", "AWS::ElasticLoadBalancingV2::TargetGroup",
			map[string]any{"Protocol": "TCP", "Port": 80.0},
			map[string]any{"Protocol": "TCP", "Port": 80.0, "TargetGroupAttributes": []any{map[string]any{"Key": "stickiness.type", "Value": "source_ip"}}},
			[]string{`atDefault TargetGroupAttributes[stickiness.type] "source_ip"`}},
		{"the HTTP default is not the TCP default", "AWS::ElasticLoadBalancingV2::TargetGroup",
			map[string]any{"Protocol": "TCP", "Port": 80.0},
			map[string]any{"Protocol": "TCP", "Port": 80.0, "TargetGroupAttributes": []any{map[string]any{"Key": "stickiness.type", "Value": "lb_cookie"}}},
			[]string{`undeclared TargetGroupAttributes[stickiness.type] "lb_cookie"`}},
		{"an option setting's default value folds", "AWS::ElasticBeanstalk::Environment", nil,
			map[string]any{"OptionSettings": []any{map[string]any{"Namespace": "aws:autoscaling:asg", "OptionName": "Cooldown", "ResourceName": "AWSEBAutoScalingGroup", "Value": "360"}}},
			[]string{`atDefault OptionSettings[aws:autoscaling:asg|Cooldown] {"Namespace":"aws:autoscaling:asg","OptionName":"Cooldown","ResourceName":"AWSEBAutoScalingGroup","Value":"360"}`}},
		{"an undeclared object at its default is one finding at its own path", "AWS::StepFunctions::StateMachine", nil,
			map[string]any{"LoggingConfiguration": map[string]any{"Level": "OFF", "IncludeExecutionData": false}},
			[]string{`atDefault LoggingConfiguration {"IncludeExecutionData":false,"Level":"OFF"}`}},
		{"an undeclared object the table descends is reported per sub-key", "AWS::KinesisVideo::Stream", nil,
			map[string]any{"StreamStorageConfiguration": map[string]any{"DefaultStorageTier": "HOT"}},
			[]string{`atDefault StreamStorageConfiguration.DefaultStorageTier "HOT"`}},
		{"an AWS-managed default parameter group folds", "AWS::DocDB::DBCluster", nil,
			map[string]any{"DBClusterParameterGroupName": "default.docdb5.0"},
			[]string{`atDefault DBClusterParameterGroupName "default.docdb5.0"`}},
		{"a group named like the default with a suffix surfaces", "AWS::DocDB::DBCluster", nil,
			map[string]any{"DBClusterParameterGroupName": "default.docdb5.0-custom"},
			[]string{`undeclared DBClusterParameterGroupName "default.docdb5.0-custom"`}},
		{"an AWS-managed default option group folds", "AWS::RDS::DBInstance", nil,
			map[string]any{"OptionGroupName": "default:sqlserver-ex-15-00"},
			[]string{`atDefault OptionGroupName "default:sqlserver-ex-15-00"`}},
		{"an option setting with no value is the platform's unset entry", "AWS::ElasticBeanstalk::Environment", nil,
			map[string]any{"OptionSettings": []any{map[string]any{"Namespace": "aws:ec2:vpc", "OptionName": "VPCId"}}},
			[]string{`atDefault OptionSettings[aws:ec2:vpc|VPCId] {"Namespace":"aws:ec2:vpc","OptionName":"VPCId"}`}},
		{"an option setting with a value no table names surfaces", "AWS::ElasticBeanstalk::Environment", nil,
			map[string]any{"OptionSettings": []any{map[string]any{"Namespace": "aws:ec2:vpc", "OptionName": "VPCId", "Value": "vpc-1"}}},
			[]string{`undeclared OptionSettings[aws:ec2:vpc|VPCId] {"Namespace":"aws:ec2:vpc","OptionName":"VPCId","Value":"vpc-1"}`}},
		{"an engine's documented port folds under that engine", "AWS::RDS::DBInstance",
			map[string]any{"Engine": "oracle-se2"},
			map[string]any{"Engine": "oracle-se2", "Port": "1521"},
			[]string{`atDefault Port "1521"`}},
		{"another engine's port surfaces", "AWS::RDS::DBInstance",
			map[string]any{"Engine": "postgres"},
			map[string]any{"Engine": "postgres", "Port": "1521"},
			[]string{`undeclared Port "1521"`}},
		{"a lambda target group's health-check interval folds", "AWS::ElasticLoadBalancingV2::TargetGroup",
			map[string]any{"TargetType": "lambda"},
			map[string]any{"TargetType": "lambda", "HealthCheckIntervalSeconds": 35.0},
			[]string{`atDefault HealthCheckIntervalSeconds 35`}},
		{"a read replica's backups are off by default", "AWS::RDS::DBInstance",
			map[string]any{"Engine": "postgres", "SourceDBInstanceIdentifier": "arn:aws:rds:eu-west-1:111111111111:db:primary"},
			map[string]any{"Engine": "postgres", "SourceDBInstanceIdentifier": "arn:aws:rds:eu-west-1:111111111111:db:primary", "BackupRetentionPeriod": 0.0},
			[]string{`atDefault BackupRetentionPeriod 0`}},
		{"a primary with backups off surfaces", "AWS::RDS::DBInstance",
			map[string]any{"Engine": "postgres"},
			map[string]any{"Engine": "postgres", "BackupRetentionPeriod": 0.0},
			[]string{`undeclared BackupRetentionPeriod 0`}},
		{"a declared intelligent tier matches the tier AWS chose", "AWS::SSM::Parameter",
			map[string]any{"Tier": "Intelligent-Tiering"},
			map[string]any{"Tier": "Standard"},
			[]string{}},
		{"a declared boolean parameter spelled another way matches", "AWS::RDS::DBParameterGroup",
			map[string]any{"Parameters": map[string]any{"rds.force_ssl": "1"}},
			map[string]any{"Parameters": map[string]any{"rds.force_ssl": "true"}},
			[]string{}},
		{"a declared boolean parameter switched off is drift", "AWS::RDS::DBParameterGroup",
			map[string]any{"Parameters": map[string]any{"rds.force_ssl": "1"}},
			map[string]any{"Parameters": map[string]any{"rds.force_ssl": "false"}},
			[]string{`declared Parameters.rds.force_ssl "false" want "1"`}},
		{"a rule's protocol number matches the name EC2 reads back", "AWS::EC2::SecurityGroup",
			map[string]any{"SecurityGroupIngress": []any{map[string]any{"IpProtocol": "6", "FromPort": 443.0, "ToPort": 443.0, "CidrIp": "10.0.0.0/8"}}},
			map[string]any{"SecurityGroupIngress": []any{map[string]any{"IpProtocol": "tcp", "FromPort": 443.0, "ToPort": 443.0, "CidrIp": "10.0.0.0/8"}}},
			[]string{}},
		{"an all-protocols rule's declared range is the range EC2 ignores", "AWS::EC2::SecurityGroupIngress",
			map[string]any{"IpProtocol": "-1", "FromPort": 0.0, "ToPort": 65535.0, "CidrIp": "10.0.0.0/8"},
			map[string]any{"IpProtocol": "-1", "FromPort": -1.0, "ToPort": -1.0, "CidrIp": "10.0.0.0/8"},
			[]string{}},
		{"a rule opened to another port is drift", "AWS::EC2::SecurityGroup",
			map[string]any{"SecurityGroupIngress": []any{map[string]any{"IpProtocol": "6", "FromPort": 443.0, "ToPort": 443.0, "CidrIp": "10.0.0.0/8"}}},
			map[string]any{"SecurityGroupIngress": []any{map[string]any{"IpProtocol": "tcp", "FromPort": 22.0, "ToPort": 22.0, "CidrIp": "10.0.0.0/8"}}},
			[]string{`declared SecurityGroupIngress [{"CidrIp":"10.0.0.0/8","FromPort":22,"IpProtocol":"tcp","ToPort":22}] want [{"CidrIp":"10.0.0.0/8","FromPort":443,"IpProtocol":"tcp","ToPort":443}]`}},
		{"a load-balanced environment's group size defaults to 4", "AWS::ElasticBeanstalk::Environment", nil,
			map[string]any{"OptionSettings": []any{map[string]any{"Namespace": "aws:autoscaling:asg", "OptionName": "MaxSize", "Value": "4"}}},
			[]string{`atDefault OptionSettings[aws:autoscaling:asg|MaxSize] {"Namespace":"aws:autoscaling:asg","OptionName":"MaxSize","Value":"4"}`}},
		{"a single-instance environment's group size defaults to 1", "AWS::ElasticBeanstalk::Environment", nil,
			map[string]any{"OptionSettings": []any{
				map[string]any{"Namespace": "aws:elasticbeanstalk:environment", "OptionName": "EnvironmentType", "Value": "SingleInstance"},
				map[string]any{"Namespace": "aws:autoscaling:asg", "OptionName": "MaxSize", "Value": "1"}}},
			[]string{`atDefault OptionSettings[aws:autoscaling:asg|MaxSize] {"Namespace":"aws:autoscaling:asg","OptionName":"MaxSize","Value":"1"}`,
				`undeclared OptionSettings[aws:elasticbeanstalk:environment|EnvironmentType] {"Namespace":"aws:elasticbeanstalk:environment","OptionName":"EnvironmentType","Value":"SingleInstance"}`}},
		{"a single-instance default in a load-balanced environment surfaces", "AWS::ElasticBeanstalk::Environment", nil,
			map[string]any{"OptionSettings": []any{map[string]any{"Namespace": "aws:autoscaling:asg", "OptionName": "MaxSize", "Value": "1"}}},
			[]string{`undeclared OptionSettings[aws:autoscaling:asg|MaxSize] {"Namespace":"aws:autoscaling:asg","OptionName":"MaxSize","Value":"1"}`}},
		{"the rule type Cost Explorer injects into its rules text folds", "AWS::CE::CostCategory",
			map[string]any{"Rules": `[{"Value":"team-a","Rule":{"Tags":{"Key":"team","Values":["a"]}}}]`},
			map[string]any{"Rules": `[{"Rule":{"Tags":{"Key":"team","Values":["a"]}},"Type":"REGULAR","Value":"team-a"}]`},
			[]string{}},
		{"another rule type in the rules text is drift", "AWS::CE::CostCategory",
			map[string]any{"Rules": `[{"Value":"team-a","Type":"INHERITED_VALUE","InheritedValue":{"DimensionName":"TAG","DimensionKey":"team"}}]`},
			map[string]any{"Rules": `[{"InheritedValue":{"DimensionKey":"team","DimensionName":"TAG"},"Type":"REGULAR","Value":"team-a"}]`},
			[]string{`declared Rules "[{\"InheritedValue\":{\"DimensionKey\":\"team\",\"DimensionName\":\"TAG\"},\"Type\":\"REGULAR\",\"Value\":\"team-a\"}]" want "[{\"Value\":\"team-a\",\"Type\":\"INHERITED_VALUE\",\"InheritedValue\":{\"DimensionName\":\"TAG\",\"DimensionKey\":\"team\"}}]"`}},
		{"a provisioned table's warm throughput is its capacity", "AWS::DynamoDB::Table",
			map[string]any{"BillingMode": "PROVISIONED", "ProvisionedThroughput": map[string]any{"ReadCapacityUnits": 5.0, "WriteCapacityUnits": 5.0},
				"GlobalSecondaryIndexes": []any{map[string]any{"IndexName": "byStatus", "ProvisionedThroughput": map[string]any{"ReadCapacityUnits": 2.0, "WriteCapacityUnits": 1.0}}}},
			map[string]any{"BillingMode": "PROVISIONED", "ProvisionedThroughput": map[string]any{"ReadCapacityUnits": 5.0, "WriteCapacityUnits": 5.0},
				"WarmThroughput": map[string]any{"ReadUnitsPerSecond": 5.0, "WriteUnitsPerSecond": 5.0},
				"GlobalSecondaryIndexes": []any{map[string]any{"IndexName": "byStatus", "ProvisionedThroughput": map[string]any{"ReadCapacityUnits": 2.0, "WriteCapacityUnits": 1.0},
					"WarmThroughput": map[string]any{"ReadUnitsPerSecond": 2.0, "WriteUnitsPerSecond": 1.0}}}},
			[]string{`atDefault WarmThroughput {"ReadUnitsPerSecond":5,"WriteUnitsPerSecond":5}`, `atDefault GlobalSecondaryIndexes[byStatus].WarmThroughput {"ReadUnitsPerSecond":2,"WriteUnitsPerSecond":1}`}},
		{"warm throughput raised above a provisioned table's capacity surfaces", "AWS::DynamoDB::Table",
			map[string]any{"BillingMode": "PROVISIONED", "ProvisionedThroughput": map[string]any{"ReadCapacityUnits": 5.0, "WriteCapacityUnits": 5.0}},
			map[string]any{"BillingMode": "PROVISIONED", "ProvisionedThroughput": map[string]any{"ReadCapacityUnits": 5.0, "WriteCapacityUnits": 5.0},
				"WarmThroughput": map[string]any{"ReadUnitsPerSecond": 500.0, "WriteUnitsPerSecond": 5.0}},
			[]string{`undeclared WarmThroughput {"ReadUnitsPerSecond":500,"WriteUnitsPerSecond":5}`}},
		{"a daemon service's deployment bounds and desired count are the scheduler's", "AWS::ECS::Service",
			map[string]any{"SchedulingStrategy": "DAEMON"},
			map[string]any{"SchedulingStrategy": "DAEMON", "DesiredCount": 3.0, "DeploymentConfiguration": map[string]any{"MaximumPercent": 100.0, "MinimumHealthyPercent": 0.0}},
			[]string{`atDefault DeploymentConfiguration {"MaximumPercent":100,"MinimumHealthyPercent":0}`, `atDefault DesiredCount 3`}},
		{"a replica service's desired count and daemon bounds surface", "AWS::ECS::Service",
			map[string]any{"SchedulingStrategy": "REPLICA"},
			map[string]any{"SchedulingStrategy": "REPLICA", "DesiredCount": 3.0, "DeploymentConfiguration": map[string]any{"MaximumPercent": 100.0, "MinimumHealthyPercent": 0.0}},
			[]string{`undeclared DeploymentConfiguration {"MaximumPercent":100,"MinimumHealthyPercent":0}`, `undeclared DesiredCount 3`}},
		{"a changed option setting surfaces", "AWS::ElasticBeanstalk::Environment", nil,
			map[string]any{"OptionSettings": []any{map[string]any{"Namespace": "aws:autoscaling:asg", "OptionName": "Cooldown", "ResourceName": "AWSEBAutoScalingGroup", "Value": "60"}}},
			[]string{`undeclared OptionSettings[aws:autoscaling:asg|Cooldown] {"Namespace":"aws:autoscaling:asg","OptionName":"Cooldown","ResourceName":"AWSEBAutoScalingGroup","Value":"60"}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Subject{Ref: drift.ResourceRef{Type: tt.typ, PhysicalID: "res-0123456789"}, Declared: tt.decl}
			got := brief(Resource(s, tt.live, nil, opts))
			sort.Strings(got)
			sort.Strings(tt.want)
			if d := cmp.Diff(got, tt.want); d != "" {
				t.Errorf("(-got +want)\n%s", d)
			}
		})
	}
}

// Every imported value row is equality-gated: it names one value (or one
// value template), never a shape.
func TestImportedRowsAreValues(t *testing.T) {
	tab, err := embeddedImported()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for typ, byPath := range tab.rows {
		for p, rows := range byPath {
			for _, r := range rows {
				n++
				if r.pattern != nil {
					// A managed-name pattern is anchored, so it names
					// one family of values, never any string.
					if !strings.HasPrefix(r.pattern.String(), "^") {
						t.Errorf("%s %s: pattern %q is not anchored", typ, p, r.pattern)
					}
					continue
				}
				if r.value == "" || (!r.templated && r.parsed == nil && r.value != "null") {
					t.Errorf("%s %s: row without a value", typ, p)
				}
			}
		}
	}
	if n < 1000 {
		t.Errorf("only %d imported rows", n)
	}
}

// TestWatchedShapesAreTheOneTable: every fold that does not pin a value
// is listed in the generated watched table. No value row of the three
// tables applies a pattern; every pattern row of awsfacts.json, and of
// documented.json at a path no other row names, is in imported.json's
// watchedShapes with its condition and source (go generate
// ./internal/classify/ brings it there); every loaded pattern row comes
// from that table and is anchored at both ends.
func TestWatchedShapesAreTheOneTable(t *testing.T) {
	var imp, aws, doc Imported
	for _, x := range []struct {
		data []byte
		into *Imported
	}{{importedJSON, &imp}, {awsFactsJSON, &aws}, {documentedJSON, &doc}} {
		if err := json.Unmarshal(x.data, x.into); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range imp.Values {
		if v.Pattern != "" {
			t.Errorf("imported.json value row %s %s holds a pattern: it belongs in watchedShapes", v.Type, v.Path)
		}
	}
	listed := map[string]bool{}
	named := map[[2]string]bool{}
	shapes := 0
	for typ, f := range imp.Types {
		for _, w := range f.WatchedShapes {
			shapes++
			if strings.HasPrefix(w.Source, "cdk-real-drift ") {
				named[[2]string{typ, w.Path}] = true // the facts file's managed names
			}
			b, _ := json.Marshal(w)
			listed[typ+" "+string(b)] = true
			if !strings.HasPrefix(w.Pattern, "^") || !strings.HasSuffix(w.Pattern, "$") || w.Source == "" {
				t.Errorf("%s %s: watched shape %q must be anchored at both ends and name its source", typ, w.Path, w.Pattern)
			}
		}
	}
	for _, v := range append(append([]ImportedValue(nil), imp.Values...), aws.Values...) {
		named[[2]string{v.Type, v.Path}] = true
	}
	for _, src := range []struct {
		name string
		rows []ImportedValue
		all  bool
	}{{"awsfacts.json", aws.Values, true}, {"documented.json", doc.Values, false}} {
		for _, v := range src.rows {
			if v.Pattern == "" || (!src.all && named[[2]string{v.Type, v.Path}]) {
				continue
			}
			b, _ := json.Marshal(ShapeOf(v))
			if !listed[v.Type+" "+string(b)] {
				t.Errorf("%s pattern row %s %s %q is not in imported.json's watchedShapes (run go generate ./internal/classify/)", src.name, v.Type, v.Path, v.Pattern)
			}
		}
	}
	tab, err := embeddedImported()
	if err != nil {
		t.Fatal(err)
	}
	loaded := 0
	for _, byPath := range tab.rows {
		for _, rows := range byPath {
			for _, r := range rows {
				if r.pattern != nil {
					loaded++
				}
			}
		}
	}
	if loaded != shapes || shapes < 10 {
		t.Errorf("%d pattern rows loaded, %d watched shapes listed: every pattern row applies from the table, once", loaded, shapes)
	}
}

// TestOrderSignificantArrays: pipeline stages (and the actions of a stage)
// are identity-keyed by name, so each is compared with its own, but their
// order is the pipeline's: a reordering is one declared finding at the
// property, and a pure leaf fold inside still holds.
func TestOrderSignificantArrays(t *testing.T) {
	stage := func(name string, actions ...string) map[string]any {
		var as []any
		for _, a := range actions {
			as = append(as, map[string]any{"Name": a, "RunOrder": 1.0, "ActionTypeId": map[string]any{"Category": "Build", "Owner": "AWS", "Provider": "CodeBuild", "Version": "1"}})
		}
		return map[string]any{"Name": name, "Actions": as}
	}
	tests := []struct {
		name       string
		decl, live []any
		want       []string
	}{
		{"same order", []any{stage("Source", "S"), stage("Build", "B")}, []any{stage("Source", "S"), stage("Build", "B")}, []string{}},
		{"stages swapped", []any{stage("Source", "S"), stage("Build", "B")}, []any{stage("Build", "B"), stage("Source", "S")},
			[]string{`declared Stages [{"Actions":[{"ActionTypeId":{"Category":"Build","Owner":"AWS","Provider":"CodeBuild","Version":"1"},"Name":"B","RunOrder":1}],"Name":"Build"},{"Actions":[{"ActionTypeId":{"Category":"Build","Owner":"AWS","Provider":"CodeBuild","Version":"1"},"Name":"S","RunOrder":1}],"Name":"Source"}] want [{"Actions":[{"ActionTypeId":{"Category":"Build","Owner":"AWS","Provider":"CodeBuild","Version":"1"},"Name":"S","RunOrder":1}],"Name":"Source"},{"Actions":[{"ActionTypeId":{"Category":"Build","Owner":"AWS","Provider":"CodeBuild","Version":"1"},"Name":"B","RunOrder":1}],"Name":"Build"}]`}},
		{"actions of a stage swapped", []any{stage("Build", "Unit", "Lint")}, []any{stage("Build", "Lint", "Unit")},
			[]string{`declared Stages [{"Actions":[{"ActionTypeId":{"Category":"Build","Owner":"AWS","Provider":"CodeBuild","Version":"1"},"Name":"Lint","RunOrder":1},{"ActionTypeId":{"Category":"Build","Owner":"AWS","Provider":"CodeBuild","Version":"1"},"Name":"Unit","RunOrder":1}],"Name":"Build"}] want [{"Actions":[{"ActionTypeId":{"Category":"Build","Owner":"AWS","Provider":"CodeBuild","Version":"1"},"Name":"Unit","RunOrder":1},{"ActionTypeId":{"Category":"Build","Owner":"AWS","Provider":"CodeBuild","Version":"1"},"Name":"Lint","RunOrder":1}],"Name":"Build"}]`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Subject{Ref: drift.ResourceRef{Type: "AWS::CodePipeline::Pipeline", PhysicalID: "p"}, Declared: map[string]any{"Stages": tt.decl}}
			got := brief(Resource(s, map[string]any{"Stages": tt.live}, nil, Options{}))
			if d := cmp.Diff(got, tt.want, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("(-got +want)\n%s", d)
			}
		})
	}
	// A log transformer's processors have no identity field; the schema
	// may still call them unordered, and a swap is drift all the same.
	procs := []any{map[string]any{"ParseJSON": map[string]any{}}, map[string]any{"AddKeys": map[string]any{"Entries": []any{map[string]any{"Key": "k", "Value": "v"}}}}}
	swapped := []any{procs[1], procs[0]}
	facts := &schema.Facts{UnorderedObjectArrayPaths: []string{"TransformerConfig"}}
	s := Subject{Ref: drift.ResourceRef{Type: "AWS::Logs::Transformer", PhysicalID: "t"}, Declared: map[string]any{"TransformerConfig": procs}}
	got := brief(Resource(s, map[string]any{"TransformerConfig": swapped}, facts, Options{}))
	want := []string{`declared TransformerConfig [{"AddKeys":{"Entries":[{"Key":"k","Value":"v"}]}},{"ParseJSON":{}}] want [{"ParseJSON":{}},{"AddKeys":{"Entries":[{"Key":"k","Value":"v"}]}}]`}
	if d := cmp.Diff(got, want); d != "" {
		t.Errorf("transformer processors swapped (-got +want)\n%s", d)
	}
}
