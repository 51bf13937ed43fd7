package classify

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
)

func TestEBSDerivedDefaults(t *testing.T) {
	opts := Options{Known: &KnownTable{}}
	tests := []struct {
		name string
		live map[string]any
		want []string
	}{
		{"gp3 baseline folds", map[string]any{"VolumeType": "gp3", "Size": 10.0, "Iops": 3000.0, "Throughput": 125.0},
			[]string{`atDefault Iops 3000`, `atDefault Throughput 125`, `undeclared VolumeType "gp3"`}},
		{"gp3 raised IOPS and throughput surface", map[string]any{"VolumeType": "gp3", "Size": 10.0, "Iops": 4000.0, "Throughput": 250.0},
			[]string{`undeclared Iops 4000`, `undeclared Throughput 250`, `undeclared VolumeType "gp3"`}},
		{"gp2 floor folds", map[string]any{"VolumeType": "gp2", "Size": 10.0, "Iops": 100.0},
			[]string{`atDefault Iops 100`, `atDefault VolumeType "gp2"`}},
		{"gp2 3 per GiB folds", map[string]any{"VolumeType": "gp2", "Size": 500.0, "Iops": 1500.0},
			[]string{`atDefault Iops 1500`, `atDefault VolumeType "gp2"`}},
		{"gp2 off its baseline surfaces", map[string]any{"VolumeType": "gp2", "Size": 500.0, "Iops": 100.0},
			[]string{`undeclared Iops 100`, `atDefault VolumeType "gp2"`}},
		{"io2 IOPS never folds", map[string]any{"VolumeType": "io2", "Size": 10.0, "Iops": 3000.0},
			[]string{`undeclared Iops 3000`, `undeclared VolumeType "io2"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Subject{Ref: drift.ResourceRef{Type: "AWS::EC2::Volume", PhysicalID: "vol-0123456789abcdef0"}, Declared: map[string]any{"Size": tt.live["Size"]}}
			got := brief(Resource(s, tt.live, nil, opts))
			sort.Strings(got)
			sort.Strings(tt.want)
			if d := cmp.Diff(got, tt.want); d != "" {
				t.Errorf("(-got +want)\n%s", d)
			}
		})
	}
}

func TestDocumentedDerivedDefaults(t *testing.T) {
	opts := Options{Known: &KnownTable{}}
	tests := []struct {
		name string
		typ  string
		decl map[string]any
		live map[string]any
		want []string
	}{
		{"health-check interval and threshold fold", "AWS::Route53::HealthCheck",
			map[string]any{"HealthCheckConfig": map[string]any{"Type": "TCP"}},
			map[string]any{"HealthCheckConfig": map[string]any{"Type": "TCP", "RequestInterval": 30.0, "FailureThreshold": 3.0}},
			[]string{"atDefault HealthCheckConfig.FailureThreshold 3", "atDefault HealthCheckConfig.RequestInterval 30"}},
		{"a fast health check surfaces", "AWS::Route53::HealthCheck",
			map[string]any{"HealthCheckConfig": map[string]any{"Type": "TCP"}},
			map[string]any{"HealthCheckConfig": map[string]any{"Type": "TCP", "RequestInterval": 10.0, "FailureThreshold": 3.0}},
			[]string{"atDefault HealthCheckConfig.FailureThreshold 3", "undeclared HealthCheckConfig.RequestInterval 10"}},
		{"an on-demand stream's shards and retention fold", "AWS::Kinesis::Stream",
			map[string]any{"StreamModeDetails": map[string]any{"StreamMode": "ON_DEMAND"}},
			map[string]any{"StreamModeDetails": map[string]any{"StreamMode": "ON_DEMAND"}, "ShardCount": 4.0, "RetentionPeriodHours": 24.0},
			[]string{"atDefault RetentionPeriodHours 24", "atDefault ShardCount 4"}},
		{"a provisioned stream's shards and longer retention surface", "AWS::Kinesis::Stream",
			map[string]any{"StreamModeDetails": map[string]any{"StreamMode": "PROVISIONED"}},
			map[string]any{"StreamModeDetails": map[string]any{"StreamMode": "PROVISIONED"}, "ShardCount": 4.0, "RetentionPeriodHours": 48.0},
			[]string{"undeclared RetentionPeriodHours 48", "undeclared ShardCount 4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Subject{Ref: drift.ResourceRef{Type: tt.typ, PhysicalID: "p-123"}, Declared: tt.decl}
			got := brief(Resource(s, tt.live, nil, opts))
			sort.Strings(got)
			sort.Strings(tt.want)
			if d := cmp.Diff(got, tt.want); d != "" {
				t.Errorf("(-got +want)\n%s", d)
			}
		})
	}
}
