package elasticbeanstalk

import "github.com/realdrift/realdrift/internal/sandbox/world"
import "github.com/realdrift/realdrift/internal/sandbox/wire"

func ebDescribeConfigurationSettings(st *world.State, c *wire.Call) (any, error) {
	app, env, tmpl := c.Str("ApplicationName"), c.Str("EnvironmentName"), c.Str("TemplateName")
	switch {
	case app == "":
		return nil, wire.Errf(400, "MissingParameter", "The request must contain the parameter ApplicationName.")
	case env != "" && tmpl != "":
		return nil, wire.Errf(400, "InvalidParameterCombination", "You cannot specify both an environment and a configuration template.")
	case env == "" && tmpl == "":
		return nil, wire.Errf(400, "MissingRequiredParameter", "You must specify either an environment or a configuration template.")
	case tmpl != "":
		return nil, wire.Errf(400, wire.NotEmulated, "DescribeConfigurationSettings of a configuration template is not emulated by the sandbox")
	}
	st.RLock()
	defer st.RUnlock()
	var m map[string]any
	for _, r := range st.OfType(c.Account, c.Region, "AWS::ElasticBeanstalk::Environment") {
		if r.Deleted {
			continue
		}
		name := world.FieldString(r, "EnvironmentName")
		if name == "" {
			name = r.CCID()
		}
		if name != env || world.FieldString(r, "ApplicationName") != app {
			continue
		}
		obj, err := world.FieldObject(r)
		if err != nil {
			return nil, err
		}
		m = obj
	}
	if m == nil {
		return nil, wire.Errf(400, "InvalidParameterValue", "No Environment found for EnvironmentName = '%s'.", env)
	}
	str := func(k string) string { v, _ := m[k].(string); return v }
	var opts []*wire.Node
	list, _ := m["OptionSettings"].([]any)
	for _, e := range list {
		o, ok := e.(map[string]any)
		if !ok {
			continue
		}
		n := wire.El("")
		if v, ok := o["ResourceName"].(string); ok {
			n.Kids = append(n.Kids, wire.Tx("ResourceName", v))
		}
		ns, _ := o["Namespace"].(string)
		name, _ := o["OptionName"].(string)
		n.Kids = append(n.Kids, wire.Tx("Namespace", ns), wire.Tx("OptionName", name))
		if v, ok := o["Value"]; ok && v != nil {
			n.Kids = append(n.Kids, wire.Tx("Value", world.ScalarString(v)))
		}
		opts = append(opts, n)
	}
	set := wire.El("",
		wire.Tx("ApplicationName", app), wire.Tx("EnvironmentName", env),
		wire.Opt("SolutionStackName", str("SolutionStackName")), wire.Opt("PlatformArn", str("PlatformArn")),
		wire.Opt("Description", str("Description")), wire.Tx("DeploymentStatus", "deployed"),
		wire.Members("OptionSettings", opts))
	return wire.El("", wire.Members("ConfigurationSettings", []*wire.Node{set})), nil
}
