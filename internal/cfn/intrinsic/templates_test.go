package intrinsic

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/cfn/cfntest"
)

const fakeSecret = "NOECHO-PLAINTEXT-42"

// fakeContext supplies a physical id for every resource, a live value for
// every attribute the template reads with Fn::GetAtt, a value for every
// literal export and stack output it imports, and a value for each NoEcho
// parameter.
func fakeContext(tpl *cfn.Template, stack string) Context {
	c := Context{
		AccountID:   "111111111111",
		Region:      "us-east-1",
		StackName:   stack,
		StackID:     "arn:aws:cloudformation:us-east-1:111111111111:stack/" + stack + "/fake",
		Parameters:  map[string]string{},
		PhysicalIDs: map[string]string{},
		LiveAttrs:   map[string]map[string]any{},
		Exports:     map[string]string{},
		StackOutputs: func(ref StackOutputRef) (string, bool) {
			return "output-" + ref.OutputName, true
		},
	}
	for id := range tpl.Resources {
		c.PhysicalIDs[id] = "phys-" + id
		c.LiveAttrs[id] = map[string]any{}
	}
	for name, p := range tpl.Parameters {
		if p.NoEcho {
			c.Parameters[name] = fakeSecret
		}
	}
	setAttr := func(res, attr string) {
		live, ok := c.LiveAttrs[res]
		if !ok {
			return
		}
		switch attr {
		case "CidrBlock":
			live[attr] = "10.0.0.0/16"
		case "Ipv6CidrBlocks":
			live[attr] = []any{"2600:1f18:1:200::/56"}
		default:
			live[attr] = "live-" + res + "-" + attr
		}
	}
	walkFunctions(tpl.Raw, 0, func(fn string, arg any) {
		switch fn {
		case "Fn::GetAtt":
			switch a := arg.(type) {
			case []any:
				if len(a) == 2 {
					res, _ := a[0].(string)
					attr, _ := a[1].(string)
					setAttr(res, attr)
				}
			case string:
				if res, attr, ok := strings.Cut(a, "."); ok {
					setAttr(res, attr)
				}
			}
		case "Fn::Sub":
			tmpl, _ := arg.(string)
			if list, ok := arg.([]any); ok && len(list) > 0 {
				tmpl, _ = list[0].(string)
			}
			parts, _ := parseSub(tmpl)
			for _, p := range parts {
				if res, attr, ok := strings.Cut(p.text, "."); ok && p.isVar {
					setAttr(res, attr)
				}
			}
		case "Fn::ImportValue":
			if name, ok := arg.(string); ok {
				c.Exports[name] = "export-" + name
			}
		}
	})
	return c
}

func TestResolveSharedTemplates(t *testing.T) {
	for _, path := range cfntest.Files(t) {
		rel := cfntest.Rel(path)
		t.Run(rel, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			tpl, err := cfn.Parse(data)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			stack := strings.SplitN(filepath.Base(path), ".", 2)[0]
			c := fakeContext(tpl, stack)

			pass1 := New(tpl, Context{AccountID: c.AccountID, Region: c.Region, StackName: c.StackName, StackID: c.StackID,
				Parameters: c.Parameters, PhysicalIDs: c.PhysicalIDs, Exports: c.Exports, StackOutputs: c.StackOutputs})
			pass2 := pass1.WithLiveAttrs(c.LiveAttrs)

			count := func(r *Resolver) (res, out int) {
				for _, x := range r.Resources() {
					res += CountUnknown(x.Properties)
					if x.Unresolved != nil {
						res++
					}
				}
				for _, o := range r.Outputs() {
					out += CountUnknown(o.Value) + CountUnknown(o.ExportName)
				}
				return res, out
			}
			res1, _ := count(pass1)
			res2, out2 := count(pass2)
			resources := pass2.Resources()
			t.Logf("%s: %d of %d resources kept; UNRESOLVED leaves: pass 1 %d, pass 2 %d in resources, %d in outputs",
				rel, len(resources), len(tpl.Resources), res1, res2, out2)
			if res2 > res1 {
				t.Errorf("pass 2 has more unresolved leaves (%d) than pass 1 (%d)", res2, res1)
			}

			for _, x := range resources {
				walkFunctions(x.Properties, 0, func(fn string, _ any) {
					t.Errorf("%s: intrinsic %s survived resolution", x.LogicalID, fn)
				})
			}
			b, err := json.Marshal(struct {
				R []Resource
				O []Output
			}{resources, pass2.Outputs()})
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			for _, leak := range []string{fakeSecret, "{{resolve:"} {
				if strings.Contains(string(b), leak) {
					t.Errorf("resolved template contains %q", leak)
				}
			}
		})
	}
}

