package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	elbv2 "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
)

// The Elastic Load Balancing v2 family: AWS::ElasticLoadBalancingV2::
// ListenerCertificate (Cloud Control cannot read it) through
// DescribeListenerCertificates of the declared listener, every page.

type elbv2API interface {
	elbv2.DescribeListenerCertificatesAPIClient
	GetTrustStoreCaCertificatesBundle(ctx context.Context, in *elbv2.GetTrustStoreCaCertificatesBundleInput, optFns ...func(*elbv2.Options)) (*elbv2.GetTrustStoreCaCertificatesBundleOutput, error)
}

var _ elbv2API = (*elbv2.Client)(nil)

// readListenerCertificate reads AWS::ElasticLoadBalancingV2::
// ListenerCertificate: {ListenerArn, Certificates}, the declared
// certificates the listener still holds, in the declared order. The
// listener's default certificate belongs to the AWS::...::Listener, and a
// certificate no template declares is not this resource's: neither is
// listed. When none of the declared certificates is attached any more, the
// resource is gone.
func readListenerCertificate(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	listener, err := declaredString(r.Declared, "ListenerArn")
	if err != nil {
		return nil, err
	}
	v, ok := r.Declared["Certificates"]
	if !ok {
		return nil, skip("declared Certificates is absent")
	}
	list, ok := v.([]any)
	if !ok {
		if _, err := declaredString(r.Declared, "Certificates"); isWaiting(err) {
			return nil, err
		}
		return nil, skip("declared Certificates is not a list")
	}
	var want []string
	for i, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return nil, skip(fmt.Sprintf("declared Certificates.%d is not an object", i))
		}
		arn, err := declaredString(m, "CertificateArn")
		if err != nil {
			return nil, err
		}
		want = append(want, arn)
	}
	if c.ELBv2 == nil {
		return nil, skip("no Elastic Load Balancing v2 client")
	}
	attached := map[string]bool{}
	p := elbv2.NewDescribeListenerCertificatesPaginator(c.ELBv2, &elbv2.DescribeListenerCertificatesInput{ListenerArn: &listener})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, crt := range page.Certificates {
			if !aws.ToBool(crt.IsDefault) {
				attached[aws.ToString(crt.CertificateArn)] = true
			}
		}
	}
	certs := []any{}
	for _, arn := range want {
		if attached[arn] {
			certs = append(certs, map[string]any{"CertificateArn": arn})
		}
	}
	if len(certs) == 0 && len(want) > 0 {
		return nil, fmt.Errorf("certificates of listener %s: %w", listener, ErrNotFound)
	}
	return map[string]any{"ListenerArn": listener, "Certificates": certs}, nil
}
