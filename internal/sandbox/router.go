package sandbox

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox/iamauth"
	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// scope is the SigV4 credential scope of a request.
type scope struct {
	accessKey, date, region, service string
}

// parseScope reads the credential scope from the Authorization header (or a
// presigned URL's X-Amz-Credential). The signature is not verified.
func parseScope(r *http.Request) (scope, error) {
	cred := ""
	if auth := r.Header.Get("Authorization"); auth != "" {
		alg, rest, ok := strings.Cut(auth, " ")
		if !ok || alg != "AWS4-HMAC-SHA256" {
			return scope{}, fmt.Errorf("authorization header uses %q, want AWS4-HMAC-SHA256", alg)
		}
		for _, part := range strings.Split(rest, ",") {
			k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
			if ok && k == "Credential" {
				cred = v
			}
		}
		if cred == "" {
			return scope{}, errors.New("authorization header has no Credential")
		}
	} else if q := r.URL.Query().Get("X-Amz-Credential"); q != "" {
		cred = q
	} else {
		return scope{}, errors.New("request is not signed")
	}
	parts := strings.Split(cred, "/")
	if len(parts) != 5 || parts[4] != "aws4_request" || parts[0] == "" || parts[2] == "" || parts[3] == "" {
		return scope{}, fmt.Errorf("credential %q is not KEY/DATE/REGION/SERVICE/aws4_request", cred)
	}
	return scope{accessKey: parts[0], date: parts[1], region: parts[2], service: parts[3]}, nil
}

// serveAPI serves one signed AWS API request.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	reqID := wire.NewRequestID()
	sc, err := parseScope(r)
	if err != nil {
		wire.WriteError(w, nil, reqID, wire.Errf(403, "MissingAuthenticationToken", "%v", err))
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, wire.MaxBody+1))
	if s.opts.LocalQueueURLs {
		var qw *queueURLWriter
		body, qw = localQueueURLs(w, r, body)
		defer qw.flush()
		w = qw
	}
	svc := s.services[sc.service]
	if svc == nil {
		s.refuse(w, r, sc, sniffService(sc.service, r, body), body, reqID,
			wire.Errf(400, wire.NotEmulated, "service %q (from the credential scope) is not emulated by the sandbox", sc.service))
		return
	}
	if svc.QueryXMLNS != "" && r.Header.Get("X-Amz-Target") == "" && r.Header.Get("Smithy-Protocol") == "" {
		q := *svc
		q.Protocol, q.XMLNS = wire.ProtoQuery, svc.QueryXMLNS
		svc = &q
	}
	who, known := s.principalFor(sc.accessKey)
	if !known {
		s.refuse(w, r, sc, svc, body, reqID, svc.UnknownKey(sc.accessKey))
		return
	}
	if err != nil || len(body) > wire.MaxBody {
		s.refuse(w, r, sc, svc, body, reqID, wire.Errf(400, "InvalidRequest", "cannot read the request body"))
		return
	}
	action, form, params, err := svc.Operation(r, body)
	if err != nil {
		s.refuse(w, r, sc, svc, body, reqID, asAPIError(err))
		return
	}
	c := &wire.Call{HTTP: r, Service: svc, Action: action, Region: sc.region, RequestID: reqID, Form: form, Body: body, Params: params,
		PageSize: s.opts.PageSize, OperationDelay: s.opts.OperationDelay, Now: s.opts.now}
	c.Who, c.Account = who, who.Account

	done := s.calls.begin(c.Account, c.Region, sc.service, action, sdkAttempt(r.Header))
	status, code := s.dispatch(w, c)
	done(status, code)
	s.recordCall(c, sc.accessKey, status, code)
}

func (s *Server) dispatch(w http.ResponseWriter, c *wire.Call) (int, string) {
	if d := s.latency(); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-c.HTTP.Context().Done():
			t.Stop()
			return 499, "ClientClosed"
		}
	}
	if e := s.faults.check(c); e != nil {
		wire.WriteError(w, c.Service, c.RequestID, e)
		return e.Status, e.Code
	}
	if e := iamauth.Authorize(s.st, c); e != nil {
		wire.WriteError(w, c.Service, c.RequestID, e)
		return e.Status, e.Code
	}
	if !s.throttles.allow(c.Account, c.Region, c.Service.Name, c.Action) ||
		(c.Service.Quotas[c.Action] > 0 && !s.throttles.quota(c.Account, c.Region, c.Service.Name, c.Action, c.Service.Quotas[c.Action])) {
		e := c.Service.ThrottleFor(c.Action)
		wire.WriteError(w, c.Service, c.RequestID, e)
		return e.Status, e.Code
	}
	if e := s.validate(c); e != nil {
		wire.WriteError(w, c.Service, c.RequestID, e)
		return e.Status, e.Code
	}
	st, wrote := s.stateFor(c)
	out, err := c.Service.Ops[c.Action](st, c)
	if wrote != nil {
		wrote(err == nil)
	}
	if err != nil {
		e := asAPIError(err)
		wire.WriteError(w, c.Service, c.RequestID, e)
		return e.Status, e.Code
	}
	switch v := out.(type) {
	case wire.Raw:
		if v.ContentType != "" {
			w.Header().Set("Content-Type", v.ContentType)
		}
		w.Header().Set("x-amzn-RequestId", c.RequestID)
		w.Header().Set("x-amz-request-id", c.RequestID)
		w.Header().Set("x-amz-id-2", wire.HostID(c.RequestID))
		if v.Status == 0 {
			v.Status = 200
		}
		w.WriteHeader(v.Status)
		_, _ = w.Write(v.Body)
		return v.Status, ""
	case *wire.Node:
		if c.Service.Protocol == wire.ProtoEC2 {
			wire.WriteEC2(w, c.Service, c.Action, c.RequestID, v)
			break
		}
		wire.WriteQuery(w, c.Service, c.Action, c.RequestID, v)
	case nil:
		if c.Service.Protocol == wire.ProtoEC2 {
			wire.WriteEC2(w, c.Service, c.Action, c.RequestID, nil)
		} else if c.Service.Protocol == wire.ProtoQuery {
			wire.WriteQuery(w, c.Service, c.Action, c.RequestID, nil)
		} else {
			wire.WriteJSON(w, c.Service, c.RequestID, struct{}{})
		}
	default:
		wire.WriteJSON(w, c.Service, c.RequestID, v)
	}
	return 200, ""
}

func asAPIError(err error) *wire.Error {
	var e *wire.Error
	if errors.As(err, &e) {
		return e
	}
	return &wire.Error{Status: 500, Code: "InternalFailure", Message: err.Error(), Receiver: true}
}

// principalFor maps an access key to the principal that owns it: a key
// the world maps, or a session key STS issued. known is false for any
// other key, which the sandbox refuses as AWS does (wire.Service's
// UnknownKey); the principal is then the zero one, of no account.
func (s *Server) principalFor(key string) (who world.Principal, known bool) {
	s.st.RLock()
	defer s.st.RUnlock()
	who, known = s.st.Keys[key]
	return who, known
}
