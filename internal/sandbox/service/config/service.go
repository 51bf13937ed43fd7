package config

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves AWS Config (JSON 1.1): the configuration recorders
// and delivery channels of the account region, from the world's
// AWS::Config::ConfigurationRecorder and AWS::Config::DeliveryChannel
// models (by Name, else the identifier), in Config's camelCase shape with
// exactly the properties the model holds. Asked by names, a name that does
// not exist is NoSuch...Exception, as Config answers; asked for none, all
// are listed.
func Service() *wire.Service {
	svc := wire.JSON("config", "1.1", "StarlingDoveService.", wire.Ops{
		"DescribeConfigurationRecorders": configDescribeRecorders,
		"DescribeDeliveryChannels":       configDescribeChannels,
	})
	svc.JSONNamespace = "com.amazonaws.starlingdoveservice#"
	return svc
}
