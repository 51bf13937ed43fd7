package cli

import (
	"context"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/who"
)

// attributeDrift sets ChangedBy on the run's drifted findings (check
// --who, revert's plan): who last wrote each drifted resource since the
// stack's last update, from CloudTrail, one lookup per resource (the
// finder caches), paced to LookupEvents' quota. A lookup that fails is
// said on the finding; the verdict never changes.
func (sess *session) attributeDrift(ctx context.Context, finder *who.Finder, r *stackRun) {
	if r.err != nil || r.result == nil || r.result.Desired == nil {
		return
	}
	var c *drift.ChangedBy
	clients, err := sess.clientsFor(ctx, r.ref.Region)
	if err != nil {
		c = &drift.ChangedBy{Unknown: "CloudTrail lookup failed: " + err.Error()}
	}
	for i := range r.findings {
		f := &r.findings[i]
		if !confirmedDrift(*f) {
			continue
		}
		if c != nil {
			cb := *c
			f.ChangedBy = &cb
			continue
		}
		cb := finder.Lookup(ctx, clients.CloudTrail, who.Target{
			Account: r.ref.Account, Region: r.ref.Region, Name: f.PhysicalID, Since: r.result.Desired.LastUpdated,
		})
		if ctx.Err() != nil {
			return
		}
		f.ChangedBy = &cb
	}
}

// confirmedDrift is a finding check counts as drift (not potential drift:
// an unrecorded live-only value is no known change to attribute).
func confirmedDrift(f drift.Finding) bool {
	return f.Tier.IsDrift() && !(f.Unrecorded && (f.Tier == drift.Undeclared || f.Tier == drift.Added))
}
