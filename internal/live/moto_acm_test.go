package live_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
	acmtypes "github.com/aws/aws-sdk-go-v2/service/acm/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
)

// TestMotoCertificate: a certificate requested in moto (RequestCertificate
// with SANs and tags) read back by the reader.
func TestMotoCertificate(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	am := acm.NewFromConfig(cfg)
	out, err := am.RequestCertificate(cx, &acm.RequestCertificateInput{
		DomainName: aws.String("moto.example.com"), SubjectAlternativeNames: []string{"moto.example.com", "www.moto.example.com"},
		ValidationMethod: acmtypes.ValidationMethodDns, Tags: []acmtypes.Tag{{Key: aws.String("team"), Value: aws.String("web")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	arn := aws.ToString(out.CertificateArn)
	c := live.NewClients(cfg)
	got := live.Read(cx, c, live.Request{Type: "AWS::CertificateManager::Certificate", PhysicalID: arn,
		Declared: map[string]any{"DomainName": "moto.example.com", "SubjectAlternativeNames": []any{"www.moto.example.com"}, "ValidationMethod": "DNS"}})
	if got.Status != live.Found {
		t.Fatalf("read: %+v", got)
	}
	for k, want := range map[string]any{
		"DomainName": "moto.example.com", "SubjectAlternativeNames": []any{"www.moto.example.com"}, "ValidationMethod": "DNS",
		"KeyAlgorithm": "RSA_2048", "Tags": []any{map[string]any{"Key": "team", "Value": "web"}},
	} {
		if diff := cmp.Diff(got.Model[k], want); diff != "" {
			t.Errorf("%s (-got +want):\n%s", k, diff)
		}
	}
	gone := arn[:len(arn)-4] + "0000"
	if got := live.Read(cx, c, live.Request{Type: "AWS::CertificateManager::Certificate", PhysicalID: gone}); got.Status != live.NotFound {
		t.Errorf("missing certificate: %+v, want notFound", got)
	}
}
