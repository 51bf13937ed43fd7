package live_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"math/big"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// moto 5.2.1's elbv2 has no trust stores (no CreateTrustStore, no
// GetTrustStoreCaCertificatesBundle): this supplement is checked against
// the sandbox only.

// caCert is one self-signed CA certificate's DER bytes.
func caCert(t *testing.T, name string) []byte {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name}, NotBefore: time.Unix(0, 0), NotAfter: time.Unix(4e9, 0), IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tpl, tpl, &k.PublicKey, k)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

func pemOf(ders ...[]byte) []byte {
	var b []byte
	for _, d := range ders {
		b = append(b, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: d})...)
	}
	return b
}

// bundleDigest is the documented digest, computed here independently.
func bundleDigest(ders ...[]byte) string {
	var hs []string
	for _, d := range ders {
		h := sha256.Sum256(d)
		hs = append(hs, hex.EncodeToString(h[:]))
	}
	sort.Strings(hs)
	h := sha256.Sum256([]byte(strings.Join(hs, "\n")))
	return hex.EncodeToString(h[:])
}

const tsArn = "arn:aws:elasticloadbalancing:us-east-1:" + acct + ":truststore/mtls/0123456789abcdef"

// TestTrustStoreSupplement: CaCertificatesBundleSha256 is the digest of
// the bundle behind GetTrustStoreCaCertificatesBundle's URL (served by
// the sandbox itself), undeclared inventory; reordering the bundle keeps
// it, a swapped certificate changes it; the call denied or throttled, the
// bundle gone or not PEM leaves it unread (Result.Unread), never drift.
func TestTrustStoreSupplement(t *testing.T) {
	a, b, evil := caCert(t, "ca-a"), caCert(t, "ca-b"), caCert(t, "evil")
	const declared = `{"Name":"mtls","CaCertificatesBundleS3Bucket":"pki","CaCertificatesBundleS3Key":"ca.pem"}`
	srv, url := serve(t, worldOf(
		liveOnly("AWS::S3::Bucket", "pki", `{"BucketName":"pki"}`),
		liveOnly("AWS::ElasticLoadBalancingV2::TrustStore", tsArn, `{"Name":"mtls","TrustStoreArn":"`+tsArn+`","Status":"ACTIVE","NumberOfCaCertificates":2,"CaCertificatesBundleS3Bucket":"pki","CaCertificatesBundleS3Key":"ca.pem"}`),
	))
	putObject(t, url, "pki", "ca.pem", pemOf(a, b))
	c := live.NewClients(config(url))
	req := live.Request{Type: "AWS::ElasticLoadBalancingV2::TrustStore", LogicalID: "Ts", PhysicalID: tsArn, Declared: declaredOf(t, declared)}
	want := bundleDigest(a, b)
	got := live.Read(ctx(t), c, req)
	if got.Status != live.Found || got.Model["CaCertificatesBundleSha256"] != want || len(got.Unread) != 0 {
		t.Fatalf("read: %+v, want digest %s", got, want)
	}
	fs := classifyAll(t, req, got)
	inv := 0
	for _, f := range driftOnly(fs) {
		if f.Path == "CaCertificatesBundleSha256" && f.Tier == drift.Undeclared && f.Actual == want {
			inv++
		} else {
			t.Errorf("clean read classified as %+v", f)
		}
	}
	if inv != 1 {
		t.Errorf("digest not undeclared inventory in %+v", fs)
	}
	// Reordered, with blank lines and a comment: the same certificates.
	putObject(t, url, "pki", "ca.pem", append(append([]byte("# CA bundle\n\n"), pemOf(b)...), append([]byte("\n\n"), pemOf(a, a)...)...))
	if got := live.Read(ctx(t), c, req); got.Model["CaCertificatesBundleSha256"] != want {
		t.Errorf("reordered bundle: %v, want %s", got.Model["CaCertificatesBundleSha256"], want)
	}
	putObject(t, url, "pki", "ca.pem", pemOf(a, evil))
	if got := live.Read(ctx(t), c, req); got.Model["CaCertificatesBundleSha256"] != bundleDigest(a, evil) {
		t.Errorf("swapped certificate: %v, want %s", got.Model["CaCertificatesBundleSha256"], bundleDigest(a, evil))
	}
	unread := func(what string) {
		t.Helper()
		got := live.Read(ctx(t), c, req)
		if _, ok := got.Model["CaCertificatesBundleSha256"]; got.Status != live.Found || ok || got.Model["Name"] != "mtls" {
			t.Errorf("%s: %+v, want the model without the digest", what, got)
		}
		if got.Unread["CaCertificatesBundleSha256"] == "" {
			t.Errorf("%s: Unread %v, want the digest", what, got.Unread)
		}
		if d := driftOnly(classifyAll(t, req, got)); len(d) != 0 {
			t.Errorf("%s: classified as %+v", what, d)
		}
	}
	for _, f := range []sandbox.FaultRule{
		{Service: "elasticloadbalancing", Action: "GetTrustStoreCaCertificatesBundle", Code: "AccessDenied", Status: 403},
		{Service: "elasticloadbalancing", Action: "GetTrustStoreCaCertificatesBundle", Code: "Throttling", Status: 400},
	} {
		if err := srv.SetFaults([]sandbox.FaultRule{f}); err != nil {
			t.Fatal(err)
		}
		unread(f.Code)
	}
	if err := srv.SetFaults(nil); err != nil {
		t.Fatal(err)
	}
	putObject(t, url, "pki", "ca.pem", []byte("not a certificate\n"))
	unread("a body that is not PEM")
	putObject(t, url, "pki", "ca.pem", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1, 2, 3}}))
	unread("a PEM block that is not a certificate")
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: req.Type, Identifier: tsArn, Path: "CaCertificatesBundleS3Key", Value: []byte(`"gone.pem"`)}); err != nil {
		t.Fatal(err)
	}
	unread("the bundle gone")
}

// TestTrustStoreSupplementRecorded: a world built from a recording holds
// the recorded digest but no bundle; the sandbox's bundle URL answers the
// digest in its sandbox-only header, which the reader takes from its own
// custom endpoint only.
func TestTrustStoreSupplementRecorded(t *testing.T) {
	const rec = "64d2b4759eb4ba7f651f39ed3915c300e5b26e77076dc5c8fe2861d9a4fa8a06"
	_, url := serve(t, worldOf(
		liveOnly("AWS::ElasticLoadBalancingV2::TrustStore", tsArn, `{"Name":"mtls","TrustStoreArn":"`+tsArn+`","CaCertificatesBundleSha256":"`+rec+`"}`),
	))
	c := live.NewClients(config(url))
	req := live.Request{Type: "AWS::ElasticLoadBalancingV2::TrustStore", LogicalID: "Ts", PhysicalID: tsArn}
	if got := live.Read(ctx(t), c, req); got.Model["CaCertificatesBundleSha256"] != rec {
		t.Errorf("recorded digest: %+v, want %s", got, rec)
	}
	c.Endpoint = ""
	got := live.Read(ctx(t), c, req)
	if _, ok := got.Model["CaCertificatesBundleSha256"]; ok || got.Unread["CaCertificatesBundleSha256"] == "" {
		t.Errorf("header from a URL off the clients' endpoint taken: %+v", got)
	}
}
