package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	eb "github.com/aws/aws-sdk-go-v2/service/elasticbeanstalk"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/elasticbeanstalk/types"
)

// AWS::ElasticBeanstalk::Environment: OptionSettings is write-only to
// Cloud Control. Elastic Beanstalk answers the environment's whole option
// set with DescribeConfigurationSettings (ApplicationName and
// EnvironmentName): hundreds of options, most of them filled by AWS; the
// classifier folds those (the option default, derived and
// value-independent tables) and compares the declared ones as a subset
// keyed by Namespace and OptionName.

type elasticBeanstalkAPI interface {
	DescribeConfigurationSettings(ctx context.Context, in *eb.DescribeConfigurationSettingsInput, optFns ...func(*eb.Options)) (*eb.DescribeConfigurationSettingsOutput, error)
}

var _ elasticBeanstalkAPI = (*eb.Client)(nil)

var ebEnvironmentProps = []string{"OptionSettings"}

// readEBEnvironmentSupplement reads the environment's deployed option
// settings (physical id: the environment name; the application name is
// the Cloud Control model's, else the declared one).
func readEBEnvironmentSupplement(ctx context.Context, c *Clients, r Request, model map[string]any) (map[string]any, error) {
	if c.ElasticBeanstalk == nil {
		return nil, skip("no Elastic Beanstalk client")
	}
	app, _ := model["ApplicationName"].(string)
	if app == "" {
		app, _ = r.Declared["ApplicationName"].(string)
	}
	if app == "" {
		return nil, skip("the environment's application name is unknown")
	}
	out, err := c.ElasticBeanstalk.DescribeConfigurationSettings(ctx, &eb.DescribeConfigurationSettingsInput{
		ApplicationName: aws.String(app), EnvironmentName: aws.String(r.PhysicalID),
	})
	if err != nil {
		return nil, err
	}
	set, ok := deployedSettings(out.ConfigurationSettings)
	if !ok {
		return nil, fmt.Errorf("configuration settings of Elastic Beanstalk environment %s: %w", r.PhysicalID, ErrNotFound)
	}
	add := map[string]any{}
	if len(set.OptionSettings) > 0 {
		add["OptionSettings"] = ebOptionSettings(set.OptionSettings)
	}
	return add, nil
}

// deployedSettings picks the deployed configuration set: while a
// deployment is in flight (or failed) Elastic Beanstalk answers a draft
// beside it, which is not what the environment runs.
func deployedSettings(sets []ebtypes.ConfigurationSettingsDescription) (ebtypes.ConfigurationSettingsDescription, bool) {
	for _, s := range sets {
		if s.DeploymentStatus == ebtypes.ConfigurationDeploymentStatusDeployed {
			return s, true
		}
	}
	if len(sets) == 1 && sets[0].DeploymentStatus == "" {
		return sets[0], true
	}
	return ebtypes.ConfigurationSettingsDescription{}, false
}

// ebOptionSettings converts options to the template's shape, in the order
// Elastic Beanstalk answers them: {Namespace, OptionName, ResourceName?,
// Value?} (an option with no value, such as an unset block device
// mapping, has no Value).
func ebOptionSettings(opts []ebtypes.ConfigurationOptionSetting) []any {
	out := make([]any, 0, len(opts))
	for _, o := range opts {
		m := map[string]any{"Namespace": aws.ToString(o.Namespace), "OptionName": aws.ToString(o.OptionName)}
		if o.ResourceName != nil {
			m["ResourceName"] = *o.ResourceName
		}
		if o.Value != nil {
			m["Value"] = *o.Value
		}
		out = append(out, m)
	}
	return out
}
