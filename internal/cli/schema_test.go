package cli

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/schema"
)

func TestSchemaShow(t *testing.T) {
	out, errs, code := runArgs(t, "schema", "show", "AWS::IAM::Role")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var got schema.Facts
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not Facts JSON: %v\n%s", err, out)
	}
	want := schema.Facts{
		ReadOnly:                  []string{"Arn", "RoleId"},
		WriteOnly:                 []string{},
		CreateOnly:                []string{"Path", "RoleName"},
		ReadOnlyPaths:             []string{"Arn", "RoleId"},
		WriteOnlyPaths:            []string{},
		CreateOnlyPaths:           []string{"Path", "RoleName"},
		Defaults:                  map[string]any{"Path": "/"},
		DefaultPaths:              map[string]any{"Path": "/"},
		UnorderedScalarPaths:      []string{"ManagedPolicyArns"},
		UnorderedObjectArrayPaths: []string{"Policies"},
		PrimaryIdentifier:         []string{"RoleName"},
		Taggable:                  true,
		TagProperty:               "Tags",
		Handlers:                  []string{"create", "read", "update", "delete", "list"},
	}
	// The handlers' permissions are shown too (the read handler's here).
	if diff := cmp.Diff(got.HandlerPermissions["read"], []string{"iam:GetRole", "iam:GetRolePolicy", "iam:ListAttachedRolePolicies", "iam:ListRolePolicies"}); diff != "" {
		t.Errorf("read handler permissions (-got +want):\n%s", diff)
	}
	got.HandlerPermissions = nil
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("facts (-got +want):\n%s", diff)
	}
	if !strings.Contains(out, "\n  \"readOnly\"") {
		t.Errorf("output is not indented JSON:\n%s", out)
	}
}

func TestSchemaErrors(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"unknown type", []string{"schema", "show", "AWS::No::Such"}, `unknown resource type "AWS::No::Such"`},
		{"wrong case suggests", []string{"schema", "show", "aws::s3::bucket"}, "did you mean AWS::S3::Bucket?"},
		{"no type", []string{"schema", "show"}, "want exactly one resource type"},
		{"two types", []string{"schema", "show", "AWS::S3::Bucket", "AWS::IAM::Role"}, "want exactly one resource type"},
		{"no sub-command", []string{"schema"}, "missing sub-command"},
		{"unknown sub-command", []string{"schema", "list"}, `unknown sub-command "list"`},
		{"unknown show flag", []string{"schema", "show", "--bogus", "AWS::S3::Bucket"}, "bogus"},
		{"unknown stats flag", []string{"schema", "stats", "--bogus"}, "bogus"},
		{"stats argument", []string{"schema", "stats", "extra"}, "unexpected arguments"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := runArgs(t, c.args...)
			if code != ExitError {
				t.Errorf("exit %d, want %d", code, ExitError)
			}
			if !strings.Contains(errs, c.wantErr) {
				t.Errorf("stderr %q, want it to mention %q", errs, c.wantErr)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing on an error", out)
			}
		})
	}
}

func TestSchemaHelp(t *testing.T) {
	for _, args := range [][]string{
		{"schema", "--help"},
		{"schema", "show", "--help"},
		{"schema", "stats", "-h"},
	} {
		out, _, code := runArgs(t, args...)
		if code != ExitOK || !strings.Contains(out, "Usage: realdrift schema") {
			t.Errorf("%v: exit %d, stdout %q", args, code, out)
		}
	}
}

