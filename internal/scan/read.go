package scan

import (
	"context"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/schema"
)

// FactsFunc returns the schema facts of a resource type, or false when none
// are known.
type FactsFunc func(typeName string) (*schema.Facts, bool)

// ReadResource reads one declared resource's live model (pass 1, and the
// pass-1.5 re-reads). It never fails: an unreadable resource is a Skipped
// result with the reason. facts may be nil.
func ReadResource(ctx context.Context, c *Clients, r Resource, facts FactsFunc) live.Result {
	req := live.Request{Type: r.Type, LogicalID: r.LogicalID, PhysicalID: r.PhysicalID, Declared: r.Declared}
	if facts != nil {
		if f, ok := facts(r.Type); ok {
			req.Facts = f
		}
	}
	return live.Read(ctx, c.Live, req)
}
