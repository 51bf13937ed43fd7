package normalize

import "strings"

// StripPaths removes every dotted schema path (with "*" for any array item
// or any map key) from the model in place. It is how the pipeline removes
// readOnly and writeOnly properties: they are never drift.
func StripPaths(model map[string]any, paths []string) {
	for _, p := range paths {
		if p == "" {
			continue
		}
		stripPath(model, strings.Split(p, "."))
	}
}

func stripPath(v any, segs []string) {
	switch t := v.(type) {
	case map[string]any:
		head := segs[0]
		if len(segs) == 1 {
			if head == "*" {
				clear(t)
				return
			}
			delete(t, head)
			return
		}
		if head == "*" {
			for _, e := range t {
				stripPath(e, segs[1:])
			}
			return
		}
		if e, ok := t[head]; ok {
			stripPath(e, segs[1:])
		}
	case []any:
		// An array is crossed by "*" (or transparently, when the schema
		// path names the item's property directly).
		rest := segs
		if segs[0] == "*" {
			rest = segs[1:]
			if len(rest) == 0 {
				return
			}
		}
		for _, e := range t {
			stripPath(e, rest)
		}
	}
}

// PathSet is a set of dotted schema paths ("*" for array items) that can be
// asked about a concrete path whose array indices and identity keys have
// been replaced by "*".
type PathSet map[string]bool

// NewPathSet builds a PathSet.
func NewPathSet(paths []string) PathSet {
	s := make(PathSet, len(paths))
	for _, p := range paths {
		s[p] = true
	}
	return s
}

// Has reports whether the schema path p (with "*" segments) is in the set.
func (s PathSet) Has(p string) bool { return s[p] }

// managedKeys are the bookkeeping fields Cloud Control returns on many types
// that no template can set: timestamps and revision counters.
var managedKeys = []string{
	"CreationTime", "CreationDate", "CreatedTime", "CreatedDate", "CreatedAt", "CreateTime",
	"LastModifiedTime", "LastModifiedDate", "LastUpdatedTime", "LastUpdateTime", "UpdatedAt",
}

// StripManaged removes Cloud-Control-managed bookkeeping fields (timestamps,
// revision markers) from the top level of a live model. User maps are
// never touched: the strip only looks at the model's own top level, which
// is never a free-form map.
func StripManaged(model map[string]any, declared map[string]any) {
	for _, k := range managedKeys {
		if _, set := declared[k]; set {
			continue
		}
		delete(model, k)
	}
}