func TestSchemaStats(t *testing.T) {
	out, errs, code := runArgs(t, "schema", "stats", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var st schemaStats
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if st.Report != "schemaStats" || st.SchemaVersion != 1 {
		t.Errorf("header = %+v, want a schemaStats report (runVerb validates it)", st.Header)
	}
	if st.Types < 1400 {
		t.Errorf("types = %d, want at least 1400", st.Types)
	}
	if st.Source.Version != "0.1.71" || !strings.HasPrefix(st.Source.Integrity, "sha512-") {
		t.Errorf("source = %+v", st.Source)
	}
	if st.Readable == 0 || st.Readable > st.Types || st.Updatable > st.Types || st.Provisionable > st.Types {
		t.Errorf("implausible handler counts: %+v", st)
	}
	if st.Readable+st.NoHandlers > st.Types {
		t.Errorf("readable %d + no handlers %d exceed types %d", st.Readable, st.NoHandlers, st.Types)
	}

	text, _, code := runArgs(t, "schema", "stats")
	if code != ExitOK {
		t.Fatalf("text stats: exit %d", code)
	}
	for _, want := range []string{"types", "1522", "@propulsionworks/cfn-resource-schemas@0.1.71", "readable (Cloud Control read)", "updatable", "provisionable"} {
		if !strings.Contains(text, want) {
			t.Errorf("text stats lack %q:\n%s", want, text)
		}
	}
}

// registryServer answers CloudFormation DescribeType (query protocol) with
// docs, and TypeNotFoundException for any other type.
func registryServer(t *testing.T, docs map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil || r.Form.Get("Action") != "DescribeType" {
			http.Error(w, "unexpected call", http.StatusBadRequest)
			return
		}
		name := r.Form.Get("TypeName")
		doc, ok := docs[name]
		w.Header().Set("Content-Type", "text/xml")
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprintf(w, `<ErrorResponse><Error><Type>Sender</Type><Code>TypeNotFoundException</Code><Message>The type '%s' cannot be found.</Message></Error><RequestId>r</RequestId></ErrorResponse>`, name)
			return
		}
		var esc strings.Builder
		xml.EscapeText(&esc, []byte(doc))
		fmt.Fprintf(w, `<DescribeTypeResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeTypeResult><Type>RESOURCE</Type><TypeName>%s</TypeName><Schema>%s</Schema></DescribeTypeResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></DescribeTypeResponse>`, name, esc.String())
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestSchemaShowLive(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "secret")
	t.Setenv("AWS_CONFIG_FILE", "/dev/null")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null")
	srv := registryServer(t, map[string]string{
		"AWS::IAM::Role": `{"typeName":"AWS::IAM::Role","properties":{"Path":{"type":"string","default":"/svc/"}},"handlers":{"read":{}}}`,
	})

	out, errs, code := runArgs(t, "schema", "show", "--live", "--region", "us-east-1", "--endpoint-url", srv.URL, "AWS::IAM::Role")
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var got schema.Facts
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got.Defaults, map[string]any{"Path": "/svc/"}); diff != "" {
		t.Errorf("the account's schema did not win (-got +want):\n%s", diff)
	}
	if errs != "" {
		t.Errorf("stderr %q, want nothing", errs)
	}

	// A type the account's registry lacks falls back to the snapshot, and
	// says so.
	out, errs, code = runArgs(t, "schema", "show", "--live", "--region", "us-east-1", "--endpoint-url", srv.URL, "AWS::S3::Bucket")
	if code != ExitOK || !strings.Contains(out, `"BucketName"`) {
		t.Fatalf("fallback: exit %d, stdout %q", code, out)
	}
	if !strings.Contains(errs, "showing the snapshot") || !strings.Contains(errs, "TypeNotFoundException") {
		t.Errorf("fallback stderr %q", errs)
	}

	// A type neither knows is an error that names both sources.
	_, errs, code = runArgs(t, "schema", "show", "--live", "--region", "us-east-1", "--endpoint-url", srv.URL, "AWS::No::Such")
	if code != ExitError || !strings.Contains(errs, "DescribeType failed") {
		t.Errorf("unknown: exit %d, stderr %q", code, errs)
	}

	// Live flags need --live; --live needs a region.
	if _, errs, code := runArgs(t, "schema", "show", "--region", "us-east-1", "AWS::S3::Bucket"); code != ExitError || !strings.Contains(errs, "need --live") {
		t.Errorf("--region without --live: exit %d, stderr %q", code, errs)
	}
	t.Setenv("AWS_REGION", "")
	if _, errs, code := runArgs(t, "schema", "show", "--live", "AWS::S3::Bucket"); code != ExitError || !strings.Contains(errs, "no region") {
		t.Errorf("--live without a region: exit %d, stderr %q", code, errs)
	}
}
