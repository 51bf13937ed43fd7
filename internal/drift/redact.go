package drift

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Secret-bearing values and the live values they stand for.
//
// A template holds a secret only as a reference (a secretsmanager or
// ssm-secure dynamic reference, a NoEcho parameter): the resolver turns it
// into a secret Unknown (or a Secret when the value was supplied). The live
// model, though, holds the plaintext at the same place: a Lambda
// environment variable, a database password a read returns. Withhold finds
// those places by walking the declared and live values together, and Scrub
// removes the plaintext it found wherever else it appears. Whatever is
// stored or logged goes through both first.

// minExact and minContained bound the learned plaintexts Scrub looks for:
// a string equal to one of at least minExact bytes, or containing one of at
// least minContained bytes, is redacted. Shorter ones are withheld only at
// their own place (a 3-byte "secret" would otherwise redact every "abc").
const (
	minExact     = 4
	minContained = 8
)

// IsSecret reports whether v itself is secret-bearing: a Secret, or a
// secret Unknown.
func IsSecret(v any) bool {
	switch t := v.(type) {
	case Secret:
		return true
	case Unknown:
		return t.Secret
	}
	return false
}

// ContainsSecret reports whether v holds a secret-bearing value at any
// depth.
func ContainsSecret(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for _, e := range t {
			if ContainsSecret(e) {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if ContainsSecret(e) {
				return true
			}
		}
	default:
		return IsSecret(v)
	}
	return false
}

// Withhold returns live with every value at a place where declared holds a
// secret-bearing value replaced by Redacted, and the plaintexts it found
// there (every string inside the withheld live values, and the values of
// declared Secrets), for Scrub. Places are matched as the classifier
// matches them: map keys exactly or up to case; list elements by the
// declared element's known scalar keys, else by position; a declared
// object or list holding a secret against a live value of another shape
// (a JSON string) withholds the whole live value. It fails closed: when it
// cannot tell which live value a secret stands for, it withholds every
// candidate. live is not modified; unchanged subtrees are shared.
func Withhold(declared, live map[string]any) (map[string]any, []string) {
	v, found := WithholdValue(declared, live)
	out, _ := v.(map[string]any)
	if out == nil && live != nil {
		out = map[string]any{}
	}
	return out, found
}

// WithholdValue is Withhold for one declared value and its live value.
func WithholdValue(declared, live any) (any, []string) {
	var found []string
	learn := func(v any) { found = appendStrings(found, v) }
	return withhold(declared, live, learn), found
}

func withhold(d, l any, learn func(any)) any {
	if s, ok := d.(Secret); ok {
		learn(s.Value)
	}
	if IsSecret(d) {
		return withheld(l, learn)
	}
	if !ContainsSecret(d) {
		return l
	}
	switch dv := d.(type) {
	case map[string]any:
		lv, ok := l.(map[string]any)
		if !ok {
			return withheld(l, learn)
		}
		out := make(map[string]any, len(lv))
		for k, e := range lv {
			out[k] = e
		}
		for k, e := range dv {
			if !ContainsSecret(e) {
				continue
			}
			for lk := range lv {
				if lk == k || strings.EqualFold(lk, k) {
					out[lk] = withhold(e, out[lk], learn)
				}
			}
		}
		return out
	case []any:
		lv, ok := l.([]any)
		if !ok {
			return withheld(l, learn)
		}
		out := make([]any, len(lv))
		copy(out, lv)
		for i, e := range dv {
			if !ContainsSecret(e) {
				continue
			}
			matched := false
			for j := range out {
				if resembles(e, lv[j], dv) {
					out[j] = withhold(e, out[j], learn)
					matched = true
				}
			}
			if !matched && i < len(out) {
				out[i] = withhold(e, out[i], learn)
			}
		}
		return out
	}
	return withheld(l, learn)
}

// withheld is what a live value at a secret place is stored as: Redacted,
// or absent when it is absent.
func withheld(l any, learn func(any)) any {
	if l == nil {
		return nil
	}
	learn(l)
	return Redacted
}

// resembles reports whether live element l may be the one the declared
// element d (which holds a secret) stands for: an object whose every known
// scalar key l has equal; a secret scalar matches any element no known
// declared scalar equals.
func resembles(d, l any, all []any) bool {
	if IsSecret(d) {
		ls, ok := scalarText(l)
		if !ok {
			return true
		}
		for _, e := range all {
			if es, ok := scalarText(e); ok && es == ls {
				return false
			}
		}
		return true
	}
	dm, ok := d.(map[string]any)
	if !ok {
		return false
	}
	lm, ok := l.(map[string]any)
	if !ok {
		return false
	}
	for k, e := range dm {
		es, ok := scalarText(e)
		if !ok {
			continue
		}
		ls, ok := scalarText(lm[k])
		if !ok || ls != es {
			return false
		}
	}
	return true
}

