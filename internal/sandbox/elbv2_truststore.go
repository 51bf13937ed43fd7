package sandbox

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// The trust stores of Elastic Load Balancing v2.
// GetTrustStoreCaCertificatesBundle answers, for an
// AWS::ElasticLoadBalancingV2::TrustStore model (by TrustStoreArn, else
// its identifier), a presigned-style URL on the sandbox itself
// (trustStoreBundlePath, valid ten minutes as on AWS) instead of S3's.
// Fetching it answers the bundle the trust store holds: the sandbox S3
// object at the model's CaCertificatesBundleS3Bucket and
// CaCertificatesBundleS3Key (read at fetch time, so replacing the object
// is a bundle swap), else — a world built from recordings, which holds
// the recorded digest but no bundle — an empty body whose
// X-Realdrift-Sandbox-Bundle-Sha256 header carries the model's
// CaCertificatesBundleSha256 (the reader takes that header only from its
// own custom endpoint); a trust store with neither, or gone, is 404
// NoSuchKey.

const trustStoreBundlePath = adminPrefix + "truststore-bundle"

func (s *Server) elbv2TrustStore(account, region, arn string) *world.Resource {
	for _, r := range s.st.OfType(account, region, "AWS::ElasticLoadBalancingV2::TrustStore") {
		if r.Deleted {
			continue
		}
		id := world.FieldString(r, "TrustStoreArn")
		if id == "" {
			id = r.CCID()
		}
		if id == arn {
			return r
		}
	}
	return nil
}

func (s *Server) elbv2GetTrustStoreCaCertificatesBundle(c *wire.Call) (any, error) {
	arn := c.Str("TrustStoreArn")
	if arn == "" {
		return nil, wire.Validation("1 validation error detected: Value null at 'trustStoreArn' failed to satisfy constraint: Member must not be null")
	}
	s.st.RLock()
	ts := s.elbv2TrustStore(c.Account, c.Region, arn)
	s.st.RUnlock()
	if ts == nil {
		return nil, wire.Errf(400, "TrustStoreNotFound", "One or more trust stores not found")
	}
	scheme := "http"
	if c.HTTP.TLS != nil {
		scheme = "https"
	}
	q := url.Values{
		"account": {c.Account}, "region": {c.Region}, "arn": {arn},
		"X-Amz-Date": {time.Now().UTC().Format("20060102T150405Z")}, "X-Amz-Expires": {strconv.Itoa(600)},
	}
	loc := (&url.URL{Scheme: scheme, Host: c.HTTP.Host, Path: trustStoreBundlePath, RawQuery: q.Encode()}).String()
	return wire.El("", wire.Tx("Location", loc)), nil
}

// serveTrustStoreBundle answers a bundle URL.
func (s *Server) serveTrustStoreBundle(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.st.RLock()
	ts := s.elbv2TrustStore(q.Get("account"), q.Get("region"), q.Get("arn"))
	var bucket, key, digest string
	if ts != nil {
		bucket, key = world.FieldString(ts, "CaCertificatesBundleS3Bucket"), world.FieldString(ts, "CaCertificatesBundleS3Key")
		digest = world.FieldString(ts, "CaCertificatesBundleSha256")
	}
	s.st.RUnlock()
	if ts != nil && bucket != "" && key != "" {
		if b, ok := s.objects.get(bucket, key); ok {
			w.Header().Set("Content-Type", "application/x-pem-file")
			_, _ = w.Write(b)
			return
		}
	}
	if ts != nil && digest != "" {
		w.Header().Set("X-Realdrift-Sandbox-Bundle-Sha256", digest)
		w.WriteHeader(http.StatusOK)
		return
	}
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(http.StatusNotFound)
	_, _ = w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>`))
}
