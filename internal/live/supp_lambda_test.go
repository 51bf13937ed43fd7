package live_test

import (
	"encoding/json"
	"testing"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestLambdaFunctionSupplement: CodeSha256 is read through
// GetFunctionConfiguration and classified generated (never drift, so an
// out-of-band code change is the new hash read back, not a declared
// finding: no template declares the hash); denied or throttled, it is
// unread and the rest of the model still read.
func TestLambdaFunctionSupplement(t *testing.T) {
	const declared = `{"FunctionName":"api","Runtime":"nodejs20.x","Handler":"index.handler","Role":"arn:aws:iam::` + acct + `:role/api"}`
	srv, url := serve(t, worldOf(
		liveOnly("AWS::Lambda::Function", "api", `{"FunctionName":"api","Runtime":"nodejs20.x","Handler":"index.handler","Role":"arn:aws:iam::`+acct+`:role/api","CodeSha256":"stale-in-cc"}`),
	))
	c := live.NewClients(config(url))
	req := live.Request{Type: "AWS::Lambda::Function", LogicalID: "Api", PhysicalID: "api", Declared: declaredOf(t, declared)}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: req.Type, Identifier: "api", Path: "CodeSha256", Value: json.RawMessage(`"47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="`)}); err != nil {
		t.Fatal(err)
	}
	got := live.Read(ctx(t), c, req)
	if got.Status != live.Found || got.Model["CodeSha256"] != "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=" || got.Model["Runtime"] != "nodejs20.x" {
		t.Fatalf("read: %+v", got)
	}
	fs := classifyAll(t, req, got)
	if d := driftOnly(fs); len(d) != 0 {
		t.Errorf("clean read classified as %+v", d)
	}
	gen := false
	for _, f := range fs {
		gen = gen || f.Path == "CodeSha256" && f.Tier == drift.Generated
	}
	if !gen {
		t.Errorf("CodeSha256 not generated in %+v", fs)
	}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: req.Type, Identifier: "api", Path: "CodeSha256", Value: json.RawMessage(`"n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg="`)}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, req); got.Model["CodeSha256"] != "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=" {
		t.Errorf("code changed out of band: %+v", got.Model)
	}
	for _, f := range []sandbox.FaultRule{
		{Service: "lambda", Action: "GetFunctionConfiguration", Code: "AccessDeniedException", Status: 403},
		{Service: "lambda", Action: "GetFunctionConfiguration", Code: "TooManyRequestsException", Status: 429},
	} {
		if err := srv.SetFaults([]sandbox.FaultRule{f}); err != nil {
			t.Fatal(err)
		}
		got := live.Read(ctx(t), c, req)
		if _, ok := got.Model["CodeSha256"]; got.Status != live.Found || ok || got.Model["Runtime"] != "nodejs20.x" {
			t.Errorf("%s: %+v, want the model without CodeSha256", f.Code, got)
		}
		if d := driftOnly(classifyAll(t, req, got)); len(d) != 0 {
			t.Errorf("%s: classified as %+v", f.Code, d)
		}
	}
}
