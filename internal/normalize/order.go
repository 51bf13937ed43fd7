package normalize

import (
	"sort"
	"strings"
)

// SortIDArrays sorts, at any depth, every array whose elements are all AWS
// resource ids (subnet-…, sg-…), ARNs or HTTP methods: AWS returns those
// sets in its own order. A list holding a Lambda layer-version ARN keeps its
// order (later layers overlay earlier ones), as does any other scalar list.
func SortIDArrays(v any) {
	switch t := v.(type) {
	case map[string]any:
		for _, e := range t {
			SortIDArrays(e)
		}
	case []any:
		if isIDArray(t) {
			sort.SliceStable(t, func(i, j int) bool { return t[i].(string) < t[j].(string) })
			return
		}
		for _, e := range t {
			SortIDArrays(e)
		}
	}
}

// identityFields key object sets AWS returns in its own order.
var identityFields = []string{"Key", "Id", "AttributeName", "IndexName", "Name"}

// SortIdentityArrays sorts, at any depth, every object array whose elements
// all carry a distinct string identity field (Key, Id, AttributeName,
// IndexName, Name) by that field: tag lists, origins, key schemas, named
// settings. Order in such a set carries no meaning.
func SortIdentityArrays(v any) {
	switch t := v.(type) {
	case map[string]any:
		for _, e := range t {
			SortIdentityArrays(e)
		}
	case []any:
		for _, e := range t {
			SortIdentityArrays(e)
		}
		if f := IdentityField(t); f != "" {
			sort.SliceStable(t, func(i, j int) bool {
				return t[i].(map[string]any)[f].(string) < t[j].(map[string]any)[f].(string)
			})
		}
	}
}

// IdentityField returns the generic identity field of an object array, or
// "" when it has none.
func IdentityField(a []any) string {
	if len(a) < 2 {
		return ""
	}
	if _, ok := a[0].(map[string]any); !ok {
		return ""
	}
	for _, f := range identityFields {
		ok := true
		for i, e := range a {
			m, isMap := e.(map[string]any)
			if !isMap {
				return ""
			}
			s, isStr := m[f].(string)
			if !isStr {
				ok = false
				break
			}
			// Distinct values; arrays here are short.
			for _, prev := range a[:i] {
				if prev.(map[string]any)[f] == s {
					ok = false
					break
				}
			}
			if !ok {
				break
			}
		}
		if ok {
			return f
		}
	}
	return ""
}

func isIDArray(a []any) bool {
	if len(a) < 2 {
		return false
	}
	for _, e := range a {
		s, ok := e.(string)
		if !ok || !IsIDLike(s) || strings.Contains(s, ":layer:") {
			return false
		}
	}
	return true
}

var idPrefixes = []string{"subnet-", "sg-", "vpc-", "vol-", "eni-", "igw-", "nat-", "rtb-", "lt-", "ami-", "snap-", "i-", "acl-", "eipalloc-", "tgw-", "vpce-", "pl-", "fs-", "fsap-"}

var httpMethods = map[string]bool{"GET": true, "HEAD": true, "POST": true, "PUT": true, "PATCH": true, "DELETE": true, "OPTIONS": true}

// IsIDLike reports whether s is an AWS resource id, an ARN or an HTTP
// method.
func IsIDLike(s string) bool {
	if strings.HasPrefix(s, "arn:") || httpMethods[s] || IsAZName(s) {
		return true
	}
	for _, p := range idPrefixes {
		if strings.HasPrefix(s, p) && len(s) > len(p)+7 && isHex(s[len(p):]) {
			return true
		}
	}
	return false
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// SortUnordered sorts the arrays at the given schema paths ("*" for any
// array item): scalar arrays by their string form, object arrays by
// canonical JSON. The schema (insertionOrder: false) or a per-type fact says
// their order carries no meaning; the multiset is still compared.
func SortUnordered(model map[string]any, scalarPaths, objectPaths []string) {
	for _, paths := range [][]string{scalarPaths, objectPaths} {
		for _, p := range paths {
			if !Absent(model, p) {
				sortAt(model, strings.Split(p, "."))
			}
		}
	}
}

func sortAt(v any, segs []string) {
	if len(segs) == 0 {
		if a, ok := v.([]any); ok {
			sortByCanonical(a)
		}
		return
	}
	switch t := v.(type) {
	case map[string]any:
		if segs[0] == "*" {
			for _, e := range t {
				sortAt(e, segs[1:])
			}
			return
		}
		if e, ok := t[segs[0]]; ok {
			sortAt(e, segs[1:])
		}
	case []any:
		rest := segs
		if segs[0] == "*" {
			rest = segs[1:]
		}
		for _, e := range t {
			sortAt(e, rest)
		}
	}
}

func sortByCanonical(a []any) {
	keys := make([]string, len(a))
	for i, e := range a {
		if s, ok := ScalarString(e); ok {
			keys[i] = s
		} else {
			keys[i] = Canonical(e)
		}
	}
	idx := make([]int, len(a))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return keys[idx[i]] < keys[idx[j]] })
	tmp := make([]any, len(a))
	for i, k := range idx {
		tmp[i] = a[k]
	}
	copy(a, tmp)
}

// IsAZName reports whether s is an availability-zone name (us-east-1a).
func IsAZName(s string) bool {
	n := len(s)
	if n < 6 || s[n-1] < 'a' || s[n-1] > 'z' || s[n-2] < '0' || s[n-2] > '9' {
		return false
	}
	return strings.Count(s, "-") == 2 && strings.Trim(s[:2], "abcdefghijklmnopqrstuvwxyz") == ""
}
