package live_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/aws/smithy-go"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	wLB = "arn:aws:elasticloadbalancing:us-east-1:111111111111:loadbalancer/app/edge/6d19553c7d7ef1c8"
	wTG = "arn:aws:elasticloadbalancing:us-east-1:111111111111:targetgroup/pool/0123456789abcdef"
)

// The declared subsets of the two bags, and the live bags after an
// out-of-band change of one declared key each.
const (
	lbDeclared = `{"Type":"application","LoadBalancerAttributes":[{"Key":"deletion_protection.enabled","Value":"false"},{"Key":"idle_timeout.timeout_seconds","Value":"120"}]}`
	lbLive     = `{"LoadBalancerArn":"` + wLB + `","Type":"application","LoadBalancerAttributes":[{"Key":"access_logs.s3.enabled","Value":"false"},{"Key":"idle_timeout.timeout_seconds","Value":"300"},{"Key":"deletion_protection.enabled","Value":"true"},{"Key":"routing.http2.enabled","Value":"true"}]}`
	tgDeclared = `{"Protocol":"HTTP","TargetGroupAttributes":[{"Key":"deregistration_delay.timeout_seconds","Value":"30"}]}`
	tgLive     = `{"TargetGroupArn":"` + wTG + `","Protocol":"HTTP","TargetGroupAttributes":[{"Key":"deregistration_delay.timeout_seconds","Value":"300"},{"Key":"stickiness.enabled","Value":"false"}]}`
)

func elbWorld() *sandbox.World {
	return worldOf(
		liveOnly("AWS::ElasticLoadBalancingV2::LoadBalancer", wLB, lbLive),
		liveOnly("AWS::ElasticLoadBalancingV2::TargetGroup", wTG, tgLive),
	)
}

// TestAttributeBagWriter: the drifted keys of a load balancer's and a
// target group's attribute bags are written back per key with
// ModifyLoadBalancerAttributes / ModifyTargetGroupAttributes, the keys the
// template does not declare untouched; the re-read classifies clean and a
// second write makes no call.
func TestAttributeBagWriter(t *testing.T) {
	srv, url := serve(t, elbWorld())
	w := writers(t, url)
	c := ctx(t)
	for _, tc := range []struct {
		typ, arn, declared, ops, call string
	}{
		{"AWS::ElasticLoadBalancingV2::LoadBalancer", wLB, lbDeclared,
			`[{"op":"replace","path":"/LoadBalancerAttributes/idle_timeout.timeout_seconds","value":"120"},{"op":"replace","path":"/LoadBalancerAttributes/deletion_protection.enabled","value":"false"}]`,
			"elasticloadbalancing:ModifyLoadBalancerAttributes"},
		{"AWS::ElasticLoadBalancingV2::TargetGroup", wTG, tgDeclared,
			`[{"op":"replace","path":"/TargetGroupAttributes/deregistration_delay.timeout_seconds","value":"30"}]`,
			"elasticloadbalancing:ModifyTargetGroupAttributes"},
	} {
		tg := live.Target{Type: tc.typ, LogicalID: "X", PhysicalID: tc.arn, Declared: declaredOf(t, tc.declared)}
		req := live.Request{Type: tc.typ, LogicalID: "X", PhysicalID: tc.arn, Declared: tg.Declared}
		if fs := classifyEntry(t, req, read(t, w.Read, req)); len(fs) == 0 {
			t.Fatalf("%s: the out-of-band change is not drift", tc.typ)
		}
		before := srv.Calls().Requests[tc.call]
		if err := w.WriteSDK(c, tg, []byte(tc.ops), nil); err != nil {
			t.Fatalf("%s: %v", tc.typ, err)
		}
		if n := srv.Calls().Requests[tc.call] - before; n != 1 {
			t.Errorf("%s: %d %s calls, want 1", tc.typ, n, tc.call)
		}
		if fs := classifyEntry(t, req, read(t, w.Read, req)); len(fs) != 0 {
			t.Errorf("%s: findings after the write: %+v", tc.typ, fs)
		}
		again := srv.Calls().Requests[tc.call]
		if err := w.WriteSDK(c, tg, []byte(tc.ops), nil); err != nil {
			t.Fatalf("%s again: %v", tc.typ, err)
		}
		if n := srv.Calls().Requests[tc.call] - again; n != 0 {
			t.Errorf("%s again made %d calls", tc.typ, n)
		}
	}
	m, _ := srv.Live("", region, "AWS::ElasticLoadBalancingV2::LoadBalancer", wLB)
	var lb struct{ LoadBalancerAttributes []struct{ Key, Value string } }
	if err := json.Unmarshal(m, &lb); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range lb.LoadBalancerAttributes {
		got[a.Key] = a.Value
	}
	if len(got) != 4 || got["routing.http2.enabled"] != "true" || got["access_logs.s3.enabled"] != "false" || got["idle_timeout.timeout_seconds"] != "120" {
		t.Errorf("bag after the write: %v", got)
	}
	lbt := live.Target{Type: "AWS::ElasticLoadBalancingV2::LoadBalancer", LogicalID: "X", PhysicalID: wLB}
	if err := w.WriteSDK(c, lbt, []byte(`[{"op":"remove","path":"/LoadBalancerAttributes/routing.http2.enabled"}]`), nil); err == nil || !strings.Contains(err.Error(), "no absent state") {
		t.Errorf("removing an attribute: %v", err)
	}
}

// TestAttributeBagWriterDenied: a denied write is the AWS error and
// changes nothing.
func TestAttributeBagWriterDenied(t *testing.T) {
	srv, url := serve(t, elbWorld())
	w := writers(t, url)
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "elasticloadbalancing", Action: "ModifyLoadBalancerAttributes", Code: "AccessDenied", Status: 403}}); err != nil {
		t.Fatal(err)
	}
	lbt := live.Target{Type: "AWS::ElasticLoadBalancingV2::LoadBalancer", LogicalID: "X", PhysicalID: wLB}
	err := w.WriteSDK(ctx(t), lbt, []byte(`[{"op":"replace","path":"/LoadBalancerAttributes/idle_timeout.timeout_seconds","value":"120"}]`), nil)
	var ae smithy.APIError
	if !errors.As(err, &ae) || ae.ErrorCode() != "AccessDenied" {
		t.Errorf("denied write: %v", err)
	}
	if m, _ := srv.Live("", region, "AWS::ElasticLoadBalancingV2::LoadBalancer", wLB); !strings.Contains(string(m), `"Value":"300"`) {
		t.Errorf("written despite the denial: %s", m)
	}
}
