package live

import (
	"bytes"
	"context"
	"encoding/json"
	"io"

	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// rawJSON is an API option that keeps a copy of the operation's JSON
// response body, for readers whose template shape is the API's own JSON
// and that must tell an absent member from its zero value (the SDK's
// output structures cannot: a non-pointer number reads 0 either way).
type rawJSON struct{ body []byte }

// option returns the stack mutator to add to the call's APIOptions: it
// copies the body before the SDK deserializes it.
func (r *rawJSON) option(st *middleware.Stack) error {
	return st.Deserialize.Insert(middleware.DeserializeMiddlewareFunc("realdrift.rawJSON", func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
		out, md, err := next.HandleDeserialize(ctx, in)
		if resp, ok := out.RawResponse.(*smithyhttp.Response); ok && resp.Body != nil && resp.StatusCode < 300 {
			b, rerr := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if rerr != nil {
				return out, md, rerr
			}
			r.body = b
			resp.Body = io.NopCloser(bytes.NewReader(b))
		}
		return out, md, err
	}), "OperationDeserializer", middleware.After)
}

// object decodes the kept body's member name as an object; name "" is
// the whole body.
func (r *rawJSON) object(name string) (map[string]any, error) {
	if name == "" {
		var o map[string]any
		if err := json.Unmarshal(r.body, &o); err != nil {
			return nil, skip("the answer is not a JSON object: " + err.Error())
		}
		return o, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(r.body, &m); err != nil {
		return nil, skip("the answer is not a JSON object: " + err.Error())
	}
	var o map[string]any
	if b, ok := m[name]; ok {
		if err := json.Unmarshal(b, &o); err != nil {
			return nil, skip("the answer's " + name + " is not a JSON object: " + err.Error())
		}
	}
	return o, nil
}
