package sandbox

import (
	"net/http"

	"github.com/realdrift/realdrift/internal/sandbox/service/elasticloadbalancing"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// The trust store bundle URLs that ELBv2's
// GetTrustStoreCaCertificatesBundle answers (service/elasticloadbalancing)
// are fetched here: the bundle is an object of the server's S3.

// serveTrustStoreBundle answers a bundle URL.
func (s *Server) serveTrustStoreBundle(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.st.RLock()
	ts := elasticloadbalancing.TrustStore(s.st, q.Get("account"), q.Get("region"), q.Get("arn"))
	var bucket, key, digest string
	if ts != nil {
		bucket, key = world.FieldString(ts, "CaCertificatesBundleS3Bucket"), world.FieldString(ts, "CaCertificatesBundleS3Key")
		digest = world.FieldString(ts, "CaCertificatesBundleSha256")
	}
	s.st.RUnlock()
	if ts != nil && bucket != "" && key != "" {
		if b, ok := s.objects.Get(bucket, key); ok {
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
