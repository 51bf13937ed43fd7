package classify

import (
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/normalize"
)

// same reports whether a declared value and its live value are the same
// value, through the equality folds of seed 002 §6. Every fold is
// equality-gated: it accepts two representations of one value only.
func (r *run) same(rp string, d, l any) bool {
	if drift.ContainsUnknown(d) {
		return false
	}
	if normalize.Equal(d, l) {
		return true
	}
	switch dv := d.(type) {
	case []any:
		lv, ok := l.([]any)
		if !ok || len(dv) != len(lv) {
			return false
		}
		for _, e := range dv {
			if isCollection(e) {
				return false // object arrays are walked element by element
			}
		}
		return r.contains(rp, dv, lv)
	case map[string]any:
		return false
	}
	return r.sameScalar(rp, d, l)
}

func (r *run) sameScalar(rp string, d, l any) bool {
	if normalize.Equal(d, l) || normalize.StringlyEqual(d, l) {
		return true
	}
	if s, ok := d.(drift.Secret); ok {
		return normalize.Equal(s.Value, l) || normalize.StringlyEqual(s.Value, l)
	}
	sp := schemaPath(rp)
	if r.tf.caseInsensitive[sp] || r.transformCase(sp) {
		if normalize.CaseInsensitiveEqual(d, l) {
			return true
		}
	}
	if r.tf.latestSentinel[sp] && normalize.LatestSentinelMatch(d, l) {
		return true
	}
	if r.tf.versionPrefix[sp] && normalize.VersionPrefixMatch(d, l) {
		return true
	}
	if unit, ok := r.tf.roundedDown[sp]; ok && normalize.RoundedDownMatch(d, l, unit) {
		return true
	}
	if r.tf.aclString[sp] {
		if ds, ok := d.(string); ok {
			if ls, ok := l.(string); ok && normalize.ACLResetEqual(ds, ls) {
				return true
			}
		}
	}
	if normalize.ARNNameMatch(d, l, r.opts.AccountID, r.opts.Region) {
		return true
	}
	if normalize.KMSAliasMatch(d, l, r.opts.KMSAliasTargets) {
		return true
	}
	if dm, ok := d.(map[string]any); ok && len(r.tf.equivalences[sp]) > 0 {
		if lm, ok := l.(map[string]any); ok && r.equivalentMap(sp, dm, lm) {
			return true
		}
	}
	ds, ok1 := d.(string)
	ls, ok2 := l.(string)
	if ok1 && ok2 {
		if normalize.AccountPrincipalEqual(ds, ls) || normalize.ServiceCaseEqual(ds, ls) || normalize.TrailingDotEqual(ds, ls) || normalize.RateExpressionEqual(ds, ls) || normalize.SSHPublicKeyEqual(ds, ls) {
			return true
		}
		if normalize.PEMEqual(ds, ls) {
			return true
		}
		if len(r.tf.equivalences) > 0 && r.equivalentAt(sp, ds, ls) {
			return true
		}
		if normalize.JSONStringEqual(mustParse(ds), ls) {
			return true
		}
		if fill := r.tf.jsonFills[sp]; fill != nil {
			if dv := mustParse(ds); dv != nil && normalize.JSONStringEqual(withFills(dv, fill), ls) {
				return true
			}
		}
	}
	return false
}

// transformCase reports whether the schema's propertyTransform for the path
// only re-cases the value ($lowercase / $uppercase).
func (r *run) transformCase(sp string) bool {
	t, ok := r.facts.PropertyTransforms[sp]
	if !ok {
		return false
	}
	return strings.Contains(t, "$lowercase") || strings.Contains(t, "$uppercase")
}

// mustParse returns the JSON value of s when s is JSON object/array text,
// else nil (which never equals a string).
// withFills returns v (parsed JSON text: an object, or an array of them)
// with every key of fill a declared object lacks set to its fill value.
func withFills(v any, fill map[string]any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t)+len(fill))
		for k, e := range fill {
			out[k] = e
		}
		for k, e := range t {
			out[k] = e
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = withFills(e, fill)
		}
		return out
	}
	return v
}

func mustParse(s string) any {
	s = strings.TrimSpace(s)
	if s == "" || (s[0] != '{' && s[0] != '[') {
		return nil
	}
	var v any
	if err := jsonUnmarshal(s, &v); err != nil {
		return nil
	}
	return v
}

// equivalentAt applies the per-path representational folds the type's
// facts name at schema path sp or at a map holding it (a map key may itself
// hold dots: rds.force_ssl).
func (r *run) equivalentAt(sp, d, l string) bool {
	kinds := r.tf.equivalences[sp]
	for i := strings.IndexByte(sp, '.'); i > 0; {
		kinds = append(kinds[:len(kinds):len(kinds)], r.tf.equivalences[sp[:i]]...)
		j := strings.IndexByte(sp[i+1:], '.')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	for _, k := range kinds {
		switch k {
		case "trailingSlash":
			if normalize.TrailingSlashEqual(d, l) {
				return true
			}
		case "intelligentTiering":
			if normalize.IntelligentTieringMatch(d, l) {
				return true
			}
		case "booleanString":
			if normalize.BooleanStringEqual(d, l) {
				return true
			}
		case "propertiesText":
			if normalize.PropertiesEqual(d, l) {
				return true
			}
		}
	}
	return false
}

// equivalentMap reports whether two maps at a path with per-path folds
// hold the same keys, each value equal or equal under those folds.
func (r *run) equivalentMap(sp string, d, l map[string]any) bool {
	if len(d) != len(l) {
		return false
	}
	for k, dv := range d {
		lv, ok := l[k]
		if !ok {
			return false
		}
		if normalize.SameScalarOrEqual(dv, lv) {
			continue
		}
		ds, ok1 := dv.(string)
		ls, ok2 := lv.(string)
		if !ok1 || !ok2 || !r.equivalentAt(sp, ds, ls) {
			return false
		}
	}
	return true
}
