package wire

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/aws/smithy-go/encoding/cbor"
)

// Smithy RPCv2 CBOR (the protocol the SDK speaks to CloudWatch): POST
// /service/<service>/operation/<Operation>, request and reply bodies CBOR
// maps, timestamps tag 1 (epoch seconds), errors a map with __type and
// message (plus x-amzn-query-error for services that moved from the query
// protocol).

// cborTime is a timestamp in a reply built for CBOR.
type CBORTime time.Time

// toCBOR converts a JSON-shaped reply value to CBOR.
func toCBOR(v any) cbor.Value {
	switch t := v.(type) {
	case nil:
		return &cbor.Nil{}
	case map[string]any:
		m := cbor.Map{}
		for k, e := range t {
			m[k] = toCBOR(e)
		}
		return m
	case []any:
		l := make(cbor.List, len(t))
		for i, e := range t {
			l[i] = toCBOR(e)
		}
		return l
	case string:
		return cbor.String(t)
	case bool:
		return cbor.Bool(t)
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return cborInt(i)
		}
		f, _ := t.Float64()
		return cbor.Float64(f)
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<53 {
			return cborInt(int64(t))
		}
		return cbor.Float64(t)
	case int:
		return cborInt(int64(t))
	case CBORTime:
		return &cbor.Tag{ID: 1, Value: cbor.Float64(float64(time.Time(t).UnixMilli()) / 1000)}
	}
	return cbor.String(fmt.Sprint(v))
}

func cborInt(i int64) cbor.Value {
	if i < 0 {
		return cbor.NegInt(uint64(-i))
	}
	return cbor.Uint(uint64(i))
}

// fromCBOR converts a decoded CBOR value to the JSON shape the handlers
// decode (timestamps as epoch seconds).
func fromCBOR(v cbor.Value) any {
	switch t := v.(type) {
	case cbor.Map:
		m := map[string]any{}
		for k, e := range t {
			m[k] = fromCBOR(e)
		}
		return m
	case cbor.List:
		l := make([]any, len(t))
		for i, e := range t {
			l[i] = fromCBOR(e)
		}
		return l
	case cbor.String:
		return string(t)
	case cbor.Bool:
		return bool(t)
	case cbor.Uint:
		return float64(t)
	case cbor.NegInt:
		return -float64(t)
	case cbor.Float32:
		return float64(t)
	case cbor.Float64:
		return float64(t)
	case *cbor.Tag:
		return fromCBOR(t.Value)
	}
	return nil
}

// decodeCBOR reads a CBOR request body into v (an empty body is {}).
func (c *Call) DecodeCBOR(v any) error {
	if len(c.Body) == 0 {
		return nil
	}
	d, err := cbor.Decode(c.Body)
	if err != nil {
		return Errf(400, "SerializationException", "cannot read the CBOR request body: %v", err)
	}
	b, err := json.Marshal(fromCBOR(d))
	if err != nil {
		return Errf(400, "SerializationException", "cannot read the CBOR request body: %v", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return Errf(400, "SerializationException", "cannot read the request: %v", err)
	}
	return nil
}

// cborReply is a CBOR success reply.
func CBORReply(v map[string]any) Raw {
	return Raw{ContentType: "application/cbor", Body: cbor.Encode(toCBOR(v))}
}

// writeCBORError writes e as an RPCv2 CBOR error.
func writeCBORError(w http.ResponseWriter, svc *Service, status int, e *Error) {
	ns := "com.amazonaws.sandbox#"
	if svc != nil && svc.JSONNamespace != "" {
		ns = svc.JSONNamespace
	}
	kind, code := e.queryFault()
	w.Header().Set("Content-Type", "application/cbor")
	w.Header().Set("Smithy-Protocol", "rpc-v2-cbor")
	w.Header().Set("x-amzn-query-error", code+";"+kind)
	w.WriteHeader(status)
	_, _ = w.Write(cbor.Encode(cbor.Map{"__type": cbor.String(ns + e.Code), "message": cbor.String(e.Message)}))
}
