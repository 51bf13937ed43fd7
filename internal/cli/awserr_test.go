package cli

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/logging"

	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/sandbox"
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

// TestUnknownKeySaysWhatToCheck: keys the sandbox's world does not know
// are refused as AWS refuses them (InvalidClientTokenId), and check says
// which variables to check with exit 2, never acting as some account.
func TestUnknownKeySaysWhatToCheck(t *testing.T) {
	e := startSandbox(t, appWorld(t, map[string][]appResource{"App": {queue("Q", "q", nil, nil)}}), "AKIANOBODY0000000001", testRegion)
	_, stderr, code := e.run("check", "--all")
	for _, want := range []string{"AWS does not know the access key", "InvalidClientTokenId", "AWS_ACCESS_KEY_ID", "sandbox serve"} {
		if code != ExitError || !strings.Contains(stderr, want) {
			t.Errorf("exit %d, stderr %q; want 2 saying %q", code, stderr, want)
		}
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
			[]string{"role ReadOnly (arn:aws:sts::111111111111:assumed-role/ReadOnly/alice)", "cloudformation:DescribeStacks", "stack/App/*", "grant it in the role's policy", "iam-policy"}},
		{"explicit deny", &smithy.OperationError{ServiceID: "CloudFormation", OperationName: "GetTemplate", Err: &smithy.GenericAPIError{Code: "AccessDenied",
			Message: "User: arn:aws:iam::111111111111:user/dev is not authorized to perform: cloudformation:GetTemplate on resource: arn:aws:cloudformation:us-east-1:111111111111:stack/App/* with an explicit deny in a service control policy"}},
			[]string{"user dev (arn:aws:iam::111111111111:user/dev)", "cloudformation:GetTemplate", "explicit Deny in a service control policy", "no Allow overrides"}},
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

// TestDeniedHintNamesPrincipalAndDeny: a check (or a record) whose reads
// are denied says once on stderr which user was refused which action and what to
// do: grant it (iam-policy, the README's Permissions), or, refused by an
// explicit Deny, change that Deny.
func TestDeniedHintNamesPrincipalAndDeny(t *testing.T) {
	for _, tc := range []struct {
		name   string
		policy string
		want   []string
	}{
		{"missing allow", `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","NotAction":"cloudformation:GetResource","Resource":"*"}]}`,
			[]string{"user dev (arn:aws:iam::" + testAccount + ":user/dev) is not allowed cloudformation:GetResource", "grant it in the user's policy", "realdrift iam-policy", "Permissions"}},
		{"explicit deny", `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"},{"Effect":"Deny","Action":"cloudformation:GetResource","Resource":"*"}]}`,
			[]string{"user dev", "cloudformation:GetResource", "explicit Deny", "no Allow overrides"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := appWorld(t, map[string][]appResource{"App": {queue("Q", "q", map[string]any{"VisibilityTimeout": 30}, nil)}})
			w.Accounts[0].Policies = []*sandbox.Policies{{User: "dev", Documents: []json.RawMessage{json.RawMessage(tc.policy)}, Complete: true}}
			e := startSandbox(t, w, testKey, testRegion)
			// record says it as check does: one line, the same words.
			for _, verb := range [][]string{{"check", "--all"}, {"record", "--all", "--yes"}} {
				_, stderr, _ := e.run(verb[0], verb[1:]...)
				if strings.Count(stderr, "access denied: ") != 1 {
					t.Fatalf("%s: want one access-denied note on stderr:\n%s", verb[0], stderr)
				}
				for _, want := range tc.want {
					if !strings.Contains(stderr, want) {
						t.Errorf("%s: stderr lacks %q:\n%s", verb[0], want, stderr)
					}
				}
			}
		})
	}
}

func TestPrincipalOf(t *testing.T) {
	for arn, want := range map[string]string{
		"arn:aws:iam::111111111111:user/ops/dev":                "user dev (arn:aws:iam::111111111111:user/ops/dev)",
		"arn:aws:iam::111111111111:role/ReadOnly":               "role ReadOnly (arn:aws:iam::111111111111:role/ReadOnly)",
		"arn:aws:sts::111111111111:assumed-role/ReadOnly/alice": "role ReadOnly (arn:aws:sts::111111111111:assumed-role/ReadOnly/alice)",
		"arn:aws:iam::111111111111:root":                        "account root 111111111111 (arn:aws:iam::111111111111:root)",
		"":                                                      "the caller",
	} {
		if got := principalOf(arn).String(); got != want {
			t.Errorf("principalOf(%q) = %q, want %q", arn, got, want)
		}
	}
}
