package sandbox_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/realdrift/realdrift/internal/sandbox"
)

func admin(t *testing.T, method, url, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx(t), method, url, bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func TestAdminHTTP(t *testing.T) {
	_, u := start(t, "testdata/world.json", sandbox.Options{})
	a := u + "/_sandbox/"
	conf := cfg(u, mgmtKey, "us-east-1")
	conf.Retryer = func() aws.Retryer { return aws.NopRetryer{} }
	cc := cloudcontrol.NewFromConfig(conf)

	status, snap := admin(t, "GET", a+"snapshot", "")
	if status != 200 {
		t.Fatalf("snapshot: %d %s", status, snap)
	}
	steps := []struct {
		method, route, body string
		want                int
	}{
		{"POST", "change", `{"op":"set","region":"us-east-1","type":"AWS::SQS::Queue","identifier":"` + queueURL + `","path":"/VisibilityTimeout","value":7}`, 200},
		{"POST", "change", `{"op":"set","region":"us-east-1","type":"AWS::SQS::Queue","identifier":"nope","path":"/A","value":1}`, 404},
		{"POST", "change", `{"op":"frobnicate","region":"us-east-1","type":"AWS::SQS::Queue","identifier":"` + queueURL + `"}`, 400},
		{"POST", "throttle", `[{"rate":-1}]`, 400},
		{"POST", "faults", `[{"rate":2}]`, 400},
		{"GET", "nope", ``, 404},
	}
	for _, s := range steps {
		if got, body := admin(t, s.method, a+s.route, s.body); got != s.want {
			t.Errorf("%s %s: %d %s, want %d", s.method, s.route, got, body, s.want)
		}
	}
	status, body := admin(t, "GET", a+"live?region=us-east-1&type=AWS::SQS::Queue&identifier="+queueURL, "")
	var m map[string]any
	if status != 200 || json.Unmarshal(body, &m) != nil || m["VisibilityTimeout"] != 7.0 {
		t.Errorf("live: %d %s", status, body)
	}

	// Faults: a chosen code on every GetResource.
	if got, body := admin(t, "POST", a+"faults", `[{"service":"cloudcontrolapi","action":"GetResource","code":"ThrottlingException","status":400}]`); got != 200 {
		t.Fatalf("faults: %d %s", got, body)
	}
	_, err := cc.GetResource(ctx(t), &cloudcontrol.GetResourceInput{TypeName: aws.String(queueType), Identifier: aws.String(queueURL)})
	var thr *cctypes.ThrottlingException
	if !asErr(err, &thr) {
		t.Errorf("injected fault: %v", err)
	}
	admin(t, "POST", a+"faults", `[]`)

	// Latency.
	admin(t, "POST", a+"latency", `{"millis":150}`)
	begin := time.Now()
	if _, err := sts.NewFromConfig(conf).GetCallerIdentity(ctx(t), &sts.GetCallerIdentityInput{}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(begin); d < 150*time.Millisecond {
		t.Errorf("latency not applied: %s", d)
	}
	admin(t, "POST", a+"latency", `{"millis":0}`)

	// Calls.
	status, body = admin(t, "GET", a+"calls", "")
	var st sandbox.CallStats
	if status != 200 || json.Unmarshal(body, &st) != nil || st.Counts["cloudcontrolapi:GetResource"] != 1 || st.Errors["cloudcontrolapi:GetResource:ThrottlingException"] != 1 {
		t.Errorf("calls: %d %s", status, body)
	}
	admin(t, "DELETE", a+"calls", "")
	if _, body = admin(t, "GET", a+"calls", ""); json.Unmarshal(body, &st) != nil || st.Total != 0 {
		t.Errorf("calls after reset: %s", body)
	}

	// Restore.
	if got, body := admin(t, "POST", a+"restore", string(snap)); got != 200 {
		t.Fatalf("restore: %d %s", got, body)
	}
	if m := getProps(t, cc, queueType, queueURL); m["VisibilityTimeout"] != 30.0 {
		t.Errorf("after restore: %v", m)
	}
	if got, _ := admin(t, "POST", a+"restore", `{"accounts":[]}`); got != 400 {
		t.Errorf("restoring an invalid world: %d", got)
	}
}

func TestFaultRate(t *testing.T) {
	srv, u := start(t, "testdata/world.json", sandbox.Options{Seed: 7})
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "sts", Rate: 0.5, Code: "ServiceUnavailable"}}); err != nil {
		t.Fatal(err)
	}
	conf := cfg(u, mgmtKey, "us-east-1")
	conf.Retryer = func() aws.Retryer { return aws.NopRetryer{} }
	cl := sts.NewFromConfig(conf)
	failed := 0
	for range 200 {
		if _, err := cl.GetCallerIdentity(ctx(t), &sts.GetCallerIdentityInput{}); err != nil {
			if code(err) != "ServiceUnavailable" {
				t.Fatalf("unexpected error %v", err)
			}
			failed++
		}
	}
	if failed < 60 || failed > 140 {
		t.Errorf("%d of 200 failed at rate 0.5", failed)
	}
}