// TestSharedTemplateValues pins a few values resolved from the shared
// templates.
func TestSharedTemplateValues(t *testing.T) {
	tests := []struct {
		file, resource, path string
		want                 any
	}{
		{"hand-written/web-tier.yaml", "LogBucket", "BucketName", "web-logs-use1-dev-111111111111"},
		{"hand-written/web-tier.yaml", "LogBucket", "LifecycleConfiguration.Rules.0.ExpirationInDays", 7.0},
		{"hand-written/web-tier.yaml", "PublicSubnetB", "CidrBlock", "10.0.1.0/24"},
		{"hand-written/web-tier.yaml", "WebSecurityGroup", "SecurityGroupIngress.0.FromPort", 80.0},
		{"hand-written/web-tier.yaml", "WebSecurityGroup", "SecurityGroupIngress.1.CidrIp", "198.51.100.0/24"},
		{"hand-written/web-tier.yaml", "InstanceRole", "AssumeRolePolicyDocument.Statement.0.Principal.Service", "ec2.amazonaws.com"},
		{"hand-written/web-tier.yaml", "LaunchTemplate", "LaunchTemplateData.InstanceType", "t3.micro"},
		{"cross-stack/CrossStackConsumer.template.json", "OrdersWorkerD6D68535", "Environment.Variables.ARTIFACTS_BUCKET", "output-PublishOutputRefArtifactsBucket2AAC5544ACEB052B"},
	}
	for _, tc := range tests {
		t.Run(tc.file+"/"+tc.resource+"/"+tc.path, func(t *testing.T) {
			tpl := readTemplate(t, tc.file)
			c := fakeContext(tpl, "web")
			res, ok := New(tpl, c).Resource(tc.resource)
			if !ok {
				t.Fatalf("resource %s missing", tc.resource)
			}
			var got any = res.Properties
			for _, seg := range strings.Split(tc.path, ".") {
				got, _ = lookup(map[string]any{"v": got}, "v."+seg)
			}
			if got != tc.want {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
		})
	}
}

func readTemplate(t *testing.T, rel string) *cfn.Template {
	t.Helper()
	tpl, err := cfn.Parse(cfntest.Read(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return tpl
}

// TestCrossStackExportsFeedConsumer resolves the producer's outputs into
// exports and stack outputs, then resolves the consumer with them.
func TestCrossStackExportsFeedConsumer(t *testing.T) {
	producer := readTemplate(t, "cross-stack/CrossStackProducer.template.json")
	consumer := readTemplate(t, "cross-stack/CrossStackConsumer.template.json")
	if !UsesImportValue(consumer) || UsesImportValue(producer) {
		t.Fatalf("UsesImportValue: consumer %v, producer %v", UsesImportValue(consumer), UsesImportValue(producer))
	}
	pr := New(producer, fakeContext(producer, "CrossStackProducer"))
	exports := map[string]string{}
	outputs := map[string]string{}
	for _, o := range pr.Outputs() {
		v, ok := o.Value.(string)
		if !ok {
			t.Fatalf("producer output %s: %#v", o.Name, o.Value)
		}
		outputs[o.Name] = v
		if name, ok := o.ExportName.(string); ok {
			exports[name] = v
		}
	}
	c := fakeContext(consumer, "CrossStackConsumer")
	c.Exports = exports
	c.StackOutputs = func(ref StackOutputRef) (string, bool) {
		if ref.StackName != "CrossStackProducer" || ref.Region != "us-east-1" {
			return "", false
		}
		v, ok := outputs[ref.OutputName]
		return v, ok
	}
	refs := StackOutputRefs(consumer)
	if len(refs) != 1 || refs[0].OutputName != "PublishOutputRefArtifactsBucket2AAC5544ACEB052B" {
		t.Errorf("StackOutputRefs: %+v", refs)
	}
	worker, ok := New(consumer, c).Resource("OrdersWorkerD6D68535")
	if !ok {
		t.Fatal("OrdersWorker missing")
	}
	vars := worker.Properties["Environment"].(map[string]any)["Variables"].(map[string]any)
	want := map[string]any{
		"TOPIC_ARN":        "phys-OrderEventsTopic9AB57471",
		"EVENTS_KEY_ARN":   "live-EventsKeyB314AFD5-Arn",
		"ARTIFACTS_BUCKET": "phys-ArtifactsBucket2AAC5544",
		"PRIMARY_CIDR":     "10.0.0.0/16",
		"SECONDARY_CIDR":   "10.1.0.0/16",
	}
	for k, w := range want {
		if got := vars[k]; got != w {
			t.Errorf("%s: got %#v, want %#v", k, got, w)
		}
	}
}

// TestUserDataBase64 checks Fn::Base64 over Fn::Join and Fn::Sub pieces,
// including the ${!Literal} escape, in the Step Functions fixture.
func TestUserDataBase64(t *testing.T) {
	tpl := readTemplate(t, "stepfunctions-events/StepFunctionsEventsStack.template.json")
	r := New(tpl, fakeContext(tpl, "StepFunctionsEventsStack"))
	tests := []struct {
		resource string
		userData func(map[string]any) any
		want     string
	}{
		{"OpsInstance1A17DCD0", func(p map[string]any) any { return p["UserData"] },
			"#!/bin/bash\ndnf install -y jq awscli\n" +
				"echo \"stack=StepFunctionsEventsStack region=us-east-1 topic=phys-OrderNotifications4FA71BF4\" > /etc/orders.env\n" +
				"aws stepfunctions describe-state-machine --state-machine-arn phys-OrderWorkflow0015CDD9 --region us-east-1\n" +
				"echo \"home is ${HOME}, instance in 111111111111\""},
		{"OpsLaunchTemplate4193EA77", func(p map[string]any) any { return p["LaunchTemplateData"].(map[string]any)["UserData"] },
			"#!/bin/bash\necho \"launched by StepFunctionsEventsStack in us-east-1\"\n" +
				"echo \"workflow live-OrderWorkflow0015CDD9-Name\"\necho \"literal ${NOT_A_REFERENCE}\""},
	}
	for _, tc := range tests {
		t.Run(tc.resource, func(t *testing.T) {
			res, ok := r.Resource(tc.resource)
			if !ok {
				t.Fatal("missing")
			}
			enc, ok := tc.userData(res.Properties).(string)
			if !ok {
				t.Fatalf("UserData: %#v", tc.userData(res.Properties))
			}
			dec, err := base64.StdEncoding.DecodeString(enc)
			if err != nil {
				t.Fatal(err)
			}
			if string(dec) != tc.want {
				t.Errorf("got  %q\nwant %q", dec, tc.want)
			}
		})
	}
}
