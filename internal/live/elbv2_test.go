package live_test

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	elbv2 "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	listenerArn = "arn:aws:elasticloadbalancing:us-east-1:111111111111:listener/app/web/0123456789abcdef/fedcba9876543210"
	certA       = "arn:aws:acm:us-east-1:111111111111:certificate/aaaaaaaa-0000-4000-8000-000000000001"
	certB       = "arn:aws:acm:us-east-1:111111111111:certificate/bbbbbbbb-0000-4000-8000-000000000002"
	certDefault = "arn:aws:acm:us-east-1:111111111111:certificate/dddddddd-0000-4000-8000-000000000000"
)

func TestListenerCertificateRoundTrip(t *testing.T) {
	lc := `{"ListenerArn":"` + listenerArn + `","Certificates":[{"CertificateArn":"` + certB + `"},{"CertificateArn":"` + certA + `"}]}`
	srv, url := serve(t, worldOf(
		liveOnly("AWS::ElasticLoadBalancingV2::Listener", listenerArn, `{"ListenerArn":"`+listenerArn+`","Port":443,"Protocol":"HTTPS","Certificates":[{"CertificateArn":"`+certDefault+`"}]}`),
		liveOnly("AWS::ElasticLoadBalancingV2::ListenerCertificate", "Web-Certs-1", lc),
	))
	c := live.NewClients(config(url))
	req := live.Request{Type: "AWS::ElasticLoadBalancingV2::ListenerCertificate", LogicalID: "Certs", PhysicalID: "Web-Certs-1", Declared: declaredOf(t, lc)}
	got := live.Read(ctx(t), c, req)
	if got.Status != live.Found || got.Route != live.RouteOverride {
		t.Fatalf("read: %+v", got)
	}
	if diff := cmp.Diff(got.Model, declaredOf(t, lc)); diff != "" {
		t.Errorf("model (-got +want):\n%s", diff)
	}
	if fs := classifyEntry(t, req, got.Model); len(fs) != 0 {
		t.Errorf("clean read classified as %+v", fs)
	}
	// Out of band: certificate B removed from the listener.
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpRemove, Region: region, Type: req.Type, Identifier: "Web-Certs-1", Path: "Certificates.0"}); err != nil {
		t.Fatal(err)
	}
	fs := classifyEntry(t, req, live.Read(ctx(t), c, req).Model)
	if len(fs) != 1 || fs[0].Tier != drift.Declared || !strings.HasPrefix(fs[0].Path, "Certificates") {
		t.Errorf("certificate removed out of band: %+v, want one declared finding on Certificates", fs)
	}
	for _, d := range []map[string]any{
		{"ListenerArn": listenerArn, "Certificates": []any{map[string]any{"CertificateArn": certDefault}}}, // the listener's own default
		{"ListenerArn": listenerArn + "0", "Certificates": []any{map[string]any{"CertificateArn": certA}}},
	} {
		if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: "x", Declared: d}); got.Status != live.NotFound {
			t.Errorf("%v: %+v, want notFound", d, got)
		}
	}
	if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: "x", Declared: map[string]any{"ListenerArn": drift.Unknown{}, "Certificates": []any{}}}); !got.Waiting {
		t.Errorf("unresolved listener: %+v, want waiting", got)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "elasticloadbalancing", Action: "DescribeListenerCertificates", Code: "AccessDenied", Status: 403}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, req); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "Elastic Load Balancing v2 DescribeListenerCertificates: AccessDenied") {
		t.Errorf("denied: %+v", got)
	}
	if err := srv.SetFaults(nil); err != nil {
		t.Fatal(err)
	}
	// The sandbox pages by Marker.
	cl := elbv2.NewFromConfig(config(url))
	p := elbv2.NewDescribeListenerCertificatesPaginator(cl, &elbv2.DescribeListenerCertificatesInput{ListenerArn: aws.String(listenerArn), PageSize: aws.Int32(1)})
	var arns []string
	for p.HasMorePages() {
		page, err := p.NextPage(ctx(t))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range page.Certificates {
			arns = append(arns, aws.ToString(c.CertificateArn))
		}
	}
	if diff := cmp.Diff(arns, []string{certDefault, certA}); diff != "" {
		t.Errorf("paged certificates (-got +want):\n%s", diff)
	}
}