// scalarText renders a known scalar (string, number, bool) as text.
func scalarText(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case bool:
		return strconv.FormatBool(t), true
	case float64:
		return strconv.FormatFloat(t, 'g', -1, 64), true
	case json.Number:
		if f, err := t.Float64(); err == nil {
			return strconv.FormatFloat(f, 'g', -1, 64), true
		}
		return t.String(), true
	}
	return "", false
}

// appendStrings adds every string inside v worth scrubbing for.
func appendStrings(dst []string, v any) []string {
	switch t := v.(type) {
	case string:
		if len(t) >= minExact && t != Redacted && !strings.Contains(Redacted, t) {
			dst = append(dst, t)
		}
	case map[string]any:
		for _, e := range t {
			dst = appendStrings(dst, e)
		}
	case []any:
		for _, e := range t {
			dst = appendStrings(dst, e)
		}
	case Secret:
		dst = appendStrings(dst, t.Value)
	}
	return dst
}

// Scrub returns v with every string that equals one of secrets, or
// contains one of at least 8 bytes, replaced by Redacted, and how many it
// replaced. Map keys are scrubbed the same way. v is not modified;
// unchanged subtrees are shared.
func Scrub(v any, secrets []string) (any, int) {
	if len(secrets) == 0 {
		return v, 0
	}
	n := 0
	out, _ := scrub(v, secrets, &n)
	return out, n
}

// scrub returns v scrubbed and whether anything inside it changed.
func scrub(v any, secrets []string, n *int) (any, bool) {
	switch t := v.(type) {
	case string:
		if leaks(t, secrets) {
			*n++
			return Redacted, true
		}
	case map[string]any:
		var out map[string]any
		for k, e := range t {
			e2, changed := scrub(e, secrets, n)
			k2 := k
			if leaks(k, secrets) {
				*n++
				k2, changed = Redacted+" "+strconv.Itoa(*n), true
			}
			if !changed {
				continue
			}
			if out == nil {
				out = make(map[string]any, len(t))
				for kk, ee := range t {
					out[kk] = ee
				}
			}
			delete(out, k)
			out[k2] = e2
		}
		if out != nil {
			return out, true
		}
	case []any:
		var out []any
		for i, e := range t {
			e2, changed := scrub(e, secrets, n)
			if !changed {
				continue
			}
			if out == nil {
				out = make([]any, len(t))
				copy(out, t)
			}
			out[i] = e2
		}
		if out != nil {
			return out, true
		}
	}
	return v, false
}

// ScrubString is Scrub for free text (a reason, an error message): every
// occurrence of a secret it may contain is replaced by Redacted.
func ScrubString(s string, secrets []string) string {
	for _, sec := range secrets {
		if len(sec) >= minContained && strings.Contains(s, sec) {
			s = strings.ReplaceAll(s, sec, Redacted)
		} else if s == sec && len(sec) >= minExact {
			return Redacted
		}
	}
	return s
}

func leaks(s string, secrets []string) bool {
	for _, sec := range secrets {
		if s == sec || (len(sec) >= minContained && strings.Contains(s, sec)) {
			return true
		}
	}
	return false
}

// WithheldAsUnknown returns v with every Redacted string (a value Withhold
// or Scrub withheld from storage) replaced by a secret Unknown: read back,
// a withheld value is not known, and is never compared. v is modified in
// place (it is a freshly decoded value) and returned.
func WithheldAsUnknown(v any) any {
	switch t := v.(type) {
	case string:
		if t == Redacted {
			return Unknown{Reason: "withheld from storage", Secret: true}
		}
	case map[string]any:
		for k, e := range t {
			t[k] = WithheldAsUnknown(e)
		}
	case []any:
		for i, e := range t {
			t[i] = WithheldAsUnknown(e)
		}
	}
	return v
}

// ScrubFindings scrubs secrets from every value and text of fs in place:
// the actual, desired and whole-array values, the note and the reason.
func ScrubFindings(fs []Finding, secrets []string) {
	if len(secrets) == 0 {
		return
	}
	for i := range fs {
		f := &fs[i]
		f.Actual, _ = Scrub(f.Actual, secrets)
		f.Desired, _ = Scrub(f.Desired, secrets)
		if w := f.WholeArrayRevert; w != nil {
			v, _ := Scrub(w.Value, secrets)
			f.WholeArrayRevert = &WholeArrayRevert{Path: w.Path, Value: v}
		}
		f.Note = ScrubString(f.Note, secrets)
		f.Reason = ScrubString(f.Reason, secrets)
	}
}
