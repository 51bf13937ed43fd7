package s3

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// s3Resource is what a call is authorized against, as S3 does: an object
// operation against the object's ARN, a bucket operation against the
// bucket's.
func s3Resource(_ *world.State, c *wire.Call) string {
	b, k := c.Params["bucket"], c.Params["key"]
	switch {
	case b == "":
		return ""
	case k != "":
		return "arn:aws:s3:::" + b + "/" + k
	}
	return "arn:aws:s3:::" + b
}

// s3Route names a path-style bucket request ("/bucket?policy").
func s3Route(r *http.Request) (string, map[string]string) {
	path := strings.Trim(r.URL.EscapedPath(), "/")
	if strings.Contains(path, "/") {
		return s3ObjectRoute(r)
	}
	if path == "" {
		return "", nil
	}
	bucket, err := url.PathUnescape(path)
	if err != nil {
		return "", nil
	}
	params := map[string]string{"bucket": bucket}
	if _, ok := r.URL.Query()["policy"]; ok {
		switch r.Method {
		case http.MethodGet:
			return "GetBucketPolicy", params
		case http.MethodPut:
			return "PutBucketPolicy", params
		case http.MethodDelete:
			return "DeleteBucketPolicy", params
		}
	}
	return "", nil
}

// findBucket looks a bucket up in the call's region, then in the account's
// other regions (bucket names are global).
func findBucket(st *world.State, c *wire.Call, name string) (*world.Resource, string) {
	if b := st.Resource(c.Account, c.Region, "AWS::S3::Bucket", name); b != nil {
		return b, c.Region
	}
	if a := st.Account(c.Account); a != nil {
		for _, r := range a.Regions {
			if b := st.Resource(c.Account, r.Name, "AWS::S3::Bucket", name); b != nil {
				return b, r.Name
			}
		}
	}
	return nil, c.Region
}

// bucketPolicyOf returns the AWS::S3::BucketPolicy of a bucket in region.
func bucketPolicyOf(st *world.State, account, region, bucket string) *world.Resource {
	for _, p := range st.OfType(account, region, "AWS::S3::BucketPolicy") {
		if world.FieldString(p, "Bucket") == bucket || p.CCID() == bucket {
			return p
		}
	}
	return nil
}

func noBucket(name string) error {
	return &wire.Error{Status: 404, Code: "NoSuchBucket", Message: "The specified bucket does not exist", Extra: map[string]string{"BucketName": name}}
}

func s3GetBucketPolicy(st *world.State, c *wire.Call) (any, error) {
	name := c.Params["bucket"]
	st.RLock()
	defer st.RUnlock()
	b, region := findBucket(st, c, name)
	pol := bucketPolicyOf(st, c.Account, region, name)
	if pol == nil {
		if b == nil {
			return nil, noBucket(name)
		}
		return nil, &wire.Error{Status: 404, Code: "NoSuchBucketPolicy", Message: "The bucket policy does not exist", Extra: map[string]string{"BucketName": name}}
	}
	return wire.Raw{Status: 200, ContentType: "application/json", Body: []byte(world.CompactJSON(world.Field(pol, "PolicyDocument")))}, nil
}

func s3PutBucketPolicy(st *world.State, c *wire.Call) (any, error) {
	name := c.Params["bucket"]
	var doc map[string]any
	if err := json.Unmarshal(c.Body, &doc); err != nil {
		return nil, wire.Errf(400, "MalformedPolicy", "Policies must be valid JSON and the first byte must be '{'")
	}
	st.Lock()
	defer st.Unlock()
	b, region := findBucket(st, c, name)
	if b == nil {
		return nil, noBucket(name)
	}
	text := json.RawMessage(world.CompactJSON(c.Body))
	if pol := bucketPolicyOf(st, c.Account, region, name); pol != nil {
		if err := world.SetField(pol, "PolicyDocument", text); err != nil {
			return nil, err
		}
		return wire.Raw{Status: 204}, nil
	}
	model, err := world.MarshalNoEscape(map[string]any{"Bucket": name, "PolicyDocument": text})
	if err != nil {
		return nil, err
	}
	if err := st.AddLive(c.Account, region, &world.Resource{Type: "AWS::S3::BucketPolicy", Identifier: name, PhysicalID: name, Properties: model}); err != nil {
		return nil, err
	}
	return wire.Raw{Status: 204}, nil
}

func s3DeleteBucketPolicy(st *world.State, c *wire.Call) (any, error) {
	name := c.Params["bucket"]
	st.Lock()
	defer st.Unlock()
	b, region := findBucket(st, c, name)
	pol := bucketPolicyOf(st, c.Account, region, name)
	if b == nil && pol == nil {
		return nil, noBucket(name)
	}
	if pol != nil {
		st.Remove(c.Account, region, pol)
	}
	return wire.Raw{Status: 204}, nil
}
