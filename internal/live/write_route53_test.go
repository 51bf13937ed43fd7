package live_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/aws/smithy-go"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
)

// r53Set applies an out-of-band change to a Route 53 model.
func r53Set(t *testing.T, srv *sandbox.Server, typ, id, path, value string) {
	t.Helper()
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: typ, Identifier: id, Path: path, Value: json.RawMessage(value)}); err != nil {
		t.Fatal(err)
	}
}

// TestRecordSetWriter: a record set changed out of band (TTL and values)
// and a group's record (TTL) are UPSERTed back to the template's values
// through ChangeResourceRecordSets, the change polled PENDING → INSYNC
// through GetChange under Wait; the re-read classifies clean, and a
// second write makes no call.
func TestRecordSetWriter(t *testing.T) {
	srv, url := sandboxtest.Serve(t, route53World(), sandbox.Options{OperationDelay: 150 * time.Millisecond})
	w := writers(t, url)
	w.Wait = true
	c := ctx(t)
	r53Set(t, srv, "AWS::Route53::RecordSet", "www.example.com", "TTL", `"900"`)
	r53Set(t, srv, "AWS::Route53::RecordSet", "www.example.com", "ResourceRecords", `["198.51.100.7"]`)
	r53Set(t, srv, "AWS::Route53::RecordSetGroup", "Dns-Records-1", "RecordSets.1.TTL", `"60"`)

	www := live.Target{Type: "AWS::Route53::RecordSet", LogicalID: "Www", PhysicalID: "www.example.com", Declared: declaredOf(t, wwwRS)}
	group := live.Target{Type: "AWS::Route53::RecordSetGroup", LogicalID: "Dns", PhysicalID: "Dns-Records-1", Declared: declaredOf(t, groupRSG)}
	writes := []struct {
		name string
		t    live.Target
		ops  string
	}{
		{"record set", www, `[{"op":"replace","path":"/TTL","value":"300"},{"op":"replace","path":"/ResourceRecords","value":["192.0.2.10","192.0.2.11"]}]`},
		{"record set group", group, `[{"op":"replace","path":"/RecordSets/1/TTL","value":"3600"}]`},
	}
	for _, wr := range writes {
		req := live.Request{Type: wr.t.Type, LogicalID: wr.t.LogicalID, PhysicalID: wr.t.PhysicalID, Declared: wr.t.Declared}
		if got := classifyEntry(t, req, read(t, w.Read, req)); len(got) == 0 {
			t.Fatalf("%s: the out-of-band change is not drift", wr.name)
		}
		before := srv.Calls().Requests
		if err := w.WriteSDK(c, wr.t, []byte(wr.ops), nil); err != nil {
			t.Fatalf("%s: %v", wr.name, err)
		}
		after := srv.Calls().Requests
		if n := after["route53:ChangeResourceRecordSets"] - before["route53:ChangeResourceRecordSets"]; n != 1 {
			t.Errorf("%s: %d ChangeResourceRecordSets calls, want 1", wr.name, n)
		}
		if n := after["route53:GetChange"] - before["route53:GetChange"]; n < 1 {
			t.Errorf("%s: the change was not polled (GetChange %d)", wr.name, n)
		}
		if got := classifyEntry(t, req, read(t, w.Read, req)); len(got) != 0 {
			t.Errorf("%s: findings after the write: %+v", wr.name, got)
		}
		again := srv.Calls().Requests["route53:ChangeResourceRecordSets"]
		if err := w.WriteSDK(c, wr.t, []byte(wr.ops), nil); err != nil {
			t.Fatalf("%s again: %v", wr.name, err)
		}
		if n := srv.Calls().Requests["route53:ChangeResourceRecordSets"] - again; n != 0 {
			t.Errorf("%s again made %d ChangeResourceRecordSets calls", wr.name, n)
		}
	}
	// The other records are untouched.
	if m, _ := srv.Live("", region, "AWS::Route53::RecordSet", "api.example.com-blue"); !jsonEqual(t, m, blueRS) {
		t.Errorf("blue record changed: %s", m)
	}
	// A rename is a replacement, never written in place.
	if err := w.WriteSDK(c, www, []byte(`[{"op":"replace","path":"/Name","value":"w2.example.com."}]`), nil); err == nil {
		t.Error("a patch renaming the record was written")
	}
}

