package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/logging"

	"github.com/realdrift/realdrift/internal/drift"
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
// access key AWS does not know the variables to check, an unreachable
// endpoint its URL. Any other error is returned as it is.
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
		case "InvalidClientTokenId", "UnrecognizedClientException", "InvalidAccessKeyId":
			return &actionable{msg: fmt.Sprintf("AWS does not know the access key (%s: %s): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or the keys of the profile; for the sandbox, use a key 'realdrift sandbox serve' or 'realdrift sandbox world' prints", api.ErrorCode(), api.ErrorMessage()), err: err}
		}
	}
	var dns *net.DNSError
	var op *net.OpError
	if errors.As(err, &dns) || (errors.As(err, &op) && op.Op == "dial") {
		return &actionable{msg: fmt.Sprintf("cannot reach AWS: %s — check the network, a proxy (HTTPS_PROXY), --region and --endpoint-url / AWS_ENDPOINT_URL", dialReason(err)), err: err}
	}
	return err
}

// deniedText is the AccessDenied message: who (user or role), which
// action, on what, and what to do — grant the action, or, when an explicit
// Deny refused it, change that Deny (no Allow overrides it).
func deniedText(err error, api smithy.APIError) string {
	who, action, resource := "", "", ""
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
	p := principalOf(who)
	msg := fmt.Sprintf("access denied (%s): %s is not allowed %s", api.ErrorCode(), p, action)
	if resource != "" {
		msg += " on " + resource
	}
	return msg + " — " + deniedAdvice(p, api.ErrorMessage())
}

// principal is who AWS says it refused: its kind (user, role, …), name
// and ARN, all empty when the message did not say.
type principal struct{ kind, name, arn string }

// principalOf reads an IAM or STS ARN: iam's user/NAME and role/NAME,
// sts's assumed-role/ROLE/SESSION (a role), federated-user/NAME, root.
func principalOf(arn string) principal {
	p := principal{arn: arn}
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) < 6 {
		return p
	}
	res := parts[5]
	switch {
	case res == "root":
		p.kind, p.name = "account root", parts[4]
	case strings.HasPrefix(res, "assumed-role/"):
		segs := strings.Split(res, "/")
		p.kind, p.name = "role", segs[1]
	default:
		kind, rest, ok := strings.Cut(res, "/")
		if !ok {
			return p
		}
		segs := strings.Split(rest, "/")
		p.name = segs[len(segs)-1]
		switch kind {
		case "user":
			p.kind = "user"
		case "role":
			p.kind = "role"
		case "federated-user":
			p.kind = "federated user"
		default:
			p.kind = kind
		}
	}
	return p
}

func (p principal) String() string {
	switch {
	case p.arn == "":
		return "the caller"
	case p.kind == "":
		return p.arn
	}
	return fmt.Sprintf("%s %s (%s)", p.kind, p.name, p.arn)
}

// deniedAdvice says what to do about an AccessDenied message for p.
func deniedAdvice(p principal, message string) string {
	if i := strings.Index(strings.ToLower(message), "with an explicit deny"); i >= 0 {
		where := strings.TrimSuffix(strings.TrimSpace(message[i+len("with an explicit deny"):]), ".")
		if where != "" {
			where = " " + where
		}
		return "an explicit Deny" + where + " refuses it, and no Allow overrides a Deny: narrow that Deny, or use credentials it does not cover"
	}
	holder := "the caller's policy"
	switch p.kind {
	case "user":
		holder = "the user's policy (or a group of the user)"
	case "role":
		holder = "the role's policy"
	}
	return "grant it in " + holder + ": 'realdrift iam-policy' prints every action realdrift needs (README: Permissions)"
}

// deniedHint is the one stderr line that says, for every resource the
// runs could not read because AWS denied the call, which principal was
// refused which actions and what to do; "" when no read was denied.
func deniedHint(runs []*stackRun) string {
	type refusal struct {
		p       principal
		actions []string
		message string
	}
	var order []string
	by := map[string]*refusal{}
	n := 0
	for _, r := range runs {
		if r == nil {
			continue
		}
		for _, f := range r.raw {
			if f.Tier != drift.Skipped || !isDeniedReason(f.Reason) {
				continue
			}
			n++
			who, action := "", ""
			if m := deniedMessage.FindStringSubmatch(f.Reason); m != nil {
				who, action = m[1], m[2]
			}
			if action == "" {
				action = deniedCall(f.Reason)
			}
			ref := by[who]
			if ref == nil {
				ref = &refusal{p: principalOf(who), message: f.Reason}
				by[who] = ref
				order = append(order, who)
			}
			if action != "" && !slices.Contains(ref.actions, action) {
				ref.actions = append(ref.actions, action)
			}
		}
	}
	if n == 0 {
		return ""
	}
	var parts []string
	for _, who := range order {
		ref := by[who]
		slices.Sort(ref.actions)
		acts := "its calls"
		if len(ref.actions) > 0 {
			acts = strings.Join(ref.actions, ", ")
		}
		parts = append(parts, fmt.Sprintf("%s is not allowed %s — %s", ref.p, acts, deniedAdvice(ref.p, ref.message)))
	}
	what := "resources"
	if n == 1 {
		what = "resource"
	}
	return fmt.Sprintf("access denied: %d %s not read: %s", n, what, strings.Join(parts, "; "))
}

// isDeniedReason reports whether a skipped finding's reason is AWS
// refusing the call.
func isDeniedReason(reason string) bool {
	for _, c := range []string{"AccessDenied", "UnauthorizedOperation", "AuthorizationError", "is not authorized to perform"} {
		if strings.Contains(reason, c) {
			return true
		}
	}
	return false
}

// deniedCall is the IAM action of a skip reason "Service Operation: Code…"
// (live's describe), "" when it names none.
func deniedCall(reason string) string {
	head, _, ok := strings.Cut(reason, ":")
	if !ok {
		return ""
	}
	f := strings.Fields(head)
	if len(f) < 2 {
		return ""
	}
	return iamPrefix(strings.Join(f[:len(f)-1], "")) + ":" + f[len(f)-1]
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
