package live

import "sort"

// Coverage lists, per extension kind, the resource types the registration
// tables cover: what scripts/coverage.sh prints against the anchor's lists.
type Coverage struct {
	// Overrides are types read through their service API instead of
	// Cloud Control.
	Overrides []string
	// Supplements are types Cloud Control reads, completed by a service
	// call for the properties its model lacks.
	Supplements []string
	// Adapters are types whose Cloud Control identifier is built from the
	// physical id and declared properties.
	Adapters []string
	// Enumerated are parent types whose out-of-band children are listed.
	Enumerated []string
	// Writers are types (or properties of types, "Type.Prop") written
	// through the service's own API; Deleters the child types deleted so.
	Writers  []string
	Deleters []string
}

// Tables returns the coverage of the registration tables, each list sorted.
func Tables() Coverage {
	var c Coverage
	c.Overrides = sortedNames(overrides())
	c.Supplements = sortedNames(supplements())
	c.Adapters = sortedNames(identifierAdapters())
	c.Enumerated = sortedNames(enumerators())
	c.Writers = sortedNames(writers())
	for typ, props := range propWriters() {
		for p := range props {
			c.Writers = append(c.Writers, typ+"."+p)
		}
	}
	sort.Strings(c.Writers)
	c.Deleters = sortedNames(deleters())
	return c
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
