package normalize

import (
	"encoding/json"
	"fmt"
	"strings"
)

// CanonicalPolicies rewrites every IAM policy document in a model (an
// object with a Statement, or its JSON text under a *Policy* key) into one
// canonical form: Statement always an array sorted by canonical JSON;
// Action / NotAction / Resource / NotResource and principal and condition
// values always sorted, de-duplicated arrays; a bare account id principal
// written as its root ARN. Two documents that grant the same thing compare
// equal; any real change (an action, a resource, an effect) still differs.
func CanonicalPolicies(model map[string]any, account string) {
	canonicalWalk(model, account)
}

func canonicalWalk(v any, account string) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if s, ok := e.(string); ok && strings.Contains(k, "Policy") && strings.Contains(s, "Statement") {
				var doc map[string]any
				if err := json.Unmarshal([]byte(s), &doc); err == nil && doc["Statement"] != nil {
					t[k] = CanonicalPolicy(doc, account)
					continue
				}
			}
			if m, ok := e.(map[string]any); ok && isPolicyDoc(m) {
				t[k] = CanonicalPolicy(m, account)
				continue
			}
			canonicalWalk(e, account)
		}
	case []any:
		for _, e := range t {
			canonicalWalk(e, account)
		}
	}
}

// isPolicyDoc reports whether m is an IAM policy document: a Statement
// (one object or an array of them) whose statements carry an Effect. A WAF
// rule's Statement has none.
func isPolicyDoc(m map[string]any) bool {
	switch st := m["Statement"].(type) {
	case map[string]any:
		_, ok := st["Effect"]
		return ok
	case []any:
		for _, s := range st {
			sm, ok := s.(map[string]any)
			if !ok {
				return false
			}
			if _, ok := sm["Effect"]; !ok {
				return false
			}
		}
		return len(st) > 0
	}
	return false
}

// isStatement reports whether m is one IAM policy statement: an Effect
// and an Action or NotAction. A WAF rule's Statement has neither.
func isStatement(m map[string]any) bool {
	if _, ok := m["Effect"].(string); !ok {
		return false
	}
	_, a := m["Action"]
	_, na := m["NotAction"]
	return a || na
}

// CanonicalPolicy returns the canonical form of one policy document.
func CanonicalPolicy(doc map[string]any, account string) map[string]any {
	out := make(map[string]any, len(doc))
	for k, v := range doc {
		out[k] = v
	}
	var stmts []any
	switch st := doc["Statement"].(type) {
	case []any:
		stmts = st
	case map[string]any:
		stmts = []any{st}
	}
	canon := make([]any, 0, len(stmts))
	for _, s := range stmts {
		m, ok := s.(map[string]any)
		if !ok {
			canon = append(canon, s)
			continue
		}
		canon = append(canon, canonicalStatement(m, account))
	}
	sortStable(canon)
	out["Statement"] = canon
	return out
}

func canonicalStatement(s map[string]any, account string) map[string]any {
	out := make(map[string]any, len(s))
	for k, v := range s {
		switch k {
		case "Action", "NotAction", "Resource", "NotResource":
			out[k] = valueSet(v, nil)
		case "Principal", "NotPrincipal":
			if m, ok := v.(map[string]any); ok {
				pm := make(map[string]any, len(m))
				for pk, pv := range m {
					if pk == "AWS" {
						pm[pk] = valueSet(pv, accountOfRoot)
					} else {
						pm[pk] = valueSet(pv, nil)
					}
				}
				out[k] = pm
			} else {
				out[k] = v
			}
		case "Condition":
			if m, ok := v.(map[string]any); ok {
				cm := make(map[string]any, len(m))
				for op, ov := range m {
					if keys, ok := ov.(map[string]any); ok {
						km := make(map[string]any, len(keys))
						for ck, cv := range keys {
							km[ck] = valueSet(cv, nil)
						}
						cm[op] = km
					} else {
						cm[op] = ov
					}
				}
				out[k] = cm
			} else {
				out[k] = v
			}
		default:
			out[k] = v
		}
	}
	return out
}

// accountOfRoot writes an account's root ARN principal as the bare
// account id, the form IAM itself returns.
func accountOfRoot(s string) string {
	if strings.HasPrefix(s, "arn:aws:iam::") && strings.HasSuffix(s, ":root") {
		acct := strings.TrimSuffix(strings.TrimPrefix(s, "arn:aws:iam::"), ":root")
		if len(acct) == 12 && strings.Trim(acct, "0123456789") == "" {
			return acct
		}
	}
	return s
}

