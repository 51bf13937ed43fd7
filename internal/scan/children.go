package scan

import (
	"context"
	"errors"

	"github.com/realdrift/realdrift/internal/live"
)

// Children is the outcome of enumerating one parent's live children.
type Children struct {
	Parent string `json:"parent"`
	// Added are the children the stack does not declare and no other
	// stack owns, each with its full live model when it could be read.
	Added []live.Child `json:"added,omitempty"`
	// Reason is set when the enumeration failed: the parent is then
	// reported skipped with it.
	Reason string `json:"reason,omitempty"`
}

// HasChildren reports whether r is a parent whose children are enumerated.
func HasChildren(r Resource) bool {
	return r.PhysicalID != "" && live.HasEnumerator(r.Type)
}

// EnumerateChildren lists the added children of one declared parent (pass
// 1.6). It never fails: an enumeration error becomes Children.Reason.
func EnumerateChildren(ctx context.Context, c *Clients, parent Resource, d *Desired) Children {
	stack := make([]live.StackResource, len(d.Resources))
	for i, r := range d.Resources {
		stack[i] = live.StackResource{LogicalID: r.LogicalID, Type: r.Type, PhysicalID: r.PhysicalID, Declared: r.Declared}
	}
	p := live.StackResource{LogicalID: parent.LogicalID, Type: parent.Type, PhysicalID: parent.PhysicalID, Declared: parent.Declared}
	added, err := live.Enumerate(ctx, c.Live, p, stack)
	if err != nil {
		reason := err.Error()
		var ee *live.EnumerateError
		if errors.As(err, &ee) {
			reason = ee.Reason
		}
		return Children{Parent: parent.LogicalID, Reason: reason}
	}
	return Children{Parent: parent.LogicalID, Added: added}
}
