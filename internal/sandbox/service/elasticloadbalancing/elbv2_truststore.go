package elasticloadbalancing

import (
	"net/url"
	"strconv"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// The trust stores of Elastic Load Balancing v2.
// GetTrustStoreCaCertificatesBundle answers, for an
// AWS::ElasticLoadBalancingV2::TrustStore model (by TrustStoreArn, else
// its identifier), a presigned-style URL on the sandbox itself
// (BundlePath, valid ten minutes as on AWS) instead of S3's.
// Fetching it answers the bundle the trust store holds: the sandbox S3
// object at the model's CaCertificatesBundleS3Bucket and
// CaCertificatesBundleS3Key (read at fetch time, so replacing the object
// is a bundle swap), else — a world built from recordings, which holds
// the recorded digest but no bundle — an empty body whose
// X-Realdrift-Sandbox-Bundle-Sha256 header carries the model's
// CaCertificatesBundleSha256 (the reader takes that header only from its
// own custom endpoint); a trust store with neither, or gone, is 404
// NoSuchKey.

// BundlePath is the path of a bundle URL, under the sandbox's admin
// prefix (the server answers it: ServeBundle's caller).
const BundlePath = "/_sandbox/truststore-bundle"

// TrustStore finds a trust store by its ARN; the caller holds the state's lock.
func TrustStore(st *world.State, account, region, arn string) *world.Resource {
	for _, r := range st.OfType(account, region, "AWS::ElasticLoadBalancingV2::TrustStore") {
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

func elbv2GetTrustStoreCaCertificatesBundle(st *world.State, c *wire.Call) (any, error) {
	arn := c.Str("TrustStoreArn")
	if arn == "" {
		return nil, wire.Validation("1 validation error detected: Value null at 'trustStoreArn' failed to satisfy constraint: Member must not be null")
	}
	st.RLock()
	ts := TrustStore(st, c.Account, c.Region, arn)
	st.RUnlock()
	if ts == nil {
		return nil, wire.Errf(400, "TrustStoreNotFound", "One or more trust stores not found")
	}
	scheme := "http"
	if c.HTTP.TLS != nil {
		scheme = "https"
	}
	q := url.Values{
		"account": {c.Account}, "region": {c.Region}, "arn": {arn},
		"X-Amz-Date": {c.Now().UTC().Format("20060102T150405Z")}, "X-Amz-Expires": {strconv.Itoa(600)},
	}
	loc := (&url.URL{Scheme: scheme, Host: c.HTTP.Host, Path: BundlePath, RawQuery: q.Encode()}).String()
	return wire.El("", wire.Tx("Location", loc)), nil
}
