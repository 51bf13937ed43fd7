package classify

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
)

// TestAWSFactsCiteSources: every hand-kept conditional default names the
// AWS documentation it comes from.
func TestAWSFactsCiteSources(t *testing.T) {
	var facts Imported
	if err := json.Unmarshal(awsFactsJSON, &facts); err != nil {
		t.Fatal(err)
	}
	if len(facts.Values) == 0 {
		t.Fatal("no rows")
	}
	for _, v := range facts.Values {
		if v.Source == "" {
			t.Errorf("%s %s: no source", v.Type, v.Path)
		}
	}
}

// TestConditionalDefaults pairs each conditional default: the value AWS
// documents under the resource's own condition folds; the same value under
// another condition, or another value, surfaces.
func TestConditionalDefaults(t *testing.T) {
	const tg = "AWS::ElasticLoadBalancingV2::TargetGroup"
	tests := []struct {
		name     string
		typ      string
		declared map[string]any
		live     map[string]any
		want     []string
	}{
		{"an HTTP target group's health check path / folds", tg,
			map[string]any{"Protocol": "HTTP", "Port": 80.0}, map[string]any{"Protocol": "HTTP", "Port": 80.0, "HealthCheckPath": "/"},
			[]string{`atDefault HealthCheckPath "/"`}},
		{"another health check path surfaces", tg,
			map[string]any{"Protocol": "HTTP", "Port": 80.0}, map[string]any{"Protocol": "HTTP", "Port": 80.0, "HealthCheckPath": "/health"},
			[]string{`undeclared HealthCheckPath "/health"`}},
		{"a gRPC target group's health check path folds", tg,
			map[string]any{"Protocol": "HTTP", "ProtocolVersion": "GRPC"}, map[string]any{"Protocol": "HTTP", "ProtocolVersion": "GRPC", "HealthCheckPath": "/AWS.ALB/healthcheck"},
			[]string{`atDefault HealthCheckPath "/AWS.ALB/healthcheck"`}},
		{"the gRPC path on an HTTP1 target group surfaces", tg,
			map[string]any{"Protocol": "HTTP"}, map[string]any{"Protocol": "HTTP", "HealthCheckPath": "/AWS.ALB/healthcheck"},
			[]string{`undeclared HealthCheckPath "/AWS.ALB/healthcheck"`}},
		{"a lambda target group's healthy threshold 5 folds", tg,
			map[string]any{"TargetType": "lambda"}, map[string]any{"TargetType": "lambda", "HealthyThresholdCount": 5.0},
			[]string{`atDefault HealthyThresholdCount 5`}},
		{"a GENEVE target group's unhealthy threshold 2 folds", tg,
			map[string]any{"Protocol": "GENEVE"}, map[string]any{"Protocol": "GENEVE", "UnhealthyThresholdCount": 2.0},
			[]string{`atDefault UnhealthyThresholdCount 2`}},
		{"a GENEVE target group's unhealthy threshold 3 surfaces", tg,
			map[string]any{"Protocol": "GENEVE"}, map[string]any{"Protocol": "GENEVE", "UnhealthyThresholdCount": 3.0},
			[]string{`undeclared UnhealthyThresholdCount 3`}},
		{"a health check switched off on an instance target group surfaces", tg,
			map[string]any{"Protocol": "HTTP", "TargetType": "instance"}, map[string]any{"Protocol": "HTTP", "TargetType": "instance", "HealthCheckEnabled": false},
			[]string{`undeclared HealthCheckEnabled false`}},
		{"a lambda target group's health check off is its default", tg,
			map[string]any{"TargetType": "lambda"}, map[string]any{"TargetType": "lambda", "HealthCheckEnabled": false},
			[]string{`atDefault HealthCheckEnabled false`}},
		{"a private REST API's dualstack folds", "AWS::ApiGateway::RestApi",
			map[string]any{"EndpointConfiguration": map[string]any{"Types": []any{"PRIVATE"}}},
			map[string]any{"EndpointConfiguration": map[string]any{"Types": []any{"PRIVATE"}, "IpAddressType": "dualstack"}},
			[]string{`atDefault EndpointConfiguration.IpAddressType "dualstack"`}},
		{"a regional REST API's dualstack surfaces", "AWS::ApiGateway::RestApi",
			map[string]any{"EndpointConfiguration": map[string]any{"Types": []any{"REGIONAL"}}},
			map[string]any{"EndpointConfiguration": map[string]any{"Types": []any{"REGIONAL"}, "IpAddressType": "dualstack"}},
			[]string{`undeclared EndpointConfiguration.IpAddressType "dualstack"`}},
		{"one cache cluster without failover folds", "AWS::ElastiCache::ReplicationGroup",
			map[string]any{"AutomaticFailoverEnabled": false}, map[string]any{"AutomaticFailoverEnabled": false, "NumCacheClusters": 1.0},
			[]string{`atDefault NumCacheClusters 1`}},
		{"one cache cluster with failover surfaces", "AWS::ElastiCache::ReplicationGroup",
			map[string]any{"AutomaticFailoverEnabled": true}, map[string]any{"AutomaticFailoverEnabled": true, "NumCacheClusters": 1.0},
			[]string{`undeclared NumCacheClusters 1`}},
		{"a cluster-mode group's cluster parameter group folds", "AWS::ElastiCache::ReplicationGroup",
			map[string]any{"ClusterMode": "enabled"}, map[string]any{"ClusterMode": "enabled", "CacheParameterGroupName": "default.redis7.cluster.on"},
			[]string{`atDefault CacheParameterGroupName "default.redis7.cluster.on"`}},
		{"a cluster parameter group on a cluster-mode-disabled group surfaces", "AWS::ElastiCache::ReplicationGroup",
			map[string]any{"ClusterMode": "disabled"}, map[string]any{"ClusterMode": "disabled", "CacheParameterGroupName": "default.redis7.cluster.on"},
			[]string{`undeclared CacheParameterGroupName "default.redis7.cluster.on"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Subject{Ref: drift.ResourceRef{Type: tt.typ, PhysicalID: "p"}, Declared: tt.declared}
			got := brief(Resource(s, tt.live, nil, Options{Known: &KnownTable{}}))
			if d := cmp.Diff(got, tt.want); d != "" {
				t.Errorf("(-got +want)\n%s", d)
			}
		})
	}
}
