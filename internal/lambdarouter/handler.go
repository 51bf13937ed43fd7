package lambdarouter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

var (
	contextType = reflect.TypeOf((*context.Context)(nil)).Elem()
	errorType   = reflect.TypeOf((*error)(nil)).Elem()
)

// handler calls a Go function the way the Lambda Go runtime does: the
// payload decoded into its last argument, the result encoded as JSON.
//
// It is written here rather than taken from lambda.NewHandler because that
// Handler's Invoke returns the bytes of a pooled buffer it has already put
// back: a concurrent invocation can overwrite a response the router is
// still writing. Every call here encodes into a buffer of its own.
type handler struct {
	fn       reflect.Value
	takesCtx bool
	in       reflect.Type // nil when the function takes no event
	outs     int          // 0, 1 (error) or 2 (value, error)
}

// newHandler validates fn against the signatures lambda.Start accepts:
//
//	func ()
//	func (TIn) / func (context.Context) / func (context.Context, TIn)
//
// returning nothing, error, or (TOut, error).
func newHandler(fn any) (*handler, error) {
	v := reflect.ValueOf(fn)
	if fn == nil || v.Kind() != reflect.Func {
		return nil, fmt.Errorf("handler is %T, not a function", fn)
	}
	t := v.Type()
	h := &handler{fn: v, outs: t.NumOut()}
	switch t.NumIn() {
	case 0:
	case 1:
		if t.In(0).Implements(contextType) {
			h.takesCtx = true
		} else {
			h.in = t.In(0)
		}
	case 2:
		if !t.In(0).Implements(contextType) {
			return nil, errors.New("handler takes two arguments, but the first is not a context.Context")
		}
		h.takesCtx, h.in = true, t.In(1)
	default:
		return nil, fmt.Errorf("handler takes %d arguments, at most 2 allowed", t.NumIn())
	}
	switch h.outs {
	case 0:
	case 1:
		if !t.Out(0).Implements(errorType) {
			return nil, errors.New("handler returns a single value, but it does not implement error")
		}
	case 2:
		if !t.Out(1).Implements(errorType) {
			return nil, errors.New("handler returns two values, but the second does not implement error")
		}
	default:
		return nil, fmt.Errorf("handler returns %d values, at most 2 allowed", h.outs)
	}
	return h, nil
}

// Invoke decodes payload, calls the function and encodes its result. The
// returned slice belongs to the caller.
func (h *handler) Invoke(ctx context.Context, payload []byte) ([]byte, error) {
	var args []reflect.Value
	if h.takesCtx {
		args = append(args, reflect.ValueOf(ctx))
	}
	if h.in != nil {
		event := reflect.New(h.in)
		if err := json.Unmarshal(payload, event.Interface()); err != nil {
			return nil, err
		}
		args = append(args, event.Elem())
	}
	res := h.fn.Call(args)
	if h.outs > 0 {
		if err, ok := res[h.outs-1].Interface().(error); ok && err != nil {
			return nil, err
		}
	}
	var val any
	if h.outs == 2 {
		val = res[0].Interface()
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false) // as the Go runtime encodes responses
	if err := enc.Encode(val); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n")), nil
}
