package lambdarouter

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/aws/aws-lambda-go/lambda/messages"
	"github.com/aws/aws-lambda-go/lambdacontext"
)

// MaxPayload is Lambda's limit, in bytes, on a synchronous request or
// response payload.
const MaxPayload = 6 * 1024 * 1024

// OptimizedIntegration is the Step Functions resource that invokes Lambda
// through the optimized integration.
const OptimizedIntegration = "arn:aws:states:::lambda:invoke"

const (
	apiPrefix = "/2015-03-31/functions/"
	apiSuffix = "/invocations"

	// Default account and region used to build the ARN handlers see in
	// their lambdacontext when the caller named the function by bare name.
	defaultAccount = "000000000000"
	defaultRegion  = "us-east-1"
)

// validName is Lambda's function-name alphabet.
var validName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Router answers the Lambda Invoke API by dispatching to registered handlers.
// It is safe for concurrent use; register handlers before serving.
type Router struct {
	mu       sync.RWMutex
	handlers map[string]*handler
}

var _ http.Handler = (*Router)(nil)

// New returns a router with no handlers.
func New() *Router {
	return &Router{handlers: map[string]*handler{}}
}

// Handle registers handler under the function name. handler is any function
// lambda.Start accepts (for example func(context.Context, In) (Out, error)).
// It fails on an invalid or already registered name or a value that is not
// a function.
func (r *Router) Handle(name string, handler any) error {
	if !validName.MatchString(name) {
		return fmt.Errorf("register lambda handler: invalid function name %q", name)
	}
	h, err := newHandler(handler)
	if err != nil {
		return fmt.Errorf("register lambda handler %s: %w", name, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.handlers[name]; dup {
		return fmt.Errorf("register lambda handler %s: already registered", name)
	}
	r.handlers[name] = h
	return nil
}

// Names lists the registered function names, sorted.
func (r *Router) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, 0, len(r.handlers))
	for n := range r.handlers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (r *Router) lookup(name string) (*handler, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	h, ok := r.handlers[name]
	return h, ok
}

// ServeHTTP implements the Invoke API.
func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	path := req.URL.EscapedPath()
	if !strings.HasPrefix(path, apiPrefix) || !strings.HasSuffix(path, apiSuffix) {
		writeServiceError(w, http.StatusNotFound, "UnknownOperationException", "unknown operation "+req.Method+" "+path)
		return
	}
	if req.Method != http.MethodPost {
		writeServiceError(w, http.StatusMethodNotAllowed, "UnknownOperationException", "method "+req.Method+" not allowed")
		return
	}
	rawName, err := url.PathUnescape(strings.TrimSuffix(strings.TrimPrefix(path, apiPrefix), apiSuffix))
	if err != nil {
		writeServiceError(w, http.StatusBadRequest, "InvalidParameterValueException", "function name: "+err.Error())
		return
	}
	payload, err := io.ReadAll(http.MaxBytesReader(w, req.Body, MaxPayload))
	if err != nil {
		writeServiceError(w, http.StatusRequestEntityTooLarge, "RequestTooLargeException", "request payload exceeds 6291456 bytes")
		return
	}

	optimized := rawName == OptimizedIntegration
	if optimized {
		var in struct {
			FunctionName string
			Payload      json.RawMessage
		}
		if err := json.Unmarshal(payload, &in); err != nil || in.FunctionName == "" {
			writeServiceError(w, http.StatusBadRequest, "InvalidParameterValueException", "optimized integration needs Parameters {FunctionName, Payload}")
			return
		}
		rawName, payload = in.FunctionName, in.Payload
		if len(payload) == 0 {
			payload = []byte("{}")
		}
	}

	fn, err := parseFunction(rawName)
	if err != nil {
		writeServiceError(w, http.StatusBadRequest, "InvalidParameterValueException", err.Error())
		return
	}
	h, ok := r.lookup(fn.name)
	if !ok {
		writeServiceError(w, http.StatusNotFound, "ResourceNotFoundException", "Function not found: "+fn.arn())
		return
	}

	switch req.Header.Get("X-Amz-Invocation-Type") {
	case "", "RequestResponse":
	case "Event":
		_, _ = invoke(req.Context(), h, fn, payload)
		w.WriteHeader(http.StatusAccepted)
		return
	case "DryRun":
		w.WriteHeader(http.StatusNoContent)
		return
	default:
		writeServiceError(w, http.StatusBadRequest, "InvalidParameterValueException", "unknown invocation type "+req.Header.Get("X-Amz-Invocation-Type"))
		return
	}

	out, fnErr := invoke(req.Context(), h, fn, payload)
	if fnErr == nil && len(out) > MaxPayload {
		fnErr = &messages.InvokeResponse_Error{Type: "Function.ResponseSizeTooLarge", Message: fmt.Sprintf("Response payload size (%d bytes) exceeded maximum allowed payload size (%d bytes).", len(out), MaxPayload)}
	}
	if fnErr != nil {
		body, _ := json.Marshal(fnErr)
		out = body
	}
	if optimized {
		wrapped, _ := json.Marshal(struct {
			ExecutedVersion string
			Payload         json.RawMessage
			StatusCode      int
		}{"$LATEST", json.RawMessage(out), http.StatusOK})
		out = wrapped
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Amz-Executed-Version", "$LATEST")
	if fnErr != nil {
		w.Header().Set("X-Amz-Function-Error", "Unhandled")
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out)
}

// invoke runs the handler and turns any failure, panics included, into the
// error document Lambda would return.
func invoke(ctx context.Context, h *handler, fn function, payload []byte) (out []byte, fnErr *messages.InvokeResponse_Error) {
	defer func() {
		if p := recover(); p != nil {
			out, fnErr = nil, &messages.InvokeResponse_Error{Type: typeName(p), Message: fmt.Sprint(p)}
		}
	}()
	ctx = lambdacontext.NewContext(ctx, &lambdacontext.LambdaContext{
		AwsRequestID:       requestID(),
		InvokedFunctionArn: fn.arn(),
	})
	out, err := h.Invoke(ctx, payload)
	if err != nil {
		return nil, errorDocument(err)
	}
	return out, nil
}

// errorDocument computes the error body the Go runtime reports.
func errorDocument(err error) *messages.InvokeResponse_Error {
	switch e := err.(type) {
	case messages.InvokeResponse_Error:
		return &messages.InvokeResponse_Error{Type: e.Type, Message: e.Message}
	case *messages.InvokeResponse_Error:
		return &messages.InvokeResponse_Error{Type: e.Type, Message: e.Message}
	}
	return &messages.InvokeResponse_Error{Type: typeName(err), Message: err.Error()}
}

func typeName(v any) string {
	t := reflect.TypeOf(v)
	if t == nil {
		return "nil"
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name()
}

func requestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// writeServiceError writes a Lambda service (not function) error, which the
// SDK surfaces as an operation error carrying code.
func writeServiceError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Amzn-ErrorType", code)
	w.WriteHeader(status)
	body, _ := json.Marshal(struct {
		Type    string `json:"Type"`
		Message string `json:"message"`
	}{"User", message})
	_, _ = w.Write(body)
}
