package lambdarouter

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// Ask is what an AWS_IAM function URL asks IAM about a verified signer:
// an action on a resource, with the request's service condition keys.
type Ask struct {
	Action   string
	Resource string
	Keys     map[string][]string
}

// Caller is an IAM identity an AWS_IAM function URL knows by access key.
type Caller struct {
	SecretAccessKey, SessionToken string
	// ARN, Account and UserID are what the function sees in
	// requestContext.authorizer.iam.
	ARN, Account, UserID string
}

// FunctionURL serves one registered function as a Lambda function URL:
// the HTTP request becomes the function's LambdaFunctionURLRequest and
// its LambdaFunctionURLResponse the HTTP answer. With Callers set it is
// AuthType AWS_IAM: a request must carry a SigV4 signature for the service
// lambda that Callers' secret for its access key reproduces, dated within
// 15 minutes of Now; anything else is answered 403 {"Message":"Forbidden"}
// without invoking the function, as Lambda answers it. The function sees
// the signer in requestContext.authorizer.iam. Without Callers it is
// AuthType NONE.
type FunctionURL struct {
	Router   *Router
	Function string
	Callers  func(accessKeyID string) (Caller, bool)
	// Authorize, when set, is IAM's answer to the question Lambda asks of
	// a verified signer (its access key): lambda:InvokeFunctionUrl on ARN
	// with lambda:FunctionUrlAuthType AWS_IAM in the request context. A
	// refusal is 403 {"Message":"Forbidden"} and the function never runs.
	// Nil: every verified signer is allowed.
	Authorize func(accessKeyID string, a Ask) bool
	// ARN is the function's ARN, the resource Authorize is asked about
	// (empty: the Function name's ARN in the default account and region).
	ARN string
	// Now is the clock the signature's date is checked against (nil: the
	// wall clock).
	Now func() time.Time
}

// maxSkew is how far a signature's date may be from the server's clock.
const maxSkew = 15 * time.Minute

func (u *FunctionURL) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxPayload+1))
	if err != nil || len(body) > MaxPayload {
		writeURLError(w, http.StatusRequestEntityTooLarge, "Request must be smaller than 6291456 bytes for the InvokeFunction operation")
		return
	}
	h, ok := u.Router.lookup(u.Function)
	if !ok {
		writeURLError(w, http.StatusNotFound, "Function not found")
		return
	}
	req := events.LambdaFunctionURLRequest{
		Version: "2.0", RawPath: r.URL.Path, RawQueryString: r.URL.RawQuery, Headers: map[string]string{},
		RequestContext: events.LambdaFunctionURLRequestContext{
			DomainName: r.Host, RequestID: requestID(),
			HTTP: events.LambdaFunctionURLRequestContextHTTPDescription{
				Method: r.Method, Path: r.URL.Path, Protocol: r.Proto, SourceIP: strings.Split(r.RemoteAddr, ":")[0], UserAgent: r.UserAgent(),
			},
		},
	}
	for k := range r.Header {
		req.Headers[strings.ToLower(k)] = r.Header.Get(k)
	}
	if u.Callers != nil {
		c, key, ok := u.verify(r, body)
		if ok && u.Authorize != nil {
			ok = u.Authorize(key, u.ask())
		}
		if !ok {
			writeURLError(w, http.StatusForbidden, "Forbidden")
			return
		}
		req.RequestContext.Authorizer = &events.LambdaFunctionURLRequestContextAuthorizerDescription{
			IAM: &events.LambdaFunctionURLRequestContextAuthorizerIAMDescription{
				AccessKey: key, AccountID: c.Account, CallerID: c.UserID, UserARN: c.ARN, UserID: c.UserID,
			},
		}
	}
	if utf8.Valid(body) {
		req.Body = string(body)
	} else {
		req.Body, req.IsBase64Encoded = base64.StdEncoding.EncodeToString(body), true
	}
	payload, err := json.Marshal(req)
	if err != nil {
		writeURLError(w, http.StatusInternalServerError, err.Error())
		return
	}
	fn, _ := parseFunction(u.Function)
	out, fnErr := invoke(r.Context(), h, fn, payload)
	var res events.LambdaFunctionURLResponse
	if fnErr != nil || json.Unmarshal(out, &res) != nil {
		writeURLError(w, http.StatusBadGateway, "Internal Server Error")
		return
	}
	for k, v := range res.Headers {
		w.Header().Set(k, v)
	}
	if res.StatusCode == 0 {
		res.StatusCode = http.StatusOK
	}
	w.WriteHeader(res.StatusCode)
	rb := []byte(res.Body)
	if res.IsBase64Encoded {
		rb, _ = base64.StdEncoding.DecodeString(res.Body)
	}
	_, _ = w.Write(rb)
}

