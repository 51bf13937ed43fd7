package drift

// Unknown stands in a resolved template value wherever the resolver could not
// know the real value (fail closed). It is a distinct Go type, so it can never
// be confused with any real string, number or object a template or a live
// model holds. Comparisons must treat it as "cannot compare": the consuming
// property is reported in the Unresolved tier, never as drift.
type Unknown struct {
	// Reason says why, e.g. "Fn::GetAZs is environment-dependent".
	Reason string
	// Secret marks a value that is secret-bearing (a secretsmanager or
	// ssm-secure dynamic reference, a NoEcho parameter). It must be
	// written only as Redacted.
	Secret bool
}

// IsUnknown reports whether v is an Unknown sentinel (at the top level).
func IsUnknown(v any) bool {
	_, ok := v.(Unknown)
	return ok
}

// ContainsUnknown reports whether v holds an Unknown at any depth.
func ContainsUnknown(v any) bool {
	switch t := v.(type) {
	case Unknown:
		return true
	case map[string]any:
		for _, e := range t {
			if ContainsUnknown(e) {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if ContainsUnknown(e) {
				return true
			}
		}
	}
	return false
}

// Secret wraps a known value that must never be written in plaintext (a
// NoEcho parameter's supplied value). Comparisons may look inside; every
// writer (report, baseline, log, store) must write Redacted instead.
type Secret struct {
	Value any
}

// MarshalJSON writes Redacted, so a Secret can never leak through JSON.
func (Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + Redacted + `"`), nil }

// MarshalJSON writes an Unknown as a marker string. Secret-bearing ones carry
// no reason text, which may quote the reference.
func (u Unknown) MarshalJSON() ([]byte, error) {
	if u.Secret {
		return []byte(`"` + Redacted + `"`), nil
	}
	return []byte(`"<unresolved>"`), nil
}
