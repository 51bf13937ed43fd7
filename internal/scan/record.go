package scan

import (
	"fmt"

	"github.com/realdrift/realdrift/internal/baseline"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
)

// BaselineResources are d's declared resources as a baseline records and
// applies them: `record`, the service's accept and its classify step all
// use these.
func (d *Desired) BaselineResources() []baseline.Resource {
	out := make([]baseline.Resource, len(d.Resources))
	for i, r := range d.Resources {
		out[i] = baseline.Resource{LogicalID: r.LogicalID, Type: r.Type, ConstructPath: r.ConstructPath, PhysicalID: r.PhysicalID, Declared: r.Declared}
	}
	return out
}

// ScannedParents are the parents whose child enumeration completed: a
// baseline records their children's absence as well as their presence.
func (r *StackResult) ScannedParents() []baseline.Parent {
	types := map[string]string{}
	for _, res := range r.Desired.Resources {
		types[res.LogicalID] = res.Type
	}
	var out []baseline.Parent
	for _, ch := range r.Children {
		if ch.Reason == "" {
			out = append(out, baseline.Parent{LogicalID: ch.Parent, ResourceType: types[ch.Parent]})
		}
	}
	return out
}

// NotRead lists what a check of stack could not read, one line each:
// skipped resources (a failed read or child listing) and added children
// whose full read failed — the coverage gaps a record keeps unchanged.
func NotRead(stack string, fs []drift.Finding) []string {
	out := []string{}
	for _, f := range fs {
		switch {
		case f.Tier == drift.Skipped:
			out = append(out, fmt.Sprintf("%s (%s): %s", ignore.DisplayPath(stack, f), f.ResourceType, f.Reason))
		case f.Tier == drift.Added && f.Actual == nil:
			out = append(out, fmt.Sprintf("%s (%s) %s: %s", ignore.DisplayPath(stack, f), f.ResourceType, f.PhysicalID, f.Note))
		}
	}
	return out
}
