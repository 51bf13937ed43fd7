package revert

import (
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/scan"
)

// Resources is a desired model's resources as the planner and the writers
// take them, each with its Cloud Control identifier (empty when the type's
// identifier cannot be built from the model).
func Resources(d *scan.Desired) []Resource {
	out := make([]Resource, 0, len(d.Resources))
	for _, r := range d.Resources {
		id, err := live.CloudControlID(live.Request{Type: r.Type, LogicalID: r.LogicalID, PhysicalID: r.PhysicalID, Declared: r.Declared})
		if err != nil {
			id = ""
		}
		out = append(out, Resource{LogicalID: r.LogicalID, Type: r.Type, PhysicalID: r.PhysicalID, Identifier: id, Declared: r.Declared})
	}
	return out
}
