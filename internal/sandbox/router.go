package sandbox

import (
	"errors"
	"fmt"
	"github.com/realdrift/realdrift/internal/sandbox/world"
	"io"
	"net/http"
	"strings"
	"time"
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

// services is the one registration table of emulated services, keyed by
// SigV4 signing name.
func services(srv *Server) map[string]*service {
	out := map[string]*service{}
	for _, svc := range []*service{
		cloudFormationService(srv), cloudControlService(srv), stsService(srv), organizationsService(),
		s3Service(srv), sqsService(), snsService(), iamService(), lambdaService(), kmsService(),
		ec2Service(), logsService(), eventsService(), secretsManagerService(),
		ecsService(), cognitoService(), ssmService(), autoScalingService(), codeDeployService(),
		route53Service(), acmService(), codeBuildService(), schedulerService(), configService(),
		serviceDiscoveryService(), elbv2Service(srv), elastiCacheService(), daxService(), sesService(), glueService(), appSyncService(),
		lakeFormationService(), mediaConvertService(), docDBService(), dmsService(), budgetsService(), dlmService(), sageMakerService(), cognitoIdentityService(), cloudWatchService(), memoryDBService(), kafkaService(), elasticBeanstalkService(), redshiftServerlessService(), lexModelsService(),
		securityHubService(srv), applicationAutoScalingService(),
	} {
		out[svc.name] = svc
	}
	return out
}

// serveAPI serves one signed AWS API request.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	reqID := newRequestID()
	sc, err := parseScope(r)
	if err != nil {
		writeError(w, nil, reqID, errf(403, "MissingAuthenticationToken", "%v", err))
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if s.opts.LocalQueueURLs {
		var qw *queueURLWriter
		body, qw = localQueueURLs(w, r, body)
		defer qw.flush()
		w = qw
	}
	svc := s.services[sc.service]
	if svc == nil {
		s.refuse(w, r, sc, sniffService(sc.service, r, body), body, reqID,
			errf(400, NotEmulated, "service %q (from the credential scope) is not emulated by the sandbox", sc.service))
		return
	}
	if svc.queryXMLNS != "" && r.Header.Get("X-Amz-Target") == "" && r.Header.Get("Smithy-Protocol") == "" {
		q := *svc
		q.protocol, q.xmlns = protoQuery, svc.queryXMLNS
		svc = &q
	}
	if err != nil || len(body) > maxBody {
		s.refuse(w, r, sc, svc, body, reqID, errf(400, "InvalidRequest", "cannot read the request body"))
		return
	}
	action, form, params, err := svc.operation(r, body)
	if err != nil {
		s.refuse(w, r, sc, svc, body, reqID, asAPIError(err))
		return
	}
	c := &call{r: r, svc: svc, action: action, region: sc.region, reqID: reqID, form: form, body: body, params: params,
		pageSize: s.opts.PageSize, operationDelay: s.opts.OperationDelay, now: s.opts.now}
	c.who = s.principalFor(sc.accessKey)
	c.account = c.who.Account

	done := s.calls.begin(c.account, c.region, sc.service, action, sdkAttempt(r.Header))
	status, code := s.dispatch(w, c)
	done(status, code)
}

func (s *Server) dispatch(w http.ResponseWriter, c *call) (int, string) {
	if d := s.latency(); d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-c.r.Context().Done():
			t.Stop()
			return 499, "ClientClosed"
		}
	}
	if e := s.faults.check(c); e != nil {
		writeError(w, c.svc, c.reqID, e)
		return e.Status, e.Code
	}
	if e := s.authorize(c); e != nil {
		writeError(w, c.svc, c.reqID, e)
		return e.Status, e.Code
	}
	if !s.throttles.allow(c.account, c.region, c.svc.name, c.action) {
		e := c.svc.throttle
		e.Message = "Rate exceeded"
		writeError(w, c.svc, c.reqID, &e)
		return e.Status, e.Code
	}
	out, err := c.svc.ops[c.action](s.st, c)
	if err != nil {
		e := asAPIError(err)
		writeError(w, c.svc, c.reqID, e)
		return e.Status, e.Code
	}
	switch v := out.(type) {
	case raw:
		if v.contentType != "" {
			w.Header().Set("Content-Type", v.contentType)
		}
		w.Header().Set("x-amzn-RequestId", c.reqID)
		w.Header().Set("x-amz-request-id", c.reqID)
		w.Header().Set("x-amz-id-2", hostID(c.reqID))
		if v.status == 0 {
			v.status = 200
		}
		w.WriteHeader(v.status)
		_, _ = w.Write(v.body)
		return v.status, ""
	case *xnode:
		if c.svc.protocol == protoEC2 {
			writeEC2(w, c.svc, c.action, c.reqID, v)
			break
		}
		writeQuery(w, c.svc, c.action, c.reqID, v)
	case nil:
		if c.svc.protocol == protoEC2 {
			writeEC2(w, c.svc, c.action, c.reqID, nil)
		} else if c.svc.protocol == protoQuery {
			writeQuery(w, c.svc, c.action, c.reqID, nil)
		} else {
			writeJSON(w, c.svc, c.reqID, struct{}{})
		}
	default:
		writeJSON(w, c.svc, c.reqID, v)
	}
	return 200, ""
}

func asAPIError(err error) *apiError {
	var e *apiError
	if errors.As(err, &e) {
		return e
	}
	return &apiError{Status: 500, Code: "InternalFailure", Message: err.Error(), Receiver: true}
}

// principalFor maps an access key to its principal; an unmapped key acts
// as the default account's root.
func (s *Server) principalFor(key string) world.Principal {
	s.st.RLock()
	defer s.st.RUnlock()
	if p, ok := s.st.Keys[key]; ok {
		return p
	}
	return world.UserPrincipal(s.st.World.DefaultAccount, "")
}