// AccountPrincipalEqual folds a bare account id principal against its root
// ARN (111111111111 vs arn:aws:iam::111111111111:root).
func AccountPrincipalEqual(a, b string) bool {
	return a != b && rootARN(a) == rootARN(b)
}

// valueSet turns a scalar-or-array into a sorted, de-duplicated array of
// its string forms.
func valueSet(v any, mapf func(string) string) any {
	var items []any
	switch t := v.(type) {
	case []any:
		items = t
	default:
		items = []any{v}
	}
	seen := map[string]bool{}
	out := make([]any, 0, len(items))
	for _, e := range items {
		s, ok := ScalarString(e)
		if !ok {
			out = append(out, e)
			continue
		}
		if mapf != nil {
			s = mapf(s)
		}
		if seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	sortStable(out)
	return out
}

// sortStable sorts values by their canonical JSON, computing each key once.
func sortStable(a []any) {
	if len(a) < 2 {
		return
	}
	sortByCanonical(a)
}

// rootARN writes a bare 12-digit account principal as its root ARN.
func rootARN(s string) string {
	if len(s) == 12 && strings.Trim(s, "0123456789") == "" {
		return "arn:aws:iam::" + s + ":root"
	}
	return s
}

// CanonicalJSONText rewrites, at any depth, every string holding JSON object
// text into compact JSON with sorted keys, so whitespace and key order never
// differ. Strings that are not JSON objects are untouched.
func CanonicalJSONText(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if s, ok := e.(string); ok {
				if c, ok := canonicalText(s); ok {
					t[k] = c
				}
				continue
			}
			CanonicalJSONText(e)
		}
	case []any:
		for i, e := range t {
			if s, ok := e.(string); ok {
				if c, ok := canonicalText(s); ok {
					t[i] = c
				}
				continue
			}
			CanonicalJSONText(e)
		}
	}
}

func canonicalText(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if len(t) < 2 || t[0] != '{' {
		return "", false
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return "", false
	}
	return Canonical(v), true
}

// oaiARNPrefix is how S3 reports a CloudFront origin access identity
// principal.
const oaiARNPrefix = "arn:aws:iam::cloudfront:user/CloudFront Origin Access Identity "

// OAIPrincipals rewrites, in the canonical policy documents of a model, a
// CanonicalUser principal that is a known origin access identity's S3
// canonical id (ids: OAI id → canonical id) into the OAI ARN form S3
// returns. Unknown canonical ids stay as they are, so a principal swapped
// to another identity still differs. Only principal maps CanonicalPolicy
// created are changed.
func OAIPrincipals(v any, ids map[string]string) {
	if len(ids) == 0 {
		return
	}
	byCanonical := make(map[string]string, len(ids))
	for oai, canonical := range ids {
		byCanonical[canonical] = oai
	}
	oaiWalk(v, byCanonical)
}

func oaiWalk(v any, byCanonical map[string]string) {
	switch t := v.(type) {
	case map[string]any:
		if isPolicyDoc(t) {
			if st, ok := t["Statement"].([]any); ok {
				for _, s := range st {
					if sm, ok := s.(map[string]any); ok {
						oaiPrincipal(sm, byCanonical)
					}
				}
			}
			return
		}
		for _, e := range t {
			oaiWalk(e, byCanonical)
		}
	case []any:
		for _, e := range t {
			oaiWalk(e, byCanonical)
		}
	}
}

func oaiPrincipal(s map[string]any, byCanonical map[string]string) {
	for _, key := range []string{"Principal", "NotPrincipal"} {
		pm, ok := s[key].(map[string]any)
		if !ok {
			continue
		}
		cu, ok := pm["CanonicalUser"].([]any)
		if !ok {
			continue
		}
		var keep, arns []any
		for _, c := range cu {
			if oai, ok := byCanonical[fmt.Sprint(c)]; ok {
				arns = append(arns, oaiARNPrefix+oai)
			} else {
				keep = append(keep, c)
			}
		}
		if len(arns) == 0 {
			continue
		}
		if len(keep) == 0 {
			delete(pm, "CanonicalUser")
		} else {
			pm["CanonicalUser"] = keep
		}
		existing, _ := pm["AWS"].([]any)
		pm["AWS"] = valueSet(append(append([]any(nil), existing...), arns...), nil)
	}
}
