package elasticloadbalancing

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves Elastic Load Balancing v2 (query/XML): a listener's
// certificates. A listener is an AWS::ElasticLoadBalancingV2::Listener
// model (by ListenerArn, else its identifier) whose Certificates are its
// default certificate, or a listener an
// AWS::ElasticLoadBalancingV2::ListenerCertificate model names; every such
// model's Certificates are the listener's other (not default)
// certificates, in world order, each once.
//
// A trust store's CA bundle is in elbv2_truststore.go, the attribute
// writes in elbv2_write.go.
func Service() *wire.Service {
	svc := wire.Query("elasticloadbalancing", "http://elasticloadbalancing.amazonaws.com/doc/2015-12-01/", wire.Ops{
		"DescribeListenerCertificates":      elbv2DescribeListenerCertificates,
		"GetTrustStoreCaCertificatesBundle": elbv2GetTrustStoreCaCertificatesBundle,
	})
	for op, h := range elbv2WriteOps() {
		svc.Ops[op] = h
	}
	// An out-of-band change of a load balancer's, target group's or
	// listener's attributes is checked as the Modify*Attributes call
	// carrying them would be (a key's pattern, a value's length).
	svc.Models = map[string][]wire.ModelInput{
		"AWS::ElasticLoadBalancingV2::LoadBalancer": {{Op: "ModifyLoadBalancerAttributes", Shape: "LoadBalancerAttribute", At: "LoadBalancerAttributes"}},
		"AWS::ElasticLoadBalancingV2::TargetGroup":  {{Op: "ModifyTargetGroupAttributes", Shape: "TargetGroupAttribute", At: "TargetGroupAttributes"}},
		"AWS::ElasticLoadBalancingV2::Listener":     {{Op: "ModifyListenerAttributes", Shape: "ListenerAttribute", At: "ListenerAttributes"}},
	}
	return svc
}
