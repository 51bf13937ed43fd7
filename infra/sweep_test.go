package main

import (
	"slices"
	"strings"
	"testing"
)

// TestSweepPacingAndPaging: the sweep and check-stack are traced; every
// reader gets the read rate parameter; the paced readers run at 256 MB;
// discover writes the stack lists into the targets bucket (private,
// encrypted, expiring) and the sweep's role reads them and writes the
// Distributed Map's results there, under runs/ only.
func TestSweepPacingAndPaging(t *testing.T) {
	for _, name := range []string{SweepStateMachineName, CheckStackStateMachineName} {
		for _, r := range resourcesOf(central, "AWS::StepFunctions::StateMachine") {
			if r.props["StateMachineName"] != name {
				continue
			}
			if tc, _ := r.props["TracingConfiguration"].(map[string]any); tc["Enabled"] != true {
				t.Errorf("%s: TracingConfiguration %v, want X-Ray tracing on", name, r.props["TracingConfiguration"])
			}
		}
	}
	bucket := resourceByPrefix(t, central, "AWS::S3::Bucket", "SweepTargets")
	if js(bucket.props["PublicAccessBlockConfiguration"]) != `{"BlockPublicAcls":true,"BlockPublicPolicy":true,"IgnorePublicAcls":true,"RestrictPublicBuckets":true}` {
		t.Errorf("targets bucket public access block %s", js(bucket.props["PublicAccessBlockConfiguration"]))
	}
	if !strings.Contains(js(bucket.props["LifecycleConfiguration"]), `"ExpirationInDays":7`) || !strings.Contains(js(bucket.props["BucketEncryption"]), "AES256") {
		t.Errorf("targets bucket lifecycle %s, encryption %s: want objects expired after 7 days, encrypted", js(bucket.props["LifecycleConfiguration"]), js(bucket.props["BucketEncryption"]))
	}
	readers := map[string]bool{}
	for _, f := range functions() {
		readers["Fn"+pascal(f.Name)] = f.Reader
	}
	for _, r := range resourcesOf(central, "AWS::Lambda::Function") {
		id := strings.TrimRight(r.id, "0123456789ABCDEF")
		vars, _ := r.props["Environment"].(map[string]any)["Variables"].(map[string]any)
		if readers[id] && js(vars["REALDRIFT_READ_RATE"]) != `{"Ref":"`+ReadRateParameter+`"}` {
			t.Errorf("%s: REALDRIFT_READ_RATE = %s, want the %s parameter", id, js(vars["REALDRIFT_READ_RATE"]), ReadRateParameter)
		}
		switch id {
		case "FnReadResources", "FnEnumerateChildren":
			if r.props["MemorySize"] != 256.0 {
				t.Errorf("%s: MemorySize %v, want 256 (it mostly waits for its schedule)", id, r.props["MemorySize"])
			}
		case "FnDiscover":
			if js(vars["REALDRIFT_TARGETS_BUCKET"]) != `{"Ref":"`+bucket.id+`"}` {
				t.Errorf("discover REALDRIFT_TARGETS_BUCKET = %s, want the targets bucket", js(vars["REALDRIFT_TARGETS_BUCKET"]))
			}
		}
	}
	names := roleNames(central)
	var s3Grants []string
	for _, st := range statements(t, central) {
		for _, a := range st.actions {
			if !strings.HasPrefix(a, "s3:") {
				continue
			}
			for _, res := range st.resources {
				if !strings.Contains(res, `"Fn::GetAtt":["`+bucket.id+`","Arn"]`) || !strings.HasSuffix(res, `"/runs/*"]]}`) {
					t.Errorf("%s %s on %s: want only the targets bucket's runs/*", st.where, a, res)
				}
			}
			who := names[st.role]
			if who == "" {
				who = "sweep"
			}
			s3Grants = append(s3Grants, who+" "+a)
		}
	}
	slices.Sort(s3Grants)
	want := []string{"realdrift-discover s3:GetObject", "realdrift-discover s3:PutObject", "sweep s3:AbortMultipartUpload", "sweep s3:GetObject", "sweep s3:ListMultipartUploadParts", "sweep s3:PutObject"}
	if !slices.Equal(s3Grants, want) {
		t.Errorf("S3 grants %v, want %v", s3Grants, want)
	}
}
