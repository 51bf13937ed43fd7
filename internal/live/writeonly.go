package live

import (
	"strings"

	"github.com/realdrift/realdrift/internal/schema"
)

// overrideWriteOnly lists, per type, the properties the registry schema
// marks write-only that the type's SDK override reads back all the same
// (the anchor's OVERRIDE_READABLE_WRITEONLY): a launch template's data is
// write-only to Cloud Control but DescribeLaunchTemplateVersions answers
// it.
var overrideWriteOnly = map[string][]string{
	"AWS::EC2::LaunchTemplate": {"LaunchTemplateData"},
}

// ReadableFacts corrects a type's schema facts for a read: a write-only
// property that the override reader, or the SDK supplement of a Cloud
// Control read, returned in res's model is compared like any other, so it
// is no longer write-only. A property the read did not return stays
// write-only (a readGap), as do its nested write-only paths
// ("OptionSettings.*.Value" goes with "OptionSettings"), and facts of every other read come back
// unchanged (the same pointer).
func ReadableFacts(typ string, res Result, f *schema.Facts) *schema.Facts {
	var props []string
	switch res.Route {
	case RouteOverride:
		props = overrideWriteOnly[typ]
	case RouteCloudControl:
		props = supplementWriteOnly(typ)
	}
	if f == nil || len(props) == 0 {
		return f
	}
	drop := map[string]bool{}
	for _, p := range props {
		if _, ok := res.Model[p]; ok {
			drop[p] = true
		}
	}
	if len(drop) == 0 {
		return f
	}
	c := f.Clone()
	keep := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			top, _, _ := strings.Cut(p, ".")
			if !drop[top] {
				out = append(out, p)
			}
		}
		return out
	}
	c.WriteOnly, c.WriteOnlyPaths = keep(c.WriteOnly), keep(c.WriteOnlyPaths)
	return c
}
