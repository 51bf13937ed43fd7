package normalize

import "strings"

// protocolNames are the protocol numbers EC2 reads back by name.
var protocolNames = map[string]string{"6": "tcp", "17": "udp", "1": "icmp", "58": "icmpv6"}

// SGRule returns a security-group rule in the form EC2 reads it back: the
// protocol lower-cased and named where EC2 names it ("6" → "tcp"), "all"
// as "-1", and the port range of a rule for every protocol read back as
// EC2 reads it, -1 to -1 (EC2 ignores any range given there). changed is false, and the rule itself returned, when nothing
// changes; otherwise it is a copy: the input is never modified.
func SGRule(rule map[string]any) (out map[string]any, changed bool) {
	raw, ok := rule["IpProtocol"]
	if !ok {
		return rule, false
	}
	var p string
	switch t := raw.(type) {
	case string:
		p = strings.ToLower(strings.TrimSpace(t))
	case float64:
		p = FormatNumber(t)
	default:
		return rule, false
	}
	if n, ok := protocolNames[p]; ok {
		p = n
	}
	if p == "all" {
		p = "-1"
	}
	allPorts := p == "-1" && !(rule["FromPort"] == -1.0 && rule["ToPort"] == -1.0)
	if p == raw && !allPorts {
		return rule, false
	}
	out = make(map[string]any, len(rule))
	for k, v := range rule {
		out[k] = v
	}
	out["IpProtocol"] = p
	if p == "-1" {
		out["FromPort"], out["ToPort"] = -1.0, -1.0
	}
	return out, true
}

// SGRules applies SGRule to every rule of a rule list, copying the list
// only when a rule changes.
func SGRules(v any) any {
	rules, ok := v.([]any)
	if !ok {
		return v
	}
	var out []any
	for i, e := range rules {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		if n, changed := SGRule(m); changed {
			if out == nil {
				out = append([]any(nil), rules...)
			}
			out[i] = n
		}
	}
	if out == nil {
		return v
	}
	return out
}
