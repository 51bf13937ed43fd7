package live_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	elbv2 "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	elbtypes "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
)

// TestMotoListenerCertificate: an HTTPS listener created in moto with a
// default certificate and two more added (AddListenerCertificates), read
// back by the ListenerCertificate reader.
func TestMotoListenerCertificate(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	ec := ec2.NewFromConfig(cfg)
	vpc, err := ec.CreateVpc(cx, &ec2.CreateVpcInput{CidrBlock: aws.String("10.77.0.0/16")})
	if err != nil {
		t.Fatal(err)
	}
	var subnets []string
	for i, az := range []string{"us-east-1a", "us-east-1b"} {
		sn, err := ec.CreateSubnet(cx, &ec2.CreateSubnetInput{VpcId: vpc.Vpc.VpcId, CidrBlock: aws.String([]string{"10.77.1.0/24", "10.77.2.0/24"}[i]), AvailabilityZone: aws.String(az)})
		if err != nil {
			t.Fatal(err)
		}
		subnets = append(subnets, aws.ToString(sn.Subnet.SubnetId))
	}
	am := acm.NewFromConfig(cfg)
	var certs []string
	for _, d := range []string{"default.moto.example", "a.moto.example", "b.moto.example"} {
		out, err := am.RequestCertificate(cx, &acm.RequestCertificateInput{DomainName: aws.String(d)})
		if err != nil {
			t.Fatal(err)
		}
		certs = append(certs, aws.ToString(out.CertificateArn))
	}
	lb := elbv2.NewFromConfig(cfg)
	l, err := lb.CreateLoadBalancer(cx, &elbv2.CreateLoadBalancerInput{Name: aws.String("moto-web"), Subnets: subnets})
	if err != nil {
		t.Fatal(err)
	}
	tg, err := lb.CreateTargetGroup(cx, &elbv2.CreateTargetGroupInput{Name: aws.String("moto-web"), Protocol: elbtypes.ProtocolEnumHttp, Port: aws.Int32(80), VpcId: vpc.Vpc.VpcId})
	if err != nil {
		t.Fatal(err)
	}
	ls, err := lb.CreateListener(cx, &elbv2.CreateListenerInput{LoadBalancerArn: l.LoadBalancers[0].LoadBalancerArn, Protocol: elbtypes.ProtocolEnumHttps, Port: aws.Int32(443),
		Certificates:   []elbtypes.Certificate{{CertificateArn: &certs[0]}},
		DefaultActions: []elbtypes.Action{{Type: elbtypes.ActionTypeEnumForward, TargetGroupArn: tg.TargetGroups[0].TargetGroupArn}}})
	if err != nil {
		t.Fatal(err)
	}
	listener := aws.ToString(ls.Listeners[0].ListenerArn)
	if _, err := lb.AddListenerCertificates(cx, &elbv2.AddListenerCertificatesInput{ListenerArn: &listener, Certificates: []elbtypes.Certificate{{CertificateArn: &certs[1]}, {CertificateArn: &certs[2]}}}); err != nil {
		t.Fatal(err)
	}
	c := live.NewClients(cfg)
	declared := map[string]any{"ListenerArn": listener, "Certificates": []any{map[string]any{"CertificateArn": certs[2]}, map[string]any{"CertificateArn": certs[1]}}}
	got := live.Read(cx, c, live.Request{Type: "AWS::ElasticLoadBalancingV2::ListenerCertificate", PhysicalID: "x", Declared: declared})
	if got.Status != live.Found {
		t.Fatalf("read: %+v", got)
	}
	if diff := cmp.Diff(got.Model, declared); diff != "" {
		t.Errorf("model (-got +want):\n%s", diff)
	}
	only := map[string]any{"ListenerArn": listener, "Certificates": []any{map[string]any{"CertificateArn": certs[0]}}}
	if got := live.Read(cx, c, live.Request{Type: "AWS::ElasticLoadBalancingV2::ListenerCertificate", PhysicalID: "x", Declared: only}); got.Status != live.NotFound {
		t.Errorf("the default certificate alone: %+v, want notFound (it is the listener's)", got)
	}
}
