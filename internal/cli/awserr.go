package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/logging"

	"github.com/realdrift/realdrift/internal/scan"
)

// sdkConfig loads the AWS config of st with the SDK's own logging off:
// realdrift reports every failure itself, once, and the SDK's warnings
// ("failed to discard remaining HTTP response body", the IMDSv1 fallback)
// are noise on a user's stderr.
func sdkConfig(ctx context.Context, st scan.Settings) (aws.Config, error) {
	st.Logger = logging.Nop{}
	cfg, err := scan.Config(ctx, st)
	if err != nil {
		var missing config.SharedConfigProfileNotExistError
		if errors.As(err, &missing) {
			return cfg, &actionable{msg: fmt.Sprintf("profile %q is not in the shared config files (~/.aws/config, ~/.aws/credentials, or AWS_CONFIG_FILE / AWS_SHARED_CREDENTIALS_FILE): check --profile / AWS_PROFILE ('aws configure list-profiles' lists them)", missing.Profile), err: err}
		}
		return cfg, err
	}
	cfg.Logger = logging.Nop{}
	cfg.ClientLogMode = 0
	return cfg, nil
}

// preflight fails fast, with what to do, on the two failures that would
// otherwise cost every call its retries and end in a raw SDK error: an
// endpoint (--endpoint-url) nothing listens on, and no credentials.
func preflight(ctx context.Context, st scan.Settings, cfg aws.Config, profile string) error {
	if st.EndpointURL != "" {
		if err := dialEndpoint(ctx, st.EndpointURL, st.ConnectTimeout); err != nil {
			return err
		}
	}
	if cfg.Credentials == nil {
		return noCredentials(profile, nil)
	}
	if _, err := cfg.Credentials.Retrieve(ctx); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return noCredentials(profile, err)
	}
	return nil
}

// dialEndpoint connects once to the endpoint's host and port.
func dialEndpoint(ctx context.Context, endpoint string, timeout time.Duration) error {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("endpoint %q is not an http(s) URL (--endpoint-url or AWS_ENDPOINT_URL)", endpoint)
	}
	host := u.Host
	if u.Port() == "" {
		port := "443"
		if u.Scheme == "http" {
			port = "80"
		}
		host = net.JoinHostPort(u.Hostname(), port)
	}
	if timeout <= 0 {
		timeout = scan.DefaultConnectTimeout
	}
	d := net.Dialer{Timeout: timeout}
	conn, err := d.DialContext(ctx, "tcp", host)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &actionable{msg: fmt.Sprintf("cannot reach the endpoint %s: %s — check --endpoint-url / AWS_ENDPOINT_URL; for the sandbox, is 'realdrift sandbox serve' running?", endpoint, dialReason(err)), err: err}
	}
	return conn.Close()
}

// dialReason is the last, human part of a dial error ("connection refused").
func dialReason(err error) string {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return oe.Err.Error()
	}
	return err.Error()
}

// noCredentials says which variables or profile to set.
func noCredentials(profile string, err error) error {
	var msg string
	if profile != "" {
		msg = fmt.Sprintf("no AWS credentials from profile %q: run 'aws sso login --profile %s' (an SSO profile) or 'aws configure --profile %s', or check its name in ~/.aws/config", profile, profile, profile)
	} else {
		msg = "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary keys), or name a profile with --profile or AWS_PROFILE (then 'aws sso login' or 'aws configure' for it); for the sandbox, export the keys the README gives"
	}
	return &actionable{msg: msg, err: err}
}

// actionable is an error whose message says what to do; it wraps the
// SDK's error for errors.Is / errors.As, but does not print it.
type actionable struct {
	msg string
	err error
}

func (e *actionable) Error() string { return e.msg }
func (e *actionable) Unwrap() error { return e.err }

// deniedMessage matches IAM's "User: ARN is not authorized to perform:
// ACTION [on resource: ARN]".
var deniedMessage = regexp.MustCompile(`User: (\S+) is not authorized to perform: (\S+?)(?: on resource: (\S+?))?(?: because|\.?$| with)`)

// explain turns an AWS error a person must act on into one that says
// what to do: AccessDenied names the missing action and the role, an
// unreachable endpoint its URL. Any other error is returned as it is.
func explain(err error) error {
	if err == nil {
		return nil
	}
	var act *actionable
	if errors.As(err, &act) {
		return err
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		switch api.ErrorCode() {
		case "AccessDenied", "AccessDeniedException", "UnauthorizedOperation", "AuthorizationError":
			return &actionable{msg: deniedText(err, api), err: err}
		}
	}
	var dns *net.DNSError
	var op *net.OpError
	if errors.As(err, &dns) || (errors.As(err, &op) && op.Op == "dial") {
		return &actionable{msg: fmt.Sprintf("cannot reach AWS: %s — check the network, a proxy (HTTPS_PROXY), --region and --endpoint-url / AWS_ENDPOINT_URL", dialReason(err)), err: err}
	}
	return err
}

// deniedText is the AccessDenied message: who, which action, on what.
func deniedText(err error, api smithy.APIError) string {
	who, action, resource := "the caller", "", ""
	if m := deniedMessage.FindStringSubmatch(api.ErrorMessage()); m != nil {
		who, action, resource = m[1], m[2], m[3]
	}
	if action == "" {
		var oe *smithy.OperationError
		if errors.As(err, &oe) {
			action = iamPrefix(oe.Service()) + ":" + oe.Operation()
		}
	}
	if action == "" {
		action = "an action (" + api.ErrorMessage() + ")"
	}
	msg := fmt.Sprintf("access denied (%s): %s is not allowed %s", api.ErrorCode(), who, action)
	if resource != "" {
		msg += " on " + resource
	}
	return msg + " — add it to that role's policy (the README's Permissions section lists what realdrift reads)"
}

// iamPrefix maps an SDK service id to its IAM action prefix.
func iamPrefix(service string) string {
	switch s := strings.ToLower(strings.ReplaceAll(service, " ", "")); s {
	case "cloudcontrol":
		return "cloudformation" // Cloud Control's actions are cloudformation:*
	case "eventbridge":
		return "events"
	case "cloudwatchlogs":
		return "logs"
	case "sfn":
		return "states"
	default:
		return s
	}
}
