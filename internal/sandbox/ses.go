package sandbox

import "github.com/realdrift/realdrift/internal/sandbox/world"
import "encoding/json"

// sesService serves SES v1 (query/XML) receipt filters, receipt rule sets
// and rules, and configuration set event destinations, from the world's
// AWS::SES::ReceiptFilter (Filter), ReceiptRuleSet (RuleSetName, else the
// identifier), ReceiptRule (RuleSetName, Rule) and
// ConfigurationSetEventDestination (ConfigurationSetName, EventDestination)
// models, plus the rule sets and configuration sets those name. Values are
// answered in the API's shape, which is the template's but for
// SnsDestination (SNSDestination), lists as <member>s.
func sesService() *service {
	return &service{
		name:     "ses",
		protocol: protoQuery,
		xmlns:    "http://ses.amazonaws.com/doc/2010-12-01/",
		throttle: apiError{Status: 400, Code: "Throttling"},
		deny:     apiError{Status: 403, Code: "AccessDenied"},
		ops: map[string]handler{
			"ListReceiptFilters":       sesListReceiptFilters,
			"DescribeReceiptRuleSet":   sesDescribeReceiptRuleSet,
			"DescribeReceiptRule":      sesDescribeReceiptRule,
			"DescribeConfigurationSet": sesDescribeConfigurationSet,
		},
	}
}

// queryXML renders a template-shaped value as query-protocol XML under
// name: objects by their keys, lists as <member>s.
func queryXML(name string, v any) *xnode {
	switch t := v.(type) {
	case map[string]any:
		n := &xnode{name: name}
		for _, k := range world.SortedKeys(t) {
			if kid := queryXML(k, t[k]); kid != nil {
				n.kids = append(n.kids, kid)
			}
		}
		return n
	case []any:
		n := &xnode{name: name}
		for _, e := range t {
			if kid := queryXML("member", e); kid != nil {
				n.kids = append(n.kids, kid)
			}
		}
		return n
	case string:
		return tx(name, t)
	case json.Number:
		return tx(name, t.String())
	case bool:
		return xbool(name, t)
	}
	return nil
}

func sesListReceiptFilters(st *world.State, c *call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	var fs []*xnode
	for _, r := range st.OfType(c.account, c.region, "AWS::SES::ReceiptFilter") {
		m, err := fieldObject(r)
		if err != nil {
			return nil, err
		}
		if f, ok := m["Filter"].(map[string]any); ok {
			fs = append(fs, queryXML("member", f))
		}
	}
	return el("", &xnode{name: "Filters", kids: fs}), nil
}

// sesRules returns the rule sets by name, each with its rules' models.
func sesRules(st *world.State, c *call) map[string][]map[string]any {
	sets := map[string][]map[string]any{}
	for _, r := range st.OfType(c.account, c.region, "AWS::SES::ReceiptRuleSet") {
		n := world.FieldString(r, "RuleSetName")
		if n == "" {
			n = r.CCID()
		}
		if sets[n] == nil {
			sets[n] = []map[string]any{}
		}
	}
	for _, r := range st.OfType(c.account, c.region, "AWS::SES::ReceiptRule") {
		m, err := fieldObject(r)
		if err != nil {
			continue
		}
		set, _ := m["RuleSetName"].(string)
		if rule, ok := m["Rule"].(map[string]any); ok && set != "" {
			sets[set] = append(sets[set], rule)
		}
	}
	return sets
}

func noRuleSet(name string) error {
	return errf(400, "RuleSetDoesNotExist", "Rule set does not exist: %s", name)
}

func sesDescribeReceiptRuleSet(st *world.State, c *call) (any, error) {
	name := c.str("RuleSetName")
	st.RLock()
	defer st.RUnlock()
	rules, ok := sesRules(st, c)[name]
	if !ok {
		return nil, noRuleSet(name)
	}
	var rs []*xnode
	for _, r := range rules {
		rs = append(rs, queryXML("member", r))
	}
	return el("", el("Metadata", tx("Name", name), xtime("CreatedTimestamp", defaultStackTime)), &xnode{name: "Rules", kids: rs}), nil
}

func sesDescribeReceiptRule(st *world.State, c *call) (any, error) {
	set, name := c.str("RuleSetName"), c.str("RuleName")
	st.RLock()
	defer st.RUnlock()
	rules, ok := sesRules(st, c)[set]
	if !ok {
		return nil, noRuleSet(set)
	}
	for _, r := range rules {
		if r["Name"] == name {
			return el("", queryXML("Rule", r)), nil
		}
	}
	return nil, errf(400, "RuleDoesNotExist", "Rule does not exist: %s", name)
}

func sesDescribeConfigurationSet(st *world.State, c *call) (any, error) {
	name := c.str("ConfigurationSetName")
	st.RLock()
	defer st.RUnlock()
	exists := false
	for _, r := range st.OfType(c.account, c.region, "AWS::SES::ConfigurationSet") {
		exists = exists || world.FieldString(r, "Name") == name || r.CCID() == name
	}
	var dests []*xnode
	for _, r := range st.OfType(c.account, c.region, "AWS::SES::ConfigurationSetEventDestination") {
		m, err := fieldObject(r)
		if err != nil {
			return nil, err
		}
		if m["ConfigurationSetName"] != name {
			continue
		}
		exists = true
		if d, ok := m["EventDestination"].(map[string]any); ok {
			if sns, ok := d["SnsDestination"]; ok {
				delete(d, "SnsDestination")
				d["SNSDestination"] = sns
			}
			dests = append(dests, queryXML("member", d))
		}
	}
	if !exists {
		return nil, errf(400, "ConfigurationSetDoesNotExist", "Configuration set <%s> does not exist.", name)
	}
	out := el("", el("ConfigurationSet", tx("Name", name)))
	if len(c.list("ConfigurationSetAttributeNames")) > 0 {
		out.kids = append(out.kids, &xnode{name: "EventDestinations", kids: dests})
	}
	return out, nil
}