// TestRecordSetWriterFaults: a throttled change fails with the code the
// revert retries; a denied one with AccessDenied, and nothing is written.
func TestRecordSetWriterFaults(t *testing.T) {
	srv, url := serve(t, route53World())
	w := writers(t, url)
	r53Set(t, srv, "AWS::Route53::RecordSet", "www.example.com", "TTL", `"900"`)
	www := live.Target{Type: "AWS::Route53::RecordSet", LogicalID: "Www", PhysicalID: "www.example.com", Declared: declaredOf(t, wwwRS)}
	ops := []byte(`[{"op":"replace","path":"/TTL","value":"300"}]`)
	for _, code := range []string{"Throttling", "AccessDenied"} {
		if err := srv.SetFaults([]sandbox.FaultRule{{Service: "route53", Action: "ChangeResourceRecordSets", Code: code}}); err != nil {
			t.Fatal(err)
		}
		err := w.WriteSDK(ctx(t), www, ops, nil)
		var ae smithy.APIError
		if !errors.As(err, &ae) || ae.ErrorCode() != code {
			t.Errorf("%s fault: %v", code, err)
		}
		if m, _ := srv.Live("", region, "AWS::Route53::RecordSet", "www.example.com"); !jsonHas(m, "TTL", "900") {
			t.Errorf("%s fault: the record was written: %s", code, m)
		}
	}
}

func jsonEqual(t *testing.T, got []byte, want string) bool {
	t.Helper()
	var a, b any
	if json.Unmarshal(got, &a) != nil || json.Unmarshal([]byte(want), &b) != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}

func jsonHas(got []byte, k string, v any) bool {
	var m map[string]any
	return json.Unmarshal(got, &m) == nil && reflect.DeepEqual(m[k], v)
}

// TestRecordSetWriterPendingChange: under Wait, a change whose GetChange
// fails is still polled by the retried write (which finds the record at
// its target and makes no second change).
func TestRecordSetWriterPendingChange(t *testing.T) {
	srv, url := sandboxtest.Serve(t, route53World(), sandbox.Options{OperationDelay: 50 * time.Millisecond})
	w := writers(t, url)
	w.Wait = true
	r53Set(t, srv, "AWS::Route53::RecordSet", "www.example.com", "TTL", `"900"`)
	www := live.Target{Type: "AWS::Route53::RecordSet", LogicalID: "Www", PhysicalID: "www.example.com", Declared: declaredOf(t, wwwRS)}
	ops := []byte(`[{"op":"replace","path":"/TTL","value":"300"}]`)
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "route53", Action: "GetChange", Code: "Throttling"}}); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteSDK(ctx(t), www, ops, nil); err == nil {
		t.Fatal("a write whose change could not be polled succeeded")
	}
	if err := srv.SetFaults(nil); err != nil {
		t.Fatal(err)
	}
	before := srv.Calls().Requests
	if err := w.WriteSDK(ctx(t), www, ops, nil); err != nil {
		t.Fatal(err)
	}
	after := srv.Calls().Requests
	if after["route53:ChangeResourceRecordSets"] != before["route53:ChangeResourceRecordSets"] || after["route53:GetChange"] <= before["route53:GetChange"] {
		t.Errorf("retry: ChangeResourceRecordSets %d→%d, GetChange %d→%d; want no change, the pending change polled",
			before["route53:ChangeResourceRecordSets"], after["route53:ChangeResourceRecordSets"], before["route53:GetChange"], after["route53:GetChange"])
	}
	again := srv.Calls().Requests["route53:GetChange"]
	if err := w.WriteSDK(ctx(t), www, ops, nil); err != nil {
		t.Fatal(err)
	}
	if n := srv.Calls().Requests["route53:GetChange"] - again; n != 0 {
		t.Errorf("a third write polled %d times: the change is no longer pending", n)
	}
}
