package wire_test

import (
	"errors"
	"net/url"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
)

// clock is a test's one clock.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

var errSize, errToken = errors.New("size"), errors.New("token")

var (
	bounded = wire.Paging{Prefix: "p", Default: 2, Min: 2, Max: 3,
		BadSize: func(string) error { return errSize }, BadToken: errToken}
	open = wire.Paging{Prefix: "p", Default: 2, BadToken: errToken}
)

// queryCall is a query-protocol call of op with the form given.
func queryCall(svc *wire.Service, clk *clock, op string, form url.Values) *wire.Call {
	return &wire.Call{Service: svc, Action: op, Account: "111111111111", Region: "us-east-1", Form: form, Now: clk.now}
}

// TestPaging: a request's size is checked against the operation's bounds
// (or taken as given, below 1 the default, where it refuses none), its
// token must be one the operation issued, and each page's token leads to
// the next until the last page, which has none.
func TestPaging(t *testing.T) {
	svc := wire.Query("svc", "ns", wire.Ops{})
	clk := &clock{time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	call := func(size, token string) *wire.Call {
		return queryCall(svc, clk, "List", url.Values{"MaxItems": {size}, "Marker": {token}})
	}
	// first is the token the first page of 5 items at size 3 issues.
	cur, err := bounded.StartText(call("3", ""), "3", "")
	if err != nil {
		t.Fatal(err)
	}
	_, _, first := cur.Cut(5)
	type page struct {
		Lo, Hi int
		More   bool
	}
	for _, tt := range []struct {
		name        string
		p           wire.Paging
		size, token string
		want        page
		wantErr     error
	}{
		{"default size", bounded, "", "", page{0, 2, true}, nil},
		{"given size", bounded, "3", "", page{0, 3, true}, nil},
		{"second page", bounded, "3", first, page{3, 5, false}, nil},
		{"second page at another size", bounded, "2", first, page{3, 5, false}, nil},
		{"below the smallest", bounded, "1", "", page{}, errSize},
		{"above the largest", bounded, "4", "", page{}, errSize},
		{"not a number", bounded, "x", "", page{}, errSize},
		{"another operation's token", wire.Paging{Prefix: "q", Default: 2, BadToken: errToken}, "", first, page{}, errToken},
		{"not a token", bounded, "", "p-zz", page{}, errToken},
		{"a token cut short", bounded, "", first[:len(first)-2], page{}, errToken},
		{"no bounds: negative is the default", open, "-1", "", page{0, 2, true}, nil},
		{"no bounds: not a number is the default", open, "x", "", page{0, 2, true}, nil},
		{"no bounds: any size", open, "9", "", page{0, 5, false}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cur, err := tt.p.StartText(call(tt.size, tt.token), tt.size, tt.token)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("StartText(%q, %q) error = %v, want %v", tt.size, tt.token, err, tt.wantErr)
			}
			if err != nil {
				return
			}
			var got page
			var next string
			got.Lo, got.Hi, next = cur.Cut(5)
			got.More = next != ""
			if d := cmp.Diff(got, tt.want); d != "" {
				t.Errorf("Cut(5) (-got +want):\n%s", d)
			}
		})
	}
}

