package cli

import (
	"context"

	"github.com/realdrift/realdrift/internal/who"
)

// attributeDrift sets ChangedBy on the run's drifted findings (check
// --who, revert's plan): who last wrote each drifted resource since the
// window's start (the earlier of the stack's last update and its
// baseline's record, who.WindowStart), from CloudTrail, one lookup per
// resource (the finder caches) in the region CloudTrail records its
// type's writes in (us-east-1 for IAM's), paced to LookupEvents' quota. A
// lookup that fails is said on the finding; the verdict never changes.
func (sess *session) attributeDrift(ctx context.Context, finder *who.Finder, r *stackRun) {
	if r.err != nil || r.result == nil || r.result.Desired == nil {
		return
	}
	since, what := who.WindowStart(r.result.Desired.LastUpdated, r.base.RecordedAt())
	finder.Attribute(ctx, r.findings, who.Stack{
		Account: r.ref.Account, Region: r.ref.Region, Since: since, SinceWhat: what,
		API: func(ctx context.Context, region string) (who.LookupAPI, error) {
			clients, err := sess.clientsFor(ctx, region)
			if err != nil {
				return nil, err
			}
			return clients.CloudTrail, nil
		},
	})
}
