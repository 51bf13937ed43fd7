package live_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	certArn = "arn:aws:acm:us-east-1:111111111111:certificate/0a1b2c3d-0000-4000-8000-000000000001"
	certDNS = `{"DomainName":"app.example.com","SubjectAlternativeNames":["*.app.example.com"],"ValidationMethod":"DNS","KeyAlgorithm":"EC_prime256v1","Tags":[{"Key":"team","Value":"web"}]}`
)

func TestCertificateRoundTrip(t *testing.T) {
	pca := "arn:aws:acm-pca:us-east-1:111111111111:certificate-authority/11111111-2222-3333-4444-555555555555"
	srv, url := serve(t, worldOf(
		liveOnly("AWS::CertificateManager::Certificate", certArn, certDNS),
		liveOnly("AWS::CertificateManager::Certificate", certArn+"2", `{"DomainName":"internal.example","CertificateAuthorityArn":"`+pca+`","CertificateTransparencyLoggingPreference":"DISABLED"}`),
	))
	c := live.NewClients(config(url))
	req := live.Request{Type: "AWS::CertificateManager::Certificate", LogicalID: "Cert", PhysicalID: certArn, Declared: declaredOf(t, certDNS)}
	got := live.Read(ctx(t), c, req)
	if got.Status != live.Found || got.Route != live.RouteOverride {
		t.Fatalf("read: %+v", got)
	}
	// ACM's own first SAN (the domain) left out; the transparency
	// preference ACM answers is undeclared.
	want := declaredOf(t, certDNS)
	want["CertificateTransparencyLoggingPreference"] = "ENABLED"
	if diff := cmp.Diff(got.Model, want); diff != "" {
		t.Errorf("model (-got +want):\n%s", diff)
	}
	declared := declaredOf(t, certDNS)
	declared["CertificateTransparencyLoggingPreference"] = "ENABLED"
	clean := live.Request{Type: req.Type, LogicalID: "Cert", PhysicalID: certArn, Declared: declared}
	if fs := classifyEntry(t, clean, got.Model); len(fs) != 0 {
		t.Errorf("clean read classified as %+v", fs)
	}
	// A template naming the domain among its SANs reads it there.
	both := declaredOf(t, certDNS)
	both["SubjectAlternativeNames"] = []any{"app.example.com", "*.app.example.com"}
	if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: certArn, Declared: both}); !cmp.Equal(got.Model["SubjectAlternativeNames"], both["SubjectAlternativeNames"]) {
		t.Errorf("declared domain SAN: %v", got.Model["SubjectAlternativeNames"])
	}
	// A private CA's certificate: no validation method.
	got = live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: certArn + "2"})
	if diff := cmp.Diff(got.Model, map[string]any{"DomainName": "internal.example", "CertificateAuthorityArn": pca, "KeyAlgorithm": "RSA_2048", "CertificateTransparencyLoggingPreference": "DISABLED"}); diff != "" {
		t.Errorf("private certificate (-got +want):\n%s", diff)
	}

	// Out of band: a tag changes.
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: req.Type, Identifier: certArn, Path: "Tags.0.Value", Value: json.RawMessage(`"ops"`)}); err != nil {
		t.Fatal(err)
	}
	fs := classifyEntry(t, clean, live.Read(ctx(t), c, clean).Model)
	if len(fs) != 1 || fs[0].Tier != drift.Declared || !strings.HasPrefix(fs[0].Path, "Tags") {
		t.Errorf("out-of-band tag change: %+v, want one declared finding on Tags", fs)
	}

	gone := certArn[:len(certArn)-1] + "9"
	if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: gone}); got.Status != live.NotFound {
		t.Errorf("missing certificate: %+v, want notFound", got)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: "not-an-arn"}); got.Status != live.Skipped || !strings.Contains(got.Reason, "InvalidArnException") {
		t.Errorf("bad ARN: %+v, want skipped with InvalidArnException", got)
	}
	for _, f := range []sandbox.FaultRule{
		{Service: "acm", Action: "DescribeCertificate", Code: "AccessDeniedException", Status: 400},
		{Service: "acm", Action: "ListTagsForCertificate", Code: "ThrottlingException", Status: 400},
	} {
		if err := srv.SetFaults([]sandbox.FaultRule{f}); err != nil {
			t.Fatal(err)
		}
		got := live.Read(ctx(t), c, req)
		if got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "ACM "+f.Action+": "+f.Code) {
			t.Errorf("%s %s: %+v, want skipped with the code (tags unread are never tags removed)", f.Action, f.Code, got)
		}
	}
}