// ask is the question Lambda puts to IAM for an AWS_IAM function URL.
func (u *FunctionURL) ask() Ask {
	arn := u.ARN
	if arn == "" {
		fn, _ := parseFunction(u.Function)
		arn = fn.arn()
	}
	return Ask{Action: "lambda:InvokeFunctionUrl", Resource: arn, Keys: map[string][]string{"lambda:FunctionUrlAuthType": {"AWS_IAM"}}}
}

// verify checks r's SigV4 signature by signing the same request again with
// the secret of its access key; it returns the caller and the key.
func (u *FunctionURL) verify(r *http.Request, body []byte) (Caller, string, bool) {
	auth := r.Header.Get("Authorization")
	rest, ok := strings.CutPrefix(auth, "AWS4-HMAC-SHA256 ")
	if !ok {
		return Caller{}, "", false
	}
	fields := map[string]string{}
	for _, f := range strings.Split(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(f), "=")
		fields[k] = v
	}
	scope := strings.Split(fields["Credential"], "/")
	if len(scope) != 5 || scope[3] != "lambda" || scope[4] != "aws4_request" || fields["Signature"] == "" {
		return Caller{}, "", false
	}
	key, region := scope[0], scope[2]
	c, ok := u.Callers(key)
	if !ok {
		return Caller{}, "", false
	}
	at, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	now := time.Now
	if u.Now != nil {
		now = u.Now
	}
	if err != nil || at.Format("20060102") != scope[1] || now().Sub(at).Abs() > maxSkew {
		return Caller{}, "", false
	}
	sum := sha256.Sum256(body)
	hash := hex.EncodeToString(sum[:])
	if h := r.Header.Get("X-Amz-Content-Sha256"); h != "" && h != hash {
		return Caller{}, "", false
	}
	// The request again, with only the headers it signed.
	again, err := http.NewRequestWithContext(context.Background(), r.Method, "http://"+r.Host+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		return Caller{}, "", false
	}
	again.Host = r.Host
	again.ContentLength = 0
	for _, name := range strings.Split(fields["SignedHeaders"], ";") {
		switch name {
		case "host":
		case "content-length":
			again.ContentLength = int64(len(body))
		default:
			again.Header[http.CanonicalHeaderKey(name)] = r.Header.Values(name)
		}
	}
	creds := aws.Credentials{AccessKeyID: key, SecretAccessKey: c.SecretAccessKey, SessionToken: c.SessionToken}
	if err := v4.NewSigner().SignHTTP(context.Background(), creds, again, hash, "lambda", region, at); err != nil {
		return Caller{}, "", false
	}
	_, want, _ := strings.Cut(again.Header.Get("Authorization"), "Signature=")
	if subtle.ConstantTimeCompare([]byte(want), []byte(fields["Signature"])) != 1 {
		return Caller{}, "", false
	}
	return c, key, true
}

func writeURLError(w http.ResponseWriter, status int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Amzn-ErrorType", http.StatusText(status))
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"Message": message})
}
