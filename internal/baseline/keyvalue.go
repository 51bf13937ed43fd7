package baseline

import (
	"fmt"
	"strings"
)

// A key/value element ({Key, Value}: a tag) of a keyed array is reported
// by its value at A[key] (the classifier's path convention); baselines
// recorded before that convention hold the whole element there, and
// watched leaves hold its two leaves A[key].Key and A[key].Value. Both are
// read as the value (upgradeKeyValues), so an old baseline matches the
// same live tag, and the next record writes the current form. A value
// recorded at an ancestor (the whole tag list) is followed to A[key] the
// same way (descend).

// elementValue returns the Value of el when el is exactly {Key: key,
// Value: v}, and false for anything else (a third field keeps the element
// whole, as the classifier does).
func elementValue(el any, key string) (any, bool) {
	m, ok := el.(map[string]any)
	if !ok || len(m) != 2 {
		return nil, false
	}
	k, ok := m["Key"].(string)
	if !ok || k != key {
		return nil, false
	}
	v, ok := m["Value"]
	return v, ok
}

// lastKey returns the key of a path ending in [key], and false when the
// path does not end in a bracketed key.
func lastKey(path string) (string, bool) {
	if !strings.HasSuffix(path, "]") {
		return "", false
	}
	i := strings.LastIndexByte(path, '[')
	if i <= 0 {
		return "", false
	}
	return path[i+1 : len(path)-1], true
}

// upgradeKeyValues rewrites, in place, the recorded entries and watched
// leaves of b that hold a key/value element in the pre-convention form,
// and returns how many it rewrote.
func upgradeKeyValues(b *Baseline) int {
	n := 0
	for i, e := range b.Entries {
		k, ok := lastKey(e.Path)
		if !ok {
			continue
		}
		if v, ok := elementValue(e.Value, k); ok {
			b.Entries[i].Value = v
			n++
		}
	}
	// Watched leaves: P[k].Key == k and P[k].Value, and no other leaf
	// below P[k], become the one leaf P[k].
	type leaves struct {
		key, value int
		others     bool
	}
	below := map[string]*leaves{}
	owner := func(e Entry) (string, string) {
		i := strings.LastIndexByte(e.Path, '.')
		if i <= 0 {
			return "", ""
		}
		return e.LogicalID + "\x00" + e.Path[:i], e.Path[i+1:]
	}
	for i, e := range b.Watched {
		p, field := owner(e)
		if p == "" {
			continue
		}
		l := below[p]
		if l == nil {
			l = &leaves{key: -1, value: -1}
			below[p] = l
		}
		switch field {
		case "Key":
			l.key = i
		case "Value":
			l.value = i
		default:
			l.others = true
		}
	}
	drop := map[int]bool{}
	for p, l := range below {
		if l.key < 0 || l.value < 0 || l.others {
			continue
		}
		path := p[strings.IndexByte(p, 0)+1:]
		k, ok := lastKey(path)
		if !ok || b.Watched[l.key].Value != k {
			continue
		}
		b.Watched[l.value].Path = path
		drop[l.key] = true
		n++
	}
	if len(drop) > 0 {
		kept := b.Watched[:0]
		for i, e := range b.Watched {
			if !drop[i] {
				kept = append(kept, e)
			}
		}
		b.Watched = kept
	}
	return n
}

// keyValueWarning is the load note for a baseline that held old-form
// key/value elements.
func keyValueWarning(name string, n int) string {
	return fmt.Sprintf("baseline %s holds %d tag %s recorded as whole {Key, Value} elements; read as their values (the next record rewrites them)", name, n, plural(n, "value", "values"))
}
