package sandbox

import "github.com/realdrift/realdrift/internal/sandbox/world"

// elasticBeanstalkService serves Elastic Beanstalk (query/XML):
// DescribeConfigurationSettings of an environment, from the world's
// AWS::ElasticBeanstalk::Environment models (by EnvironmentName, else the
// identifier) of the named application: one deployed configuration set
// holding the model's OptionSettings in the model's order, each option's
// ResourceName and Value only when the model has them (a model without
// OptionSettings answers a set without options). An unknown environment
// or application is the InvalidParameterValue Elastic Beanstalk answers;
// configuration templates (TemplateName) are not served.
func elasticBeanstalkService() *service {
	return &service{
		name:     "elasticbeanstalk",
		protocol: protoQuery,
		xmlns:    "http://elasticbeanstalk.amazonaws.com/docs/2010-12-01/",
		throttle: apiError{Status: 400, Code: "Throttling"},
		deny:     apiError{Status: 403, Code: "AccessDenied"},
		ops: map[string]handler{
			"DescribeConfigurationSettings": ebDescribeConfigurationSettings,
		},
	}
}

func ebDescribeConfigurationSettings(st *world.State, c *call) (any, error) {
	app, env, tmpl := c.str("ApplicationName"), c.str("EnvironmentName"), c.str("TemplateName")
	switch {
	case app == "":
		return nil, errf(400, "MissingParameter", "The request must contain the parameter ApplicationName.")
	case env != "" && tmpl != "":
		return nil, errf(400, "InvalidParameterCombination", "You cannot specify both an environment and a configuration template.")
	case env == "" && tmpl == "":
		return nil, errf(400, "MissingRequiredParameter", "You must specify either an environment or a configuration template.")
	case tmpl != "":
		return nil, errf(400, NotEmulated, "DescribeConfigurationSettings of a configuration template is not emulated by the sandbox")
	}
	st.RLock()
	defer st.RUnlock()
	var m map[string]any
	for _, r := range st.OfType(c.account, c.region, "AWS::ElasticBeanstalk::Environment") {
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
		obj, err := fieldObject(r)
		if err != nil {
			return nil, err
		}
		m = obj
	}
	if m == nil {
		return nil, errf(400, "InvalidParameterValue", "No Environment found for EnvironmentName = '%s'.", env)
	}
	str := func(k string) string { v, _ := m[k].(string); return v }
	var opts []*xnode
	list, _ := m["OptionSettings"].([]any)
	for _, e := range list {
		o, ok := e.(map[string]any)
		if !ok {
			continue
		}
		n := el("")
		if v, ok := o["ResourceName"].(string); ok {
			n.kids = append(n.kids, tx("ResourceName", v))
		}
		ns, _ := o["Namespace"].(string)
		name, _ := o["OptionName"].(string)
		n.kids = append(n.kids, tx("Namespace", ns), tx("OptionName", name))
		if v, ok := o["Value"]; ok && v != nil {
			n.kids = append(n.kids, tx("Value", scalarString(v)))
		}
		opts = append(opts, n)
	}
	set := el("",
		tx("ApplicationName", app), tx("EnvironmentName", env),
		opt("SolutionStackName", str("SolutionStackName")), opt("PlatformArn", str("PlatformArn")),
		opt("Description", str("Description")), tx("DeploymentStatus", "deployed"),
		members("OptionSettings", opts))
	return el("", members("ConfigurationSettings", []*xnode{set})), nil
}
