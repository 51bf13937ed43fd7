package cli

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/logging"

	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/scan"
)

// TestUnreachableEndpointFailsFast: an endpoint nothing listens on fails
// at once (no 20 s of retries) naming the URL and the flag to fix.
func TestUnreachableEndpointFailsFast(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	l.Close()
	e := &sandboxEnv{t: t, url: url, key: testKey, region: testRegion, stateDir: t.TempDir()}
	start := time.Now()
	_, stderr, code := e.run("check", "--all")
	// Stretched on a busy machine, never to the 20 s the retries would take.
	if took := time.Since(start); took > min(deadlinetest.Scale(t, 3*time.Second), 15*time.Second) {
		t.Errorf("check took %s against a closed port, want a fast failure", took)
	}
	if code != ExitError || !strings.Contains(stderr, "cannot reach the endpoint "+url) || !strings.Contains(stderr, "--endpoint-url") {
		t.Errorf("exit %d, stderr %q; want 2 naming %s and --endpoint-url", code, stderr, url)
	}
}

// TestNoCredentialsSaysWhatToSet: no keys and no profile name the
// variables and the profile flag, not the SDK's IMDS error.
func TestNoCredentialsSaysWhatToSet(t *testing.T) {
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"} {
		t.Setenv(k, "")
	}
	dir := t.TempDir()
	t.Setenv("AWS_CONFIG_FILE", dir+"/none")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", dir+"/none")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	w := appWorld(t, map[string][]appResource{"App": {queue("Q", "q", nil, nil)}})
	e := startSandbox(t, w, "", testRegion)
	_, stderr, code := e.run("check", "--all")
	if code != ExitError || !strings.Contains(stderr, "AWS_ACCESS_KEY_ID") || !strings.Contains(stderr, "--profile") || strings.Contains(stderr, "IMDS") {
		t.Errorf("exit %d, stderr %q; want 2 naming AWS_ACCESS_KEY_ID and --profile, no IMDS", code, stderr)
	}
}

// TestExplainAccessDenied: AccessDenied names the action and the role.
func TestExplainAccessDenied(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want []string
	}{
		{"iam message", &smithy.OperationError{ServiceID: "CloudFormation", OperationName: "DescribeStacks", Err: &smithy.GenericAPIError{Code: "AccessDenied",
			Message: "User: arn:aws:sts::111111111111:assumed-role/ReadOnly/alice is not authorized to perform: cloudformation:DescribeStacks on resource: arn:aws:cloudformation:us-east-1:111111111111:stack/App/* because no identity-based policy allows the cloudformation:DescribeStacks action"}},
			[]string{"arn:aws:sts::111111111111:assumed-role/ReadOnly/alice", "cloudformation:DescribeStacks", "stack/App/*", "policy"}},
		{"bare code", &smithy.OperationError{ServiceID: "CloudControl", OperationName: "GetResource", Err: &smithy.GenericAPIError{Code: "AccessDeniedException", Message: "Access denied"}},
			[]string{"cloudformation:GetResource", "the caller"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := explain(tc.err)
			for _, w := range tc.want {
				if !strings.Contains(got.Error(), w) {
					t.Errorf("explain: %q lacks %q", got, w)
				}
			}
			var api smithy.APIError
			if !errors.As(got, &api) {
				t.Error("explain lost the API error")
			}
		})
	}
	plain := errors.New("other")
	if got := explain(plain); got != plain {
		t.Errorf("explain(other) = %v", got)
	}
}

// TestSDKConfigQuiet: the SDK never logs to the user's stderr ("failed to
// discard remaining HTTP response body", the IMDSv1 fallback warning).
func TestSDKConfigQuiet(t *testing.T) {
	cfg, err := sdkConfig(context.Background(), scan.Settings{Region: testRegion, AccessKeyID: "a", SecretAccessKey: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cfg.Logger.(logging.Nop); !ok {
		t.Errorf("cfg.Logger = %T, want logging.Nop", cfg.Logger)
	}
	if cfg.ClientLogMode != 0 {
		t.Errorf("ClientLogMode = %v, want 0", cfg.ClientLogMode)
	}
}
