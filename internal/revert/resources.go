package revert

import (
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/scan"
)

// Resources is a desired model's resources as the planner and the writers
// take them, each with its Cloud Control identifier (empty when the type's
// identifier cannot be built from the model) and, when lives holds its
// read (found), its live model: the planner writes an attachment list
// from it (members.go).
func Resources(d *scan.Desired, lives map[string]live.Result) []Resource {
	out := make([]Resource, 0, len(d.Resources))
	for _, r := range d.Resources {
		id, err := live.CloudControlID(live.Request{Type: r.Type, LogicalID: r.LogicalID, PhysicalID: r.PhysicalID, Declared: r.Declared})
		if err != nil {
			id = ""
		}
		var model map[string]any
		if l, ok := lives[r.LogicalID]; ok && l.Status == live.Found {
			model = l.Model
		}
		out = append(out, Resource{LogicalID: r.LogicalID, Type: r.Type, PhysicalID: r.PhysicalID, Identifier: id, Declared: r.Declared, Live: model})
	}
	return out
}
