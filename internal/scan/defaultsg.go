package scan

import (
	"context"
	"sync"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/live"
)

// defaultGroups caches the account-region's default security groups.
type defaultGroups struct {
	mu     sync.Mutex
	loaded bool
	values []string
}

// NeedsDefaultSecurityGroups reports whether some read resource of d has
// an undeclared top-level security-group list that could be the VPC's
// default group (classify.DefaultSecurityGroupCandidate): only then does a
// check ask the account for its default groups.
func NeedsDefaultSecurityGroups(d *Desired, lives map[string]live.Result) bool {
	for _, r := range d.Resources {
		res, ok := lives[r.LogicalID]
		if !ok || res.Status != live.Found {
			continue
		}
		for k, v := range res.Model {
			if _, declared := r.Declared[k]; !declared && classify.DefaultSecurityGroupCandidate(k, v) {
				return true
			}
		}
	}
	return false
}

// DefaultSecurityGroups returns the account-region's default security
// groups (EC2 DescribeSecurityGroups, group-name "default"), asked once
// per Clients and only when NeedsDefaultSecurityGroups; otherwise, or when
// the call fails (AccessDenied included), nil: the classifier then judges
// the one group by its shape, atDefault and watched by the baseline, as
// without the fact.
func (c *Clients) DefaultSecurityGroups(ctx context.Context, d *Desired, lives map[string]live.Result) []string {
	if c.Live == nil || c.Live.EC2 == nil || !NeedsDefaultSecurityGroups(d, lives) {
		return nil
	}
	c.defaultGroups.mu.Lock()
	defer c.defaultGroups.mu.Unlock()
	if c.defaultGroups.loaded {
		return c.defaultGroups.values
	}
	ids, err := c.Live.DefaultSecurityGroups(ctx)
	if err != nil {
		return nil // not cached: a later stack may try again
	}
	c.defaultGroups.loaded, c.defaultGroups.values = true, ids
	return ids
}

// AccountFacts asks, after a stack's reads, for the account facts the
// reads showed a need for: the region's default security groups, the
// managed KMS aliases when no declared value asked for them before the
// reads, the clusters of member instances that are outside the stack,
// and the nested templates' parameters a nested stack's stack
// resource echoes (NestedParameters). The CLI's Check and the service's
// classify step both call it.
func (c *Clients) AccountFacts(ctx context.Context, d *Desired, lives map[string]live.Result) {
	d.DefaultSecurityGroups = c.DefaultSecurityGroups(ctx, d, lives)
	if d.KMSAliasTargets == nil {
		d.KMSAliasTargets = c.KMSAliasTargets(ctx, d, lives)
	}
	if d.NestedParameters == nil {
		d.NestedParameters = c.NestedParameters(ctx, d, lives)
	}
	if d.OutsideClusters == nil {
		d.OutsideClusters = c.OutsideClusters(ctx, d)
	}
}
