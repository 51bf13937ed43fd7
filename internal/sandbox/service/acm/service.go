package acm

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves Certificate Manager (JSON 1.1): a certificate's
// details and tags, from the world's AWS::CertificateManager::Certificate
// models by ARN (the identifier). DescribeCertificate answers as ACM
// does: the domain name first among the subject alternative names, the
// key algorithm with a dash ("RSA-2048", RSA_2048 when the model names
// none), the validation method per domain, an issued certificate
// (PRIVATE when the model names a CertificateAuthorityArn).
func Service() *wire.Service {
	return wire.JSON("acm", "1.1", "CertificateManager.", wire.Ops{
		"DescribeCertificate":    acmDescribeCertificate,
		"ListTagsForCertificate": acmListTagsForCertificate,
	})
}
