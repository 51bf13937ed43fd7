package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/service"
	"github.com/realdrift/realdrift/internal/store"
)

const approveSynopsis = `EXECUTION (--url FUNCTION_URL | --store dynamodb://TABLE[?region=REGION]) [--reject [--reason TEXT]]

Approves (or, with --reject, rejects) a revert the service's revert state
machine is waiting on. EXECUTION is the execution's name or ARN, as the
approval message names it. Approved, the execution re-reads each resource
before writing it (an item whose live value changed since the plan is
refused), writes the rest and records the outcome in an audit item;
rejected, it writes nothing. The first decision wins.

--url (the command the approval message gives when the service has an
approval URL) sends the decision to the approve-link function's URL, a
Lambda function URL with AuthType AWS_IAM, as a SigV4-signed request made
with your credentials: IAM decides whether you may approve (the central
stack's approver policy grants lambda:InvokeFunctionUrl on it), and the
approver recorded is the principal Lambda verified, never what the
client says. --store answers the execution directly (Step Functions
SendTaskSuccess, or SendTaskFailure with RevertRejected, with the task
token the execution stored in the table; you need states:SendTaskSuccess
and read access to the table) and names you by STS GetCallerIdentity.

Credentials and region come from the usual AWS chain; ?region= in the store
URL wins over AWS_REGION, and a function URL's own region is its signing
region. AWS_ENDPOINT_URL_SFN, AWS_ENDPOINT_URL_STS and
AWS_ENDPOINT_URL_DYNAMODB send those calls elsewhere (local emulators).
Exit status: 0 the decision was sent, 2 it was not (no such approval,
already decided, timed out, refused by IAM, or an error).`

func runApprove(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "approve", approveSynopsis)
	urlFlag := fs.String("url", "", "the approve-link function's URL: an IAM-signed decision (the approval message gives it)")
	storeFlag := fs.String("store", "", "the service's table: dynamodb://TABLE[?region=REGION]")
	reject := fs.Bool("reject", false, "reject the revert: nothing is written")
	reason := fs.String("reason", "", "a reason, recorded in the audit item")
	endpoint := fs.String("endpoint-url", "", "send DynamoDB calls to this endpoint (DynamoDB Local)")
	profile := fs.String("profile", "", "shared-config profile")
	if done, code := parse(s, fs, args); done {
		return code
	}
	if fs.NArg() != 1 {
		return fail(s, "approve", errors.New("want one EXECUTION (its name or ARN)"))
	}
	execution := fs.Arg(0)
	switch {
	case *urlFlag != "" && *storeFlag != "":
		return fail(s, "approve", errors.New("--url and --store exclude each other"))
	case *urlFlag != "":
		return approveURL(ctx, s, *urlFlag, *profile, service.LinkRequest{Execution: execution, Decision: map[bool]string{true: "reject", false: "approve"}[*reject], Reason: *reason})
	}
	su, err := tableURL(*storeFlag)
	if err != nil {
		return fail(s, "approve", err)
	}
	if su, err = tableIn(s, su); err != nil {
		return fail(s, "approve", err)
	}
	cfg, err := scan.Config(ctx, scan.Settings{
		Region: su.Region, Profile: *profile,
		AccessKeyID: s.Getenv("AWS_ACCESS_KEY_ID"), SecretAccessKey: s.Getenv("AWS_SECRET_ACCESS_KEY"),
	})
	if err != nil {
		return fail(s, "approve", err)
	}
	db := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		baseEndpoint(&o.BaseEndpoint, *endpoint, s.Getenv("AWS_ENDPOINT_URL_DYNAMODB"))
	})
	tasks := sfn.NewFromConfig(cfg, func(o *sfn.Options) { baseEndpoint(&o.BaseEndpoint, s.Getenv("AWS_ENDPOINT_URL_SFN")) })
	who := sts.NewFromConfig(cfg, func(o *sts.Options) { baseEndpoint(&o.BaseEndpoint, s.Getenv("AWS_ENDPOINT_URL_STS")) })
	id, err := who.GetCallerIdentity(ctx, &sts.GetCallerIdentityInput{})
	if err != nil {
		return fail(s, "approve", fmt.Errorf("who is approving (sts:GetCallerIdentity): %w", err))
	}
	d := service.Decision{Approve: !*reject, Approver: aws.ToString(id.Arn), Via: service.ViaCLI, Reason: *reason}
	p, err := service.Decide(ctx, store.NewDynamo(db, su.Table), tasks, execution, d, time.Now())
	if err != nil {
		return fail(s, "approve", (&state{url: su}).explain(err))
	}
	if d.Approve {
		fmt.Fprintf(s.Stdout, "approved the revert of %s (%d items, execution %s) as %s: it writes now\n", p.Stack, p.Items, p.RunID, d.Approver)
	} else {
		fmt.Fprintf(s.Stdout, "rejected the revert of %s (execution %s) as %s: nothing is written\n", p.Stack, p.RunID, d.Approver)
	}
	return ExitOK
}

