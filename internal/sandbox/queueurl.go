package sandbox

import (
	"bytes"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
)

// Queue URLs at the sandbox (Options.LocalQueueURLs). A world names queues
// as AWS does, https://sqs.REGION.amazonaws.com/ACCOUNT/NAME; a client that
// sends SQS calls to a queue's URL (the JavaScript SDK does, by default)
// would then call AWS. With LocalQueueURLs every answer names the queue at
// the sandbox instead — SCHEME://HOST/queues/REGION/ACCOUNT/NAME, HOST the
// one the request was sent to — and every request's sandbox queue URLs are
// read back as the world's, so the world, its physical ids and its live
// models are unchanged and a check reads the same stacks either way.

// awsQueueURL is the queue URL prefix of an AWS region.
var awsQueueURL = regexp.MustCompile(`https://sqs\.([a-z0-9-]+)\.amazonaws\.com/`)

// localQueueURLs rewrites r's body and query in place (sandbox URLs to
// AWS ones) and returns the writer that rewrites the answer (AWS URLs to
// the sandbox's).
func localQueueURLs(w http.ResponseWriter, r *http.Request, body []byte) ([]byte, *queueURLWriter) {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	base := scheme + "://" + r.Host + "/queues/"
	local := regexp.MustCompile(`https?://` + regexp.QuoteMeta(r.Host) + `/queues/([a-z0-9-]+)/`)
	// In a form or a query string the URL is percent-encoded.
	localEnc := regexp.MustCompile(`https?%3A%2F%2F` + regexp.QuoteMeta(url.QueryEscape(r.Host)) + `%2Fqueues%2F([a-z0-9-]+)%2F`)
	body = local.ReplaceAll(body, []byte("https://sqs.$1.amazonaws.com/"))
	body = localEnc.ReplaceAll(body, []byte("https%3A%2F%2Fsqs.$1.amazonaws.com%2F"))
	if q := r.URL.RawQuery; q != "" {
		r.URL.RawQuery = localEnc.ReplaceAllString(q, "https%3A%2F%2Fsqs.$1.amazonaws.com%2F")
	}
	return body, &queueURLWriter{ResponseWriter: w, base: base}
}

// queueURLWriter holds an answer until it is complete, then writes it
// with the world's queue URLs at the sandbox.
type queueURLWriter struct {
	http.ResponseWriter
	base   string
	status int
	buf    bytes.Buffer
}

func (q *queueURLWriter) WriteHeader(status int) { q.status = status }

func (q *queueURLWriter) Write(b []byte) (int, error) { return q.buf.Write(b) }

// flush writes the held answer.
func (q *queueURLWriter) flush() {
	out := awsQueueURL.ReplaceAll(q.buf.Bytes(), []byte(q.base+"$1/"))
	h := q.ResponseWriter.Header()
	h.Set("Content-Length", strconv.Itoa(len(out)))
	if q.status == 0 {
		q.status = http.StatusOK
	}
	q.ResponseWriter.WriteHeader(q.status)
	_, _ = q.ResponseWriter.Write(out)
}
