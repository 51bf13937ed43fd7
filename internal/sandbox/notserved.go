package sandbox

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
)

// restXMLServices are the REST-XML services by signing name: a REST
// request of any other service is answered in REST-JSON.
var restXMLServices = map[string]bool{"s3": true, "s3-control": true, "route53": true, "cloudfront": true}

// sniffService is the wire shape of a service the sandbox does not serve,
// read from the request: X-Amz-Target is JSON 1.0/1.1 (by Content-Type),
// a form with Action is query/XML, anything else REST.
func sniffService(name string, r *http.Request, body []byte) *wire.Service {
	svc := &wire.Service{Name: name}
	switch {
	case r.Header.Get("X-Amz-Target") != "":
		svc.Protocol, svc.JSONVersion = wire.ProtoJSON, "1.0"
		if strings.HasSuffix(r.Header.Get("Content-Type"), "1.1") {
			svc.JSONVersion = "1.1"
		}
	case formAction(r, body) != "":
		svc.Protocol = wire.ProtoQuery
		if name == "ec2" {
			svc.Protocol = wire.ProtoEC2
		}
	case restXMLServices[name]:
		svc.Protocol = wire.ProtoRESTXML
	default:
		svc.Protocol = wire.ProtoRESTJSON
	}
	return svc
}

// formAction is the Action of a query request, in its URL or form body.
func formAction(r *http.Request, body []byte) string {
	if a := r.URL.Query().Get("Action"); a != "" {
		return a
	}
	if r.Method == http.MethodPost && !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		if f, err := url.ParseQuery(string(body)); err == nil {
			return f.Get("Action")
		}
	}
	return ""
}

// requestAction names a request's operation for the call log whether or
// not it is served: the X-Amz-Target operation, the query Action, else
// METHOD /path.
func requestAction(r *http.Request, body []byte) string {
	if t := r.Header.Get("X-Amz-Target"); t != "" {
		return t[strings.LastIndexByte(t, '.')+1:]
	}
	if a := formAction(r, body); a != "" {
		return a
	}
	return r.Method + " " + r.URL.Path
}

// refuse answers a request the sandbox cannot serve (an unknown service or
// operation, an unreadable request, an access key no principal owns) with e
// in svc's shape, after the injected latency, and logs it (under no account
// when the key is unknown).
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, sc scope, svc *wire.Service, body []byte, reqID string, e *wire.Error) {
	who, _ := s.principalFor(sc.accessKey)
	done := s.calls.begin(who.Account, sc.region, sc.service, requestAction(r, body), sdkAttempt(r.Header))
	if d := s.latency(); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			done(499, "ClientClosed")
			return
		}
	}
	wire.WriteError(w, svc, reqID, e)
	done(e.Status, e.Code)
}
