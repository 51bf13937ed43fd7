package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/securityhub"
	shtypes "github.com/aws/aws-sdk-go-v2/service/securityhub/types"

	"github.com/realdrift/realdrift/internal/report"
)

// SecurityHubActions are the IAM actions the Security Hub sender needs in
// each member account (infra grants them to the read role when Security
// Hub is enabled).
var SecurityHubActions = []string{"securityhub:BatchImportFindings", "securityhub:GetFindings"}

// SecurityHubAPI is what the Security Hub sender calls
// (*securityhub.Client satisfies it).
type SecurityHubAPI interface {
	BatchImportFindings(ctx context.Context, in *securityhub.BatchImportFindingsInput, optFns ...func(*securityhub.Options)) (*securityhub.BatchImportFindingsOutput, error)
	GetFindings(ctx context.Context, in *securityhub.GetFindingsInput, optFns ...func(*securityhub.Options)) (*securityhub.GetFindingsOutput, error)
}

var _ SecurityHubAPI = (*securityhub.Client)(nil)

// SecurityHub imports a stack's confirmed drift into Security Hub in the
// stack's own account and region, as a custom integration's findings (the
// account's default product): one finding per drift-set finding, with the
// Id, title and severity the ASFF report gives it (report.ASFFFindings), so
// a re-import updates it. Findings of the stack that Security Hub still
// holds ACTIVE but that are no longer in the drift set (the drift was
// reverted, recorded or ignored) are re-imported ARCHIVED; a Resolved
// alert archives them all. Potential drift is never imported.
//
// Client gives the Security Hub client of an account and region (the
// member account's read role in the service; BatchImportFindings must be
// called by the account the findings are in).
type SecurityHub struct {
	Client func(account, region string) SecurityHubAPI
	// Now stamps UpdatedAt on archived findings; nil: the summary's time.
	Now func() time.Time
}

// importBatch is BatchImportFindings' limit per request.
const importBatch = 100

// Send implements Sender.
func (h *SecurityHub) Send(ctx context.Context, s Summary) error {
	c := h.Client(s.Stack.Account, s.Stack.Region)
	if c == nil {
		return fmt.Errorf("security hub: no client for %s/%s", s.Stack.Account, s.Stack.Region)
	}
	at := s.At
	if h.Now != nil {
		at = h.Now()
	}
	current, err := toASFF(report.ASFFFindings([]report.Stack{{Ref: s.Stack, Findings: s.Set}}, at, false))
	if err != nil {
		return err
	}
	keep := map[string]bool{}
	for _, f := range current {
		keep[aws.ToString(f.Id)] = true
	}
	active, err := h.activeFindings(ctx, c, s)
	if err != nil {
		return err
	}
	ts := at.UTC().Format(time.RFC3339)
	for _, f := range active {
		if keep[aws.ToString(f.Id)] {
			continue
		}
		f.RecordState = shtypes.RecordStateArchived
		f.UpdatedAt = aws.String(ts)
		current = append(current, f)
	}
	for i := 0; i < len(current); i += importBatch {
		batch := current[i:min(i+importBatch, len(current))]
		out, err := c.BatchImportFindings(ctx, &securityhub.BatchImportFindingsInput{Findings: batch})
		if err != nil {
			return fmt.Errorf("security hub: import findings of %s: %w", s.Stack, err)
		}
		if n := aws.ToInt32(out.FailedCount); n > 0 {
			first := out.FailedFindings[0]
			return fmt.Errorf("security hub: %d findings of %s not imported (first %s: %s %s)", n, s.Stack, aws.ToString(first.Id), aws.ToString(first.ErrorCode), aws.ToString(first.ErrorMessage))
		}
	}
	return nil
}

// activeFindings lists the stack's findings Security Hub holds ACTIVE
// (by the ASFF report's ProductFields), every page.
func (h *SecurityHub) activeFindings(ctx context.Context, c SecurityHubAPI, s Summary) ([]shtypes.AwsSecurityFinding, error) {
	product := fmt.Sprintf("arn:aws:securityhub:%s:%s:product/%s/default", s.Stack.Region, s.Stack.Account, s.Stack.Account)
	eq := func(v string) []shtypes.StringFilter {
		return []shtypes.StringFilter{{Value: aws.String(v), Comparison: shtypes.StringFilterComparisonEquals}}
	}
	in := &securityhub.GetFindingsInput{
		Filters: &shtypes.AwsSecurityFindingFilters{
			ProductArn:  eq(product),
			RecordState: eq(string(shtypes.RecordStateActive)),
			// One filter per field: Security Hub ORs the filters of a field.
			// The product already names the account and region.
			ProductFields: []shtypes.MapFilter{
				{Key: aws.String("realdrift/stack"), Value: aws.String(s.Stack.Name), Comparison: shtypes.MapFilterComparisonEquals},
			},
		},
		MaxResults: aws.Int32(100),
	}
	var out []shtypes.AwsSecurityFinding
	p := securityhub.NewGetFindingsPaginator(c, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("security hub: list findings of %s: %w", s.Stack, err)
		}
		out = append(out, page.Findings...)
	}
	return out, nil
}

// toASFF converts the ASFF report's JSON-shaped findings to the SDK's
// type (its fields are the ASFF names).
func toASFF(fs []map[string]any) ([]shtypes.AwsSecurityFinding, error) {
	b, err := json.Marshal(fs)
	if err != nil {
		return nil, fmt.Errorf("security hub: %w", err)
	}
	var out []shtypes.AwsSecurityFinding
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("security hub: %w", err)
	}
	return out, nil
}
