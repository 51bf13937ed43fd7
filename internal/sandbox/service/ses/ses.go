package ses

import "github.com/realdrift/realdrift/internal/sandbox/world"
import "github.com/realdrift/realdrift/internal/sandbox/wire"

func sesListReceiptFilters(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	var fs []*wire.Node
	for _, r := range st.OfType(c.Account, c.Region, "AWS::SES::ReceiptFilter") {
		m, err := world.FieldObject(r)
		if err != nil {
			return nil, err
		}
		if f, ok := m["Filter"].(map[string]any); ok {
			fs = append(fs, wire.ValueXML("member", f))
		}
	}
	return wire.El("", &wire.Node{Name: "Filters", Kids: fs}), nil
}

// sesRules returns the rule sets by name, each with its rules' models.
func sesRules(st *world.State, c *wire.Call) map[string][]map[string]any {
	sets := map[string][]map[string]any{}
	for _, r := range st.OfType(c.Account, c.Region, "AWS::SES::ReceiptRuleSet") {
		n := world.FieldString(r, "RuleSetName")
		if n == "" {
			n = r.CCID()
		}
		if sets[n] == nil {
			sets[n] = []map[string]any{}
		}
	}
	for _, r := range st.OfType(c.Account, c.Region, "AWS::SES::ReceiptRule") {
		m, err := world.FieldObject(r)
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
	return wire.Errf(400, "RuleSetDoesNotExist", "Rule set does not exist: %s", name)
}

func sesDescribeReceiptRuleSet(st *world.State, c *wire.Call) (any, error) {
	name := c.Str("RuleSetName")
	st.RLock()
	defer st.RUnlock()
	rules, ok := sesRules(st, c)[name]
	if !ok {
		return nil, noRuleSet(name)
	}
	var rs []*wire.Node
	for _, r := range rules {
		rs = append(rs, wire.ValueXML("member", r))
	}
	return wire.El("", wire.El("Metadata", wire.Tx("Name", name), wire.Time("CreatedTimestamp", world.DefaultTime)), &wire.Node{Name: "Rules", Kids: rs}), nil
}

func sesDescribeReceiptRule(st *world.State, c *wire.Call) (any, error) {
	set, name := c.Str("RuleSetName"), c.Str("RuleName")
	st.RLock()
	defer st.RUnlock()
	rules, ok := sesRules(st, c)[set]
	if !ok {
		return nil, noRuleSet(set)
	}
	for _, r := range rules {
		if r["Name"] == name {
			return wire.El("", wire.ValueXML("Rule", r)), nil
		}
	}
	return nil, wire.Errf(400, "RuleDoesNotExist", "Rule does not exist: %s", name)
}

func sesDescribeConfigurationSet(st *world.State, c *wire.Call) (any, error) {
	name := c.Str("ConfigurationSetName")
	st.RLock()
	defer st.RUnlock()
	exists := false
	for _, r := range st.OfType(c.Account, c.Region, "AWS::SES::ConfigurationSet") {
		exists = exists || world.FieldString(r, "Name") == name || r.CCID() == name
	}
	var dests []*wire.Node
	for _, r := range st.OfType(c.Account, c.Region, "AWS::SES::ConfigurationSetEventDestination") {
		m, err := world.FieldObject(r)
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
			dests = append(dests, wire.ValueXML("member", d))
		}
	}
	if !exists {
		return nil, wire.Errf(400, "ConfigurationSetDoesNotExist", "Configuration set <%s> does not exist.", name)
	}
	out := wire.El("", wire.El("ConfigurationSet", wire.Tx("Name", name)))
	if len(c.List("ConfigurationSetAttributeNames")) > 0 {
		out.Kids = append(out.Kids, &wire.Node{Name: "EventDestinations", Kids: dests})
	}
	return out, nil
}
