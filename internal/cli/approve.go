package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/service"
	"github.com/realdrift/realdrift/internal/store"
)

const approveSynopsis = `EXECUTION --store dynamodb://TABLE[?region=REGION] [--reject [--reason TEXT]]

Approves (or, with --reject, rejects) a revert the service's revert state
machine is waiting on. EXECUTION is the execution's name or ARN, as the
approval message names it. The decision goes to the waiting execution
(Step Functions SendTaskSuccess, or SendTaskFailure with RevertRejected)
with the task token the execution stored in the table, and names you as
the approver: the identity of your credentials (STS GetCallerIdentity).
Approved, the execution writes its plan and records the outcome in an
audit item; rejected, it writes nothing. The first decision wins.

Credentials and region come from the usual AWS chain; ?region= in the store
URL wins over AWS_REGION. AWS_ENDPOINT_URL_SFN, AWS_ENDPOINT_URL_STS and
AWS_ENDPOINT_URL_DYNAMODB send those calls elsewhere (local emulators).
Exit status: 0 the decision was sent, 2 it was not (no such approval,
already decided, timed out, or an error).`

func runApprove(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "approve", approveSynopsis)
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
	su, err := tableURL(*storeFlag)
	if err != nil {
		return fail(s, "approve", err)
	}
	region := firstNonEmpty(su.Region, s.Getenv("AWS_REGION"), s.Getenv("AWS_DEFAULT_REGION"))
	cfg, err := scan.Config(ctx, scan.Settings{
		Region: region, Profile: *profile,
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
	d := service.Decision{Approve: !*reject, Approver: aws.ToString(id.Arn), Via: "cli", Reason: *reason}
	p, err := service.Decide(ctx, store.NewDynamo(db, su.Table), tasks, execution, d, time.Now())
	if err != nil {
		return fail(s, "approve", err)
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
