package cli

import (
	"encoding/json"
	"testing"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/corpus/corpustest"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
)

const (
	testAccount = "111111111111"
	testKey     = "AKIATESTAPP000000001"
	testRegion  = "us-east-1"
)

// appResource is one resource of the test app stack: its template entry
// and its live model.
type appResource struct {
	logicalID, typ, physicalID string
	declared                   map[string]any
	live                       map[string]any
	// cdkPath is the construct path below the stack (default: the
	// logical id).
	cdkPath string
}

// devCorpusWorld is the sandbox world built from the dev corpus
// (corpustest.Dir: REALDRIFT_CORPUS_DIR overrides it).
func devCorpusWorld(t *testing.T) *sandbox.World {
	t.Helper()
	cases, err := corpus.LoadDirs(corpustest.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	w, err := worldgen.FromCorpus(cases)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func queueURL(name string) string {
	return "https://sqs." + testRegion + ".amazonaws.com/" + testAccount + "/" + name
}

// queue is an SQS queue declaring VisibilityTimeout, live with one
// undeclared non-default value.
func queue(logicalID, name string, declared map[string]any, extra map[string]any) appResource {
	live := map[string]any{
		"QueueName": name, "Arn": "arn:aws:sqs:" + testRegion + ":" + testAccount + ":" + name,
		"QueueUrl": queueURL(name), "MessageRetentionPeriod": 345600, "DelaySeconds": 0,
		"MaximumMessageSize": 262144, "ReceiveMessageWaitTimeSeconds": 0, "SqsManagedSseEnabled": true,
	}
	for k, v := range declared {
		live[k] = v
	}
	for k, v := range extra {
		live[k] = v
	}
	return appResource{logicalID: logicalID, typ: "AWS::SQS::Queue", physicalID: queueURL(name), declared: declared, live: live}
}

// function is a Lambda function with a declared code location and a live
// CodeSha256.
func function(logicalID, name, key, sha string) appResource {
	declared := map[string]any{
		"Code":    map[string]any{"S3Bucket": "assets-bucket", "S3Key": key},
		"Handler": "index.handler", "Runtime": "nodejs20.x", "MemorySize": 128,
		"Role": "arn:aws:iam::" + testAccount + ":role/App-FnRole",
	}
	live := map[string]any{
		"FunctionName": name, "Handler": "index.handler", "Runtime": "nodejs20.x", "MemorySize": 128,
		"Role": "arn:aws:iam::" + testAccount + ":role/App-FnRole", "Timeout": 3,
		"Arn":        "arn:aws:lambda:" + testRegion + ":" + testAccount + ":function:" + name,
		"CodeSha256": sha, "PackageType": "Zip", "Architectures": []any{"x86_64"},
	}
	return appResource{logicalID: logicalID, typ: "AWS::Lambda::Function", physicalID: name, declared: declared, live: live}
}

// appWorld is a world with one account, one region and one stack "App"
// holding rs (plus any extra stacks).
func appWorld(t *testing.T, stacks map[string][]appResource) *sandbox.World {
	t.Helper()
	region := &sandbox.Region{Name: testRegion}
	for _, name := range sortedKeys(stacks) {
		region.Stacks = append(region.Stacks, appStackOf(t, name, stacks[name]))
	}
	return &sandbox.World{
		DefaultAccount: testAccount,
		Accounts: []*sandbox.Account{{
			ID: testAccount, Name: "app",
			AccessKeys: []sandbox.AccessKey{{ID: testKey, UserName: "dev"}},
			Regions:    []*sandbox.Region{region},
		}},
		CCGaps: []string{"AWS::IAM::Policy", "AWS::Lambda::Permission", "AWS::S3::BucketPolicy", "AWS::SNS::TopicPolicy", "AWS::SQS::QueuePolicy"},
	}
}

func appStackOf(t *testing.T, name string, rs []appResource) *sandbox.Stack {
	t.Helper()
	resources := map[string]any{}
	st := &sandbox.Stack{Name: name}
	for _, r := range rs {
		p := r.cdkPath
		if p == "" {
			p = r.logicalID
		}
		entry := map[string]any{
			"Type":     r.typ,
			"Metadata": map[string]any{"aws:cdk:path": name + "/" + p + "/Resource"},
		}
		if r.declared != nil {
			entry["Properties"] = r.declared
		}
		resources[r.logicalID] = entry
		live, err := json.Marshal(r.live)
		if err != nil {
			t.Fatal(err)
		}
		st.Resources = append(st.Resources, &sandbox.Resource{LogicalID: r.logicalID, Type: r.typ, PhysicalID: r.physicalID, Properties: live})
	}
	body, err := json.Marshal(map[string]any{"Resources": resources})
	if err != nil {
		t.Fatal(err)
	}
	st.TemplateBody = string(body)
	return st
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// deploy replaces the stack's template and resources, as a CloudFormation
// deploy would, keeping every other stack and live-only resource.
func (e *sandboxEnv) deploy(name string, rs []appResource) {
	e.t.Helper()
	snap, err := e.srv.Snapshot()
	if err != nil {
		e.t.Fatal(err)
	}
	w, err := sandbox.ParseWorld(snap)
	if err != nil {
		e.t.Fatal(err)
	}
	found := false
	for _, a := range w.Accounts {
		for _, r := range a.Regions {
			for i, s := range r.Stacks {
				if s.Name == name {
					ns := appStackOf(e.t, name, rs)
					ns.ID = s.ID
					r.Stacks[i] = ns
					found = true
				}
			}
		}
	}
	if !found {
		e.t.Fatalf("deploy: no stack %s", name)
	}
	data, err := w.Marshal()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.srv.Restore(data); err != nil {
		e.t.Fatal(err)
	}
}