// baseEndpoint sets the first non-empty URL as a client's endpoint.
func baseEndpoint(dst **string, urls ...string) {
	if u := firstNonEmpty(urls...); u != "" {
		*dst = aws.String(u)
	}
}

// approveURL sends a decision to the approve-link function's URL, signed
// with SigV4 for the service lambda with the caller's credentials.
func approveURL(ctx context.Context, s IO, raw, profile string, lr service.LinkRequest) int {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fail(s, "approve", fmt.Errorf("--url %q: want the approve-link function's URL (https://ID.lambda-url.REGION.on.aws/)", raw))
	}
	region := firstNonEmpty(urlRegion(u.Hostname()), s.Getenv("AWS_REGION"), s.Getenv("AWS_DEFAULT_REGION"))
	cfg, err := scan.Config(ctx, scan.Settings{
		Region: region, Profile: profile,
		AccessKeyID: s.Getenv("AWS_ACCESS_KEY_ID"), SecretAccessKey: s.Getenv("AWS_SECRET_ACCESS_KEY"),
	})
	if err != nil {
		return fail(s, "approve", err)
	}
	creds, err := cfg.Credentials.Retrieve(ctx)
	if err != nil {
		return fail(s, "approve", fmt.Errorf("your AWS credentials: %w", err))
	}
	body, err := json.Marshal(lr)
	if err != nil {
		return fail(s, "approve", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return fail(s, "approve", err)
	}
	req.Header.Set("Content-Type", "application/json")
	sum := sha256.Sum256(body)
	hash := hex.EncodeToString(sum[:])
	req.Header.Set("X-Amz-Content-Sha256", hash)
	if err := v4.NewSigner().SignHTTP(ctx, creds, req, hash, "lambda", cfg.Region, time.Now()); err != nil {
		return fail(s, "approve", fmt.Errorf("sign the decision: %w", err))
	}
	res, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		return fail(s, "approve", fmt.Errorf("send the decision: %w", err))
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	var out service.LinkResponse
	_ = json.Unmarshal(b, &out)
	switch {
	case res.StatusCode == http.StatusForbidden && out.Error == "":
		return fail(s, "approve", fmt.Errorf("refused (HTTP 403): the URL takes only requests signed by a principal IAM allows lambda:InvokeFunctionUrl on it (the central stack's approver policy)"))
	case res.StatusCode != http.StatusOK || out.Pending == nil:
		why := out.Error
		if why == "" {
			why = strings.TrimSpace(string(b))
		}
		return fail(s, "approve", fmt.Errorf("HTTP %d: %s", res.StatusCode, why))
	}
	p := out.Pending
	if lr.Decision == "approve" {
		fmt.Fprintf(s.Stdout, "approved the revert of %s (%d items, execution %s) as %s: it writes now\n", p.Stack, p.Items, p.RunID, out.Approver)
	} else {
		fmt.Fprintf(s.Stdout, "rejected the revert of %s (execution %s) as %s: nothing is written\n", p.Stack, p.RunID, out.Approver)
	}
	return ExitOK
}

// urlRegion is the region of a function URL's host
// (ID.lambda-url.REGION.on.aws), or "".
func urlRegion(host string) string {
	parts := strings.Split(host, ".")
	if len(parts) >= 5 && parts[1] == "lambda-url" {
		return parts[2]
	}
	return ""
}
