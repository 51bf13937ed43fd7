package worldgen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/lambda"
	"github.com/aws/aws-sdk-go-v2/service/organizations"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/corpus/corpustest"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
)

func demoWorld(t *testing.T) (*sandbox.World, []byte) {
	t.Helper()
	cases, err := corpus.LoadDirs(corpustest.Subset(t))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, c := range cases {
		have[c.File] = true
	}
	for typ, f := range worldgen.DemoRecordings() {
		if !have[f] {
			t.Errorf("recording %s of %s is not in the corpus", f, typ)
		}
	}
	w, err := worldgen.Demo(cases)
	if err != nil {
		t.Fatal(err)
	}
	data, err := w.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return w, data
}

func TestDemoWorld(t *testing.T) {
	w, data := demoWorld(t)
	_, again := demoWorld(t)
	if !bytes.Equal(data, again) {
		t.Error("two demo worlds differ: the generator is not deterministic")
	}
	loaded, err := sandbox.ParseWorld(data)
	if err != nil {
		t.Fatal(err)
	}
	// Consistency: nothing of the recordings' accounts or names is left.
	for _, bad := range []string{"111111111111", "Cdkrd", "cdkrd", "CdkRealDrift"} {
		if bytes.Contains(data, []byte(bad)) {
			i := bytes.Index(data, []byte(bad))
			t.Errorf("demo world still holds %q: ...%s...", bad, data[max(0, i-80):min(len(data), i+80)])
		}
	}
	srv, err := sandbox.New(loaded, sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	ctx := t.Context()
	stacks := 0
	for _, a := range w.Accounts {
		for _, r := range a.Regions {
			conf := sandboxtest.Config(hs.URL, worldgen.DemoAccessKey(a.ID), r.Name)
			cfn := cloudformation.NewFromConfig(conf)
			clients := live.NewClients(conf)
			for _, s := range r.Stacks {
				stacks++
				if _, err := cfn.GetTemplate(ctx, &cloudformation.GetTemplateInput{StackName: aws.String(s.Name)}); err != nil {
					t.Fatal(err)
				}
				for _, res := range s.Resources {
					// The live model holds the resolved declared values, which
					// is what the override readers and identifier adapters use.
					var declared map[string]any
					if err := json.Unmarshal(res.Properties, &declared); err != nil {
						t.Fatal(err)
					}
					got := live.Read(ctx, clients, live.Request{Type: res.Type, LogicalID: res.LogicalID, PhysicalID: res.PhysicalID, Declared: declared})
					if got.Status != live.Found {
						t.Errorf("%s/%s %s %s: %s via %s: %s", a.ID, r.Name, s.Name, res.LogicalID, got.Status, got.Route, got.Reason)
					}
				}
			}
		}
	}
	if stacks != 12 {
		t.Errorf("%d stacks, want 12", stacks)
	}
	org := organizations.NewFromConfig(sandboxtest.Config(hs.URL, worldgen.DemoAccessKey(worldgen.DemoAccounts()[0].ID), "us-east-1"))
	out, err := org.ListAccounts(ctx, &organizations.ListAccountsInput{})
	if err != nil || len(out.Accounts) != 3 {
		t.Errorf("ListAccounts: %v %v", out, err)
	}
}

func TestDemoDrift(t *testing.T) {
	w, _ := demoWorld(t)
	dev := worldgen.DemoAccounts()[1].ID
	changes, err := worldgen.DemoDrift(w, dev, "us-east-1")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := sandbox.New(w, sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range changes {
		if ch.Story == "" {
			t.Errorf("change %+v has no story", ch.Change)
		}
		if err := srv.Apply(ch.Change); err != nil {
			t.Fatalf("%s: %v", ch.Story, err)
		}
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	conf := sandboxtest.Config(hs.URL, worldgen.DemoAccessKey(dev), "us-east-1")
	ctx := t.Context()
	var role, fn string
	for _, s := range w.Accounts[1].Regions[0].Stacks {
		for _, r := range s.Resources {
			switch {
			case r.Type == "AWS::IAM::Role" && strings.HasPrefix(r.LogicalID, "HandlerServiceRole"):
				role = r.PhysicalID
			case r.Type == "AWS::Lambda::Function" && strings.HasPrefix(r.LogicalID, "Handler"):
				fn = r.PhysicalID
			}
		}
	}
	names, err := iam.NewFromConfig(conf).ListRolePolicies(ctx, &iam.ListRolePoliciesInput{RoleName: aws.String(role)})
	if err != nil || len(names.PolicyNames) != 2 || names.PolicyNames[1] != "hotfix-debug-access" {
		t.Errorf("role policies after drift: %v %v", names, err)
	}
	pol, err := lambda.NewFromConfig(conf).GetPolicy(ctx, &lambda.GetPolicyInput{FunctionName: aws.String(fn)})
	if err != nil || !strings.Contains(aws.ToString(pol.Policy), "arn:aws:iam::999999999999:root") {
		t.Errorf("function policy after drift: %v %v", pol, err)
	}
	for _, ch := range changes {
		if ch.Op != sandbox.OpSet {
			continue
		}
		m, ok := srv.Live(ch.Account, ch.Region, ch.Type, ch.Identifier)
		if !ok {
			t.Fatalf("%s: resource gone", ch.Story)
		}
		var model map[string]any
		if err := json.Unmarshal(m, &model); err != nil {
			t.Fatal(err)
		}
		var v any = model
		for _, seg := range strings.Split(ch.Path, ".") {
			v = v.(map[string]any)[seg]
		}
		var want any
		_ = json.Unmarshal(ch.Value, &want)
		if fmt.Sprint(v) != fmt.Sprint(want) {
			t.Errorf("%s: %s is %v, want %v", ch.Story, ch.Path, v, want)
		}
	}
	// The other region is untouched.
	other := aws.Config{Region: "eu-west-1", Credentials: conf.Credentials, BaseEndpoint: conf.BaseEndpoint}
	for _, s := range w.Accounts[1].Regions[1].Stacks {
		for _, r := range s.Resources {
			if r.Type == "AWS::Lambda::Function" && strings.HasPrefix(r.LogicalID, "Handler") {
				pol, err := lambda.NewFromConfig(other).GetPolicy(ctx, &lambda.GetPolicyInput{FunctionName: aws.String(r.PhysicalID)})
				if err != nil || strings.Contains(aws.ToString(pol.Policy), "999999999999") {
					t.Errorf("eu-west-1 changed: %v %v", pol, err)
				}
			}
		}
	}
}
