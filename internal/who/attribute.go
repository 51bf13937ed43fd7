package who

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/region"
)

// What a window starts at, as the answer that finds nothing says it.
const (
	SinceUpdate = "the stack was last updated"
	SinceRecord = "the baseline was recorded"
)

// WindowStart is where a stack's lookups start: the earlier of the
// stack's last update and its baseline's record time (zero when it has
// none), and what that time is. A baseline's record is where undeclared
// drift starts, and a deploy where declared drift starts: the earlier of
// the two covers both, and the most recent write in it is the answer
// either way.
func WindowStart(lastUpdated, recorded time.Time) (time.Time, string) {
	if !recorded.IsZero() && (lastUpdated.IsZero() || recorded.Before(lastUpdated)) {
		return recorded, SinceRecord
	}
	return lastUpdated, SinceUpdate
}

// Drifted reports whether a finding is one to attribute: drift check
// counts as confirmed (not potential drift: an unrecorded live-only value
// is no known change).
func Drifted(f drift.Finding) bool {
	return f.Tier.IsDrift() && !(f.Unrecorded && (f.Tier == drift.Undeclared || f.Tier == drift.Added))
}

// Home is the region CloudTrail records writes to a resource type in, for
// a stack in stackRegion: a global service's one region (IAM, CloudFront,
// Route 53, Organizations, …: us-east-1 in the aws partition, from AWS's
// endpoint data, region.Home), else the stack's. The service is the
// type's second segment ("AWS::IAM::Role": iam), as the endpoint data
// names it.
func Home(resourceType, stackRegion string) string {
	parts := strings.Split(resourceType, "::")
	if len(parts) != 3 {
		return stackRegion
	}
	return region.Home(strings.ToLower(parts[1]), stackRegion)
}

// Stack is one stack's drift to attribute.
type Stack struct {
	Account, Region string
	// Since and SinceWhat are the window's start (WindowStart).
	Since     time.Time
	SinceWhat string
	// API returns the LookupEvents client of a region of the account (the
	// stack's, or a global type's Home), or an error saying why there is
	// none (said on the findings).
	API func(ctx context.Context, region string) (LookupAPI, error)
	// Known, when set, returns a writer already known for a physical id
	// (the service's stored trigger events), used without a call when it
	// is not older than Since.
	Known func(ctx context.Context, physicalID string) (drift.ChangedBy, bool)
}

// Attribute sets ChangedBy on every drifted finding (Drifted) of
// findings: the answer st.Known holds (a writer not older than the
// window's start, or a settled unknown it vouches for), else one lookup
// per resource (Lookup, cached), in the region CloudTrail records its
// type's writes in (Home). It returns the settled answers it looked up
// (Settled), by physical id, for a caller that keeps them. Once ctx ends
// (a time budget, an interrupt) the findings left say they were not
// looked up.
func (f *Finder) Attribute(ctx context.Context, findings []drift.Finding, st Stack) map[string]drift.ChangedBy {
	found := map[string]drift.ChangedBy{}
	apis := map[string]LookupAPI{}
	failed := map[string]string{}
	for i := range findings {
		fd := &findings[i]
		if !Drifted(*fd) {
			continue
		}
		if st.Known != nil && fd.PhysicalID != "" {
			if c, ok := st.Known(ctx, fd.PhysicalID); ok && (!c.Known() || !c.Time.Before(st.Since)) {
				fd.ChangedBy = &c
				continue
			}
		}
		if ctx.Err() != nil {
			fd.ChangedBy = &drift.ChangedBy{Unknown: notLookedUp(ctx)}
			continue
		}
		home := Home(fd.ResourceType, st.Region)
		api, ok := apis[home]
		if !ok && failed[home] == "" {
			var err error
			if api, err = st.API(ctx, home); err != nil {
				failed[home] = failedPrefix + err.Error()
			} else {
				apis[home] = api
			}
		}
		if why := failed[home]; why != "" {
			fd.ChangedBy = &drift.ChangedBy{Unknown: why}
			continue
		}
		c := f.Lookup(ctx, api, Target{Account: st.Account, Region: home, Name: fd.PhysicalID, Since: st.Since, SinceWhat: st.SinceWhat})
		if ctx.Err() != nil && !c.Known() {
			c = drift.ChangedBy{Unknown: notLookedUp(ctx)}
		}
		fd.ChangedBy = &c
		if Settled(c) {
			found[fd.PhysicalID] = c
		}
	}
	return found
}

// Settled reports whether an answer holds as long as the drift it was
// looked up for does: an event names the writer, or none was found (not a
// lookup that failed or was not made).
func Settled(c drift.ChangedBy) bool {
	return c.Known() || c.Unknown != "" && !strings.HasPrefix(c.Unknown, failedPrefix) && !strings.HasPrefix(c.Unknown, notLookedUpPrefix)
}

// The prefixes of the answers that are not settled.
const (
	failedPrefix      = "CloudTrail lookup failed: "
	notLookedUpPrefix = "not looked up: "
)

// notLookedUp says why a lookup was not made: ctx ended.
func notLookedUp(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return notLookedUpPrefix + "the time for CloudTrail lookups ran out (a later check continues)"
	}
	return notLookedUpPrefix + "interrupted"
}
