// Package sdkhttp is the HTTP client every aws-sdk-go-v2 client of
// realdrift sends through: the SDK's own buildable client, with request
// bodies held in memory before they are sent.
//
// Why: smithy-go closes a request's body as soon as the response headers
// arrive, while net/http, given a body it does not know is in memory,
// writes the headers first and keeps reading the body after writing it
// (to check it holds no more than its Content-Length). A server that
// answers as soon as the body arrives — any fast one, the sandbox on
// loopback most of all — can beat that last read; the read then finds
// the body closed, the transport takes the io.EOF for a failed write and
// closes the connection under the response body being read ("use of
// closed network connection" on a 200). A body net/http knows is in
// memory is written with the headers in one flush and never read again.
//
// Rules: only bodies of a known length up to MaxBuffered are copied;
// larger ones and streams (S3 uploads) pass unchanged. A body shorter or
// longer than its Content-Length is passed as read, so net/http reports
// the mismatch as it would have.
package sdkhttp

import (
	"bytes"
	"io"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
)

// MaxBuffered is the largest request body held in memory (AWS API
// requests other than uploads are far smaller).
const MaxBuffered = 8 << 20

// Client is next with request bodies held in memory.
type Client struct{ next aws.HTTPClient }

// New is the SDK's default buildable client with bodies held in memory.
func New() *Client { return Wrap(awshttp.NewBuildableClient()) }

// Wrap holds the request bodies next sends in memory.
func Wrap(next aws.HTTPClient) *Client { return &Client{next: next} }

// Do sends r with its body, when small and of a known length, read into
// memory first.
func (c *Client) Do(r *http.Request) (*http.Response, error) {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength <= 0 || r.ContentLength > MaxBuffered {
		return c.next.Do(r)
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, r.ContentLength+1))
	_ = r.Body.Close()
	if err != nil {
		return nil, err
	}
	in := r.Clone(r.Context())
	in.Body = io.NopCloser(bytes.NewReader(b))
	in.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	return c.next.Do(in)
}
