package elasticbeanstalk

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves Elastic Beanstalk (query/XML):
// DescribeConfigurationSettings of an environment, from the world's
// AWS::ElasticBeanstalk::Environment models (by EnvironmentName, else the
// identifier) of the named application: one deployed configuration set
// holding the model's OptionSettings in the model's order, each option's
// ResourceName and Value only when the model has them (a model without
// OptionSettings answers a set without options). An unknown environment
// or application is the InvalidParameterValue Elastic Beanstalk answers;
// configuration templates (TemplateName) are not served.
func Service() *wire.Service {
	return wire.Query("elasticbeanstalk", "http://elasticbeanstalk.amazonaws.com/docs/2010-12-01/", wire.Ops{
		"DescribeConfigurationSettings": ebDescribeConfigurationSettings,
	})
}