// TestPagingTokenBoundToListing: a token holds for the listing that
// issued it — the same operation, account, region and parameters but the
// token and the page size — in every protocol's way of carrying them
// (form, JSON body, REST path and query string), and is refused with any
// other parameter.
func TestPagingTokenBoundToListing(t *testing.T) {
	clk := &clock{time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	query := wire.Query("svc", "ns", wire.Ops{})
	json := wire.JSON("svc", "1.1", "Svc.", wire.Ops{})
	rest := wire.RESTJSON("svc", nil, wire.Ops{})
	form := func(kv ...string) url.Values {
		v := url.Values{"Action": {"List"}, "Version": {"2010-05-08"}}
		for i := 0; i < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}
	body := func(b string) func(*wire.Call) { return func(c *wire.Call) { c.Body = []byte(b) } }
	for _, tt := range []struct {
		name       string
		svc        *wire.Service
		first      func(*wire.Call)
		next       func(c *wire.Call, token string)
		wantRefuse bool
	}{
		{"query: same parameters", query,
			func(c *wire.Call) { c.Form = form("PathPrefix", "/a/") },
			func(c *wire.Call, tok string) { c.Form = form("PathPrefix", "/a/", "Marker", tok) }, false},
		{"query: the form in the body", query,
			func(c *wire.Call) { c.Form = form("PathPrefix", "/a/"); c.Body = []byte(c.Form.Encode()) },
			func(c *wire.Call, tok string) {
				c.Form = form("PathPrefix", "/a/", "Marker", tok)
				c.Body = []byte(c.Form.Encode())
			}, false},
		{"query: another page size", query,
			func(c *wire.Call) { c.Form = form("PathPrefix", "/a/", "MaxItems", "2") },
			func(c *wire.Call, tok string) { c.Form = form("PathPrefix", "/a/", "MaxItems", "7", "Marker", tok) }, false},
		{"query: another parameter value", query,
			func(c *wire.Call) { c.Form = form("PathPrefix", "/a/") },
			func(c *wire.Call, tok string) { c.Form = form("PathPrefix", "/b/", "Marker", tok) }, true},
		{"query: a parameter added", query,
			func(c *wire.Call) { c.Form = form() },
			func(c *wire.Call, tok string) { c.Form = form("Scope", "Local", "Marker", tok) }, true},
		{"query: a parameter dropped", query,
			func(c *wire.Call) { c.Form = form("Filters.member.1.Name", "vpc-id") },
			func(c *wire.Call, tok string) { c.Form = form("Marker", tok) }, true},
		{"json: same members", json,
			body(`{"logGroupName":"g","limit":2}`),
			func(c *wire.Call, tok string) {
				c.Body = []byte(`{"limit":5,"nextToken":"` + tok + `","logGroupName":"g"}`)
			}, false},
		{"json: another member value", json,
			body(`{"logGroupName":"g"}`),
			func(c *wire.Call, tok string) { c.Body = []byte(`{"logGroupName":"h","nextToken":"` + tok + `"}`) }, true},
		{"json: a nested member changed", json,
			body(`{"Filters":[{"Key":"a","Values":["1"]}]}`),
			func(c *wire.Call, tok string) {
				c.Body = []byte(`{"Filters":[{"Key":"a","Values":["2"]}],"NextToken":"` + tok + `"}`)
			}, true},
		{"rest: same path and query string", rest,
			func(c *wire.Call) {
				c.Params = map[string]string{"apiId": "a1"}
				c.Form = url.Values{"maxResults": {"2"}}
			},
			func(c *wire.Call, tok string) {
				c.Params = map[string]string{"apiId": "a1"}
				c.Form = url.Values{"maxResults": {"2"}, "nextToken": {tok}}
			}, false},
		{"rest: another path parameter", rest,
			func(c *wire.Call) { c.Params = map[string]string{"apiId": "a1"} },
			func(c *wire.Call, tok string) {
				c.Params = map[string]string{"apiId": "a2"}
				c.Form = url.Values{"nextToken": {tok}}
			}, true},
		{"another operation", query,
			func(c *wire.Call) { c.Form = form() },
			func(c *wire.Call, tok string) { c.Action = "ListOther"; c.Form = form("Marker", tok) }, true},
		{"another account", query,
			func(c *wire.Call) { c.Form = form() },
			func(c *wire.Call, tok string) { c.Account = "222222222222"; c.Form = form("Marker", tok) }, true},
		{"another region", query,
			func(c *wire.Call) { c.Form = form() },
			func(c *wire.Call, tok string) { c.Region = "eu-west-1"; c.Form = form("Marker", tok) }, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := queryCall(tt.svc, clk, "List", nil)
			tt.first(c)
			cur, err := open.Start(c, 2, "")
			if err != nil {
				t.Fatal(err)
			}
			_, _, tok := cur.Cut(5)
			if tok == "" {
				t.Fatal("the first page of 5 at size 2 issued no token")
			}
			c2 := queryCall(tt.svc, clk, "List", nil)
			tt.next(c2, tok)
			cur, err = open.Start(c2, 2, tok)
			if tt.wantRefuse {
				if !errors.Is(err, errToken) {
					t.Fatalf("Start with the token and other parameters: error = %v, want the operation's BadToken", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Start with the token and the same parameters: %v", err)
			}
			if lo, _, _ := cur.Cut(5); lo != 2 {
				t.Errorf("the second page starts at %d, want 2", lo)
			}
		})
	}
}

// TestPagingTokenLifetime: where a service documents how long its tokens
// hold (Service.TokenLifetime), a token is taken up to that age on the
// call's clock and refused after it; where it documents none, a token
// never expires. Each page's token is issued anew, so a listing read page
// by page outlives any one token.
func TestPagingTokenLifetime(t *testing.T) {
	const life = 24 * time.Hour
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tt := range []struct {
		name       string
		svc        *wire.Service
		age        time.Duration
		wantRefuse bool
	}{
		{"within its lifetime", wire.JSON("svc", "1.1", "Svc.", wire.Ops{}).TokensExpire(life), life, false},
		{"past its lifetime", wire.JSON("svc", "1.1", "Svc.", wire.Ops{}).TokensExpire(life), life + time.Second, true},
		{"another operation's lifetime", wire.JSON("svc", "1.1", "Svc.", wire.Ops{}).TokensExpire(time.Hour, "Other"), life + time.Second, false},
		{"the operation's own lifetime", wire.JSON("svc", "1.1", "Svc.", wire.Ops{}).TokensExpire(life).TokensExpire(time.Hour, "List"), 2 * time.Hour, true},
		{"no documented lifetime", wire.JSON("svc", "1.1", "Svc.", wire.Ops{}), 1000 * life, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			clk := &clock{start}
			c := queryCall(tt.svc, clk, "List", nil)
			cur, err := open.Start(c, 2, "")
			if err != nil {
				t.Fatal(err)
			}
			_, _, tok := cur.Cut(5)
			clk.t = start.Add(tt.age)
			cur, err = open.Start(c, 2, tok)
			if tt.wantRefuse != errors.Is(err, errToken) || (!tt.wantRefuse && err != nil) {
				t.Fatalf("a token %v old: error = %v, want refused %v", tt.age, err, tt.wantRefuse)
			}
			if err != nil {
				return
			}
			// The second page's token is as young as the call that got it.
			_, _, tok = cur.Cut(5)
			clk.t = clk.t.Add(tt.svc.TokenLifetime("List"))
			if _, err := open.Start(c, 2, tok); err != nil {
				t.Errorf("a token issued on the second page, read within its lifetime: %v", err)
			}
		})
	}
}
