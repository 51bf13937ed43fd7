package wire_test

import (
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
)

// TestPaths: a REST request is named by method and path pattern, its
// {name} segments unescaped into parameters; the more literal pattern
// wins; other methods and lengths name nothing.
func TestPaths(t *testing.T) {
	route := wire.Paths(map[string]string{
		"GET /v1/configurations/{arn}":                      "Describe",
		"GET /v1/configurations/{arn}/revisions/{revision}": "DescribeRevision",
		"GET /v1/configurations/latest":                     "Latest",
		"POST /zones/{zone}/rrset":                          "Change",
	})
	for _, tt := range []struct {
		method, path string
		wantOp       string
		wantParams   map[string]string
	}{
		{"GET", "/v1/configurations/arn%3Aaws%3Akafka%2Fx", "Describe", map[string]string{"arn": "arn:aws:kafka/x"}},
		{"GET", "/v1/configurations/c1/revisions/2", "DescribeRevision", map[string]string{"arn": "c1", "revision": "2"}},
		{"GET", "/v1/configurations/latest", "Latest", map[string]string{}},
		{"POST", "/zones/Z1/rrset/", "Change", map[string]string{"zone": "Z1"}},
		{"GET", "/zones/Z1/rrset", "", nil},
		{"GET", "/v1/configurations", "", nil},
	} {
		op, params := route(httptest.NewRequest(tt.method, tt.path, nil))
		if op != tt.wantOp {
			t.Errorf("%s %s: op %q, want %q", tt.method, tt.path, op, tt.wantOp)
		}
		if diff := cmp.Diff(params, tt.wantParams); diff != "" {
			t.Errorf("%s %s: params (-got +want):\n%s", tt.method, tt.path, diff)
		}
	}
}

// TestConstructors: each protocol's constructor answers the errors most
// services of that protocol use, and Throttles/Denies override them.
func TestConstructors(t *testing.T) {
	for _, tt := range []struct {
		name               string
		svc                *wire.Service
		throttle, deny     wire.Error
		namespace, version string
	}{
		{"json", wire.JSON("application-autoscaling", "1.1", "AnyScale.", nil),
			wire.Error{Status: 400, Code: "ThrottlingException"}, wire.Error{Status: 400, Code: "AccessDeniedException"},
			"com.amazonaws.applicationautoscaling#", "1.1"},
		{"query", wire.Query("sns", "ns", nil).Denies(403, "AuthorizationError"),
			wire.Error{Status: 400, Code: "Throttling"}, wire.Error{Status: 403, Code: "AuthorizationError"}, "", ""},
		{"rest-json", wire.RESTJSON("dlm", nil, nil).Throttles(429, "LimitExceededException"),
			wire.Error{Status: 429, Code: "LimitExceededException"}, wire.Error{Status: 403, Code: "AccessDeniedException"}, "", ""},
		{"rest-xml", wire.RESTXML("route53", "ns", nil, nil),
			wire.Error{Status: 400, Code: "Throttling"}, wire.Error{Status: 403, Code: "AccessDenied"}, "", ""},
	} {
		got := []any{tt.svc.Throttle, tt.svc.Deny, tt.svc.JSONNamespace, tt.svc.JSONVersion}
		want := []any{tt.throttle, tt.deny, tt.namespace, tt.version}
		if diff := cmp.Diff(got, want); diff != "" {
			t.Errorf("%s (-got +want):\n%s", tt.name, diff)
		}
	}
}
