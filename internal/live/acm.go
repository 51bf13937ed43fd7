package live

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/acm"
)

// The Certificate Manager family: AWS::CertificateManager::Certificate
// (Cloud Control cannot read it) through DescribeCertificate and
// ListTagsForCertificate, by its ARN (the physical id).

type acmAPI interface {
	DescribeCertificate(ctx context.Context, in *acm.DescribeCertificateInput, optFns ...func(*acm.Options)) (*acm.DescribeCertificateOutput, error)
	ListTagsForCertificate(ctx context.Context, in *acm.ListTagsForCertificateInput, optFns ...func(*acm.Options)) (*acm.ListTagsForCertificateOutput, error)
}

var _ acmAPI = (*acm.Client)(nil)

// readCertificate reads AWS::CertificateManager::Certificate: {DomainName,
// SubjectAlternativeNames, ValidationMethod, KeyAlgorithm,
// CertificateTransparencyLoggingPreference, CertificateExport,
// CertificateAuthorityArn, Tags}.
//
// ACM lists the certificate's own domain name among its subject
// alternative names (first, on AWS); a template names it there only if it
// wants to, so it is left out of the list unless the declared list holds
// it. ACM answers
// key algorithms with a dash ("RSA-2048"), templates with an underscore.
// DomainValidationOptions (where each domain is validated) cannot be read
// back in the template's shape: a readGap.
func readCertificate(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.ACM == nil {
		return nil, skip("no ACM client")
	}
	out, err := c.ACM.DescribeCertificate(ctx, &acm.DescribeCertificateInput{CertificateArn: &r.PhysicalID})
	if err != nil {
		return nil, err
	}
	cert := out.Certificate
	if cert == nil {
		return nil, skip("ACM DescribeCertificate returned no certificate")
	}
	domain := aws.ToString(cert.DomainName)
	m := map[string]any{"DomainName": domain}
	declared, _ := declaredStrings(r.Declared, "SubjectAlternativeNames")
	keepDomain := false
	for _, d := range declared {
		keepDomain = keepDomain || strings.EqualFold(d, domain)
	}
	var sans []any
	for _, s := range cert.SubjectAlternativeNames {
		if strings.EqualFold(s, domain) && !keepDomain {
			continue
		}
		sans = append(sans, s)
	}
	if len(sans) > 0 {
		m["SubjectAlternativeNames"] = sans
	}
	if cert.KeyAlgorithm != "" {
		m["KeyAlgorithm"] = strings.ReplaceAll(string(cert.KeyAlgorithm), "-", "_")
	}
	if o := cert.Options; o != nil {
		if o.CertificateTransparencyLoggingPreference != "" {
			m["CertificateTransparencyLoggingPreference"] = string(o.CertificateTransparencyLoggingPreference)
		}
		if o.Export != "" {
			m["CertificateExport"] = string(o.Export)
		}
	}
	if ca := aws.ToString(cert.CertificateAuthorityArn); ca != "" {
		m["CertificateAuthorityArn"] = ca
	}
	// A certificate of a private CA has no validation; an imported one has
	// none that a template declares.
	if ca := aws.ToString(cert.CertificateAuthorityArn); ca == "" && cert.Type != "IMPORTED" {
		for _, v := range cert.DomainValidationOptions {
			if v.ValidationMethod != "" {
				m["ValidationMethod"] = string(v.ValidationMethod)
				break
			}
		}
	}
	tags, err := c.ACM.ListTagsForCertificate(ctx, &acm.ListTagsForCertificateInput{CertificateArn: &r.PhysicalID})
	if err != nil {
		return nil, err
	}
	if len(tags.Tags) > 0 {
		ts := make([]any, len(tags.Tags))
		for i, t := range tags.Tags {
			ts[i] = map[string]any{"Key": aws.ToString(t.Key), "Value": aws.ToString(t.Value)}
		}
		m["Tags"] = ts
	}
	return m, nil
}
