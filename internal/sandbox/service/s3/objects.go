package s3

import (
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// Objects are the S3 objects the sandbox holds (the service's run data: a
// sweep's stack lists), by bucket and key. Only PutObject and GetObject
// of a bucket the caller's account has (an AWS::S3::Bucket resource) are
// served; no versions, no listing. The zero value is empty and ready; it
// is safe for concurrent use.
type Objects struct {
	mu   sync.Mutex
	data map[string][]byte
}

func (o *Objects) put(bucket, key string, b []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.data == nil {
		o.data = map[string][]byte{}
	}
	o.data[bucket+"/"+key] = append([]byte(nil), b...)
}

// Get returns the object put at bucket/key, and whether there is one.
func (o *Objects) Get(bucket, key string) ([]byte, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	b, ok := o.data[bucket+"/"+key]
	return b, ok
}

// s3ObjectRoute names a path-style object request ("/bucket/key").
func s3ObjectRoute(r *http.Request) (string, map[string]string) {
	path := strings.TrimPrefix(r.URL.EscapedPath(), "/")
	bucket, key, ok := strings.Cut(path, "/")
	if !ok || bucket == "" || key == "" || r.URL.RawQuery != "" && !strings.HasPrefix(r.URL.RawQuery, "x-id=") {
		return "", nil
	}
	b, err1 := url.PathUnescape(bucket)
	k, err2 := url.PathUnescape(key)
	if err1 != nil || err2 != nil {
		return "", nil
	}
	params := map[string]string{"bucket": b, "key": k}
	switch r.Method {
	case http.MethodPut:
		return "PutObject", params
	case http.MethodGet:
		return "GetObject", params
	}
	return "", nil
}

// objectBucket is the bucket an object call names, or NoSuchBucket when
// the account has no bucket of that name.
func objectBucket(st *world.State, c *wire.Call) (string, error) {
	name := c.Params["bucket"]
	st.RLock()
	b, _ := findBucket(st, c, name)
	st.RUnlock()
	if b == nil {
		return "", noBucket(name)
	}
	return name, nil
}

func (o *Objects) putObject(st *world.State, c *wire.Call) (any, error) {
	name, err := objectBucket(st, c)
	if err != nil {
		return nil, err
	}
	o.put(name, c.Params["key"], c.Body)
	return wire.Raw{Status: 200}, nil
}

func (o *Objects) getObject(st *world.State, c *wire.Call) (any, error) {
	name, err := objectBucket(st, c)
	if err != nil {
		return nil, err
	}
	data, ok := o.Get(name, c.Params["key"])
	if !ok {
		return nil, &wire.Error{Status: 404, Code: "NoSuchKey", Message: "The specified key does not exist.", Extra: map[string]string{"Key": c.Params["key"]}}
	}
	return wire.Raw{Status: 200, ContentType: "application/octet-stream", Body: data}, nil
}
