package live

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	elbv2 "github.com/aws/aws-sdk-go-v2/service/elasticloadbalancingv2"
)

// AWS::ElasticLoadBalancingV2::TrustStore: CaCertificatesBundleSha256 is
// a synthetic property (no schema has it): a digest of the CA bundle the
// trust store holds. The bundle's S3 location is write-only and no
// Describe answers it, so a bundle swapped out of band is otherwise
// invisible; GetTrustStoreCaCertificatesBundle answers a presigned URL
// (valid ten minutes) of the bundle the trust store imported, which the
// reader fetches with the clients' HTTP client.
//
// The digest is order- and whitespace-insensitive: every PEM block of the
// body must be a CERTIFICATE (text around the blocks, such as a bundle's
// comments, is ignored; a body without a block is not PEM); each certificate's DER bytes are hashed
// (SHA-256, lower-case hex), the distinct hashes sorted and joined with
// "\n", and that text hashed again (SHA-256, lower-case hex). Reordering
// the bundle, re-wrapping its base64 or adding blank lines or a duplicate
// certificate leaves it unchanged; adding, removing or replacing a
// certificate changes it.
//
// The classifier shows the digest as undeclared inventory (no template
// declares it), which record snapshots; a recorded baseline tells a later
// bundle change by it (the declared bucket, key and version are its source
// fingerprint). Any failure — the call denied or throttled, the fetch
// failing or answering other than 200, a body that is not PEM
// certificates — leaves it unread (Result.Unread, an informational
// readGap), never a false finding.
//
// Sandbox-only: a world built from recordings holds the recorded digest
// but not the bundle (a digest cannot be inverted), so the sandbox's
// bundle URL answers that digest in the X-Realdrift-Sandbox-Bundle-Sha256
// header. The reader takes the header only from a URL on the custom base
// endpoint the clients were built with (Clients.Endpoint, empty on AWS):
// never from AWS, and never from a bundle's content.

var trustStoreProps = []string{"CaCertificatesBundleSha256"}

// sandboxBundleDigestHeader carries a recorded digest in a sandbox world.
const sandboxBundleDigestHeader = "X-Realdrift-Sandbox-Bundle-Sha256"

// maxBundleBytes bounds the bundle fetched.
const maxBundleBytes = 8 << 20

type httpDoer interface {
	Do(*http.Request) (*http.Response, error)
}

// readTrustStoreSupplement digests the trust store's CA bundle (physical
// id: the trust store ARN).
func readTrustStoreSupplement(ctx context.Context, c *Clients, r Request, _ map[string]any) (map[string]any, error) {
	if c.ELBv2 == nil {
		return nil, skip("no Elastic Load Balancing v2 client")
	}
	if c.HTTP == nil {
		return nil, skip("no HTTP client to fetch the CA bundle")
	}
	out, err := c.ELBv2.GetTrustStoreCaCertificatesBundle(ctx, &elbv2.GetTrustStoreCaCertificatesBundleInput{TrustStoreArn: aws.String(r.PhysicalID)})
	if err != nil {
		return nil, err
	}
	loc := aws.ToString(out.Location)
	if loc == "" {
		return nil, skip("GetTrustStoreCaCertificatesBundle answered no location")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, loc, nil)
	if err != nil {
		return nil, fmt.Errorf("fetch the CA bundle: %w", err)
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch the CA bundle: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, skip(fmt.Sprintf("fetch the CA bundle: HTTP %d", resp.StatusCode))
	}
	if d := resp.Header.Get(sandboxBundleDigestHeader); d != "" && sameOrigin(loc, c.Endpoint) {
		return map[string]any{"CaCertificatesBundleSha256": d}, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBundleBytes+1))
	if err != nil {
		return nil, fmt.Errorf("fetch the CA bundle: %w", err)
	}
	if len(body) > maxBundleBytes {
		return nil, skip(fmt.Sprintf("the CA bundle is larger than %d bytes", maxBundleBytes))
	}
	d, ok := caBundleDigest(body)
	if !ok {
		return nil, skip("the CA bundle is not PEM certificates")
	}
	return map[string]any{"CaCertificatesBundleSha256": d}, nil
}

// caBundleDigest is the order- and whitespace-insensitive digest of a PEM
// bundle (see the file comment); false when the body holds anything but
// CERTIFICATE blocks, or none.
func caBundleDigest(body []byte) (string, bool) {
	seen := map[string]bool{}
	rest := body
	for {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		if b.Type != "CERTIFICATE" || len(b.Bytes) == 0 {
			return "", false
		}
		h := sha256.Sum256(b.Bytes)
		seen[hex.EncodeToString(h[:])] = true
	}
	if len(seen) == 0 {
		return "", false
	}
	hs := make([]string, 0, len(seen))
	for h := range seen {
		hs = append(hs, h)
	}
	sort.Strings(hs)
	sum := sha256.Sum256([]byte(strings.Join(hs, "\n")))
	return hex.EncodeToString(sum[:]), true
}

// sameOrigin reports whether loc is on endpoint's scheme and host; false
// for an empty endpoint.
func sameOrigin(loc, endpoint string) bool {
	if endpoint == "" {
		return false
	}
	a, err1 := url.Parse(loc)
	b, err2 := url.Parse(endpoint)
	return err1 == nil && err2 == nil && a.Scheme == b.Scheme && a.Host != "" && strings.EqualFold(a.Host, b.Host)
}
