package normalize

import "strings"

// StripPaths removes every dotted schema path (with "*" for any array item
// or any map key) from the model in place. It is how the pipeline removes
// readOnly and writeOnly properties: they are never drift.
func StripPaths(model map[string]any, paths []string) {
	for _, p := range paths {
		if p == "" || Absent(model, p) {
			continue
		}
		stripPath(model, strings.Split(p, "."))
	}
}

// Absent reports whether a dotted path certainly leads nowhere in m: its
// first segment is a plain key m does not hold. The path steps use it to
// skip, without splitting the path, the many schema paths a model lacks.
func Absent(m map[string]any, p string) bool {
	head, _, _ := strings.Cut(p, ".")
	if head == "*" {
		return len(m) == 0
	}
	_, ok := m[head]
	return !ok
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
	"RevisionId",
}

// StripManaged removes Cloud-Control-managed bookkeeping fields (timestamps,
// revision markers) from a live model at any depth, except inside the
// free-form user maps (dotted schema paths, "*" for array items) and except
// a top-level field the template declares.
func StripManaged(model map[string]any, declared map[string]any, freeForm []string) {
	skip := make(map[string]bool, len(freeForm))
	for _, p := range freeForm {
		skip[p] = true
	}
	stripManaged(model, "", skip, declared)
}

func stripManaged(v any, path string, skip map[string]bool, declared map[string]any) {
	if skip[path] {
		return
	}
	switch t := v.(type) {
	case map[string]any:
		for _, k := range managedKeys {
			if _, ok := t[k]; !ok {
				continue
			}
			if path == "" {
				if _, set := declared[k]; set {
					continue
				}
			}
			delete(t, k)
		}
		for k, e := range t {
			sub := k
			if path != "" {
				sub = path + "." + k
			}
			stripManaged(e, sub, skip, declared)
		}
	case []any:
		sub := "*"
		if path != "" {
			sub = path + ".*"
		}
		for _, e := range t {
			stripManaged(e, sub, skip, declared)
		}
	}
}
