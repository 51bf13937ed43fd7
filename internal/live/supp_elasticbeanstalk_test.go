package live_test

import (
	"testing"

	"github.com/realdrift/realdrift/internal/live"
)

// moto 5.2.1's elasticbeanstalk serves applications and environments but
// not DescribeConfigurationSettings: this supplement is checked against the
// sandbox only.

func TestEBEnvironmentSupplement(t *testing.T) {
	const declared = `{"ApplicationName":"shop","EnvironmentName":"shop-env","SolutionStackName":"64bit Amazon Linux 2023 v4.13.3 running Docker",` +
		`"OptionSettings":[{"Namespace":"aws:elasticbeanstalk:environment","OptionName":"EnvironmentType","Value":"SingleInstance"},` +
		`{"Namespace":"aws:elasticbeanstalk:application:environment","OptionName":"GREETING","Value":"hello"}]}`
	const options = `[{"Namespace":"aws:elasticbeanstalk:environment","OptionName":"EnvironmentType","Value":"SingleInstance"},` +
		`{"Namespace":"aws:elasticbeanstalk:application:environment","OptionName":"GREETING","Value":"hello"},` +
		`{"ResourceName":"AWSEBAutoScalingGroup","Namespace":"aws:autoscaling:asg","OptionName":"Cooldown","Value":"360"},` +
		`{"ResourceName":"AWSEBAutoScalingGroup","Namespace":"aws:autoscaling:asg","OptionName":"Custom Availability Zones","Value":""},` +
		`{"ResourceName":"AWSEBEC2LaunchTemplate","Namespace":"aws:autoscaling:launchconfiguration","OptionName":"BlockDeviceMappings"}]`
	srv, url := serve(t, worldOf(
		liveOnly("AWS::ElasticBeanstalk::Environment", "shop-env", `{"ApplicationName":"shop","EnvironmentName":"shop-env","SolutionStackName":"64bit Amazon Linux 2023 v4.13.3 running Docker",`+
			`"Tier":{"Type":"Standard","Version":"1.0","Name":"WebServer"},"OptionSettings":`+options+`}`),
		// The same environment name in another application is not it.
		liveOnly("AWS::ElasticBeanstalk::Environment", "other-env", `{"ApplicationName":"other","EnvironmentName":"shop-env","OptionSettings":[]}`),
	))
	c := live.NewClients(config(url))
	supplementRoundTrip(t, c, srv, supplementCase{
		req:  live.Request{Type: "AWS::ElasticBeanstalk::Environment", LogicalID: "Env", PhysicalID: "shop-env", Declared: declaredOf(t, declared)},
		want: map[string]any{"OptionSettings": declaredOf(t, `{"o":`+options+`}`)["o"]},
		id:   "shop-env", path: "OptionSettings.0.Value", value: `"LoadBalanced"`,
		deny: "elasticbeanstalk:DescribeConfigurationSettings",
	})
}

// TestEBEnvironmentSupplementNoOptions: an environment whose answer holds
// no options has its OptionSettings unread (a readGap when declared), not
// read as empty.
func TestEBEnvironmentSupplementNoOptions(t *testing.T) {
	_, url := serve(t, worldOf(
		liveOnly("AWS::ElasticBeanstalk::Environment", "bare-env", `{"ApplicationName":"shop","EnvironmentName":"bare-env"}`),
	))
	c := live.NewClients(config(url))
	req := live.Request{Type: "AWS::ElasticBeanstalk::Environment", LogicalID: "Env", PhysicalID: "bare-env",
		Declared: declaredOf(t, `{"ApplicationName":"shop","EnvironmentName":"bare-env","OptionSettings":[{"Namespace":"aws:elasticbeanstalk:environment","OptionName":"EnvironmentType","Value":"SingleInstance"}]}`)}
	got := live.Read(ctx(t), c, req)
	if _, ok := got.Model["OptionSettings"]; got.Status != live.Found || ok {
		t.Fatalf("read: %+v, want the model without OptionSettings", got)
	}
	fs := classifyAll(t, req, got)
	if d := driftOnly(fs); len(d) != 0 {
		t.Errorf("classified as %+v", d)
	}
	gap := false
	for _, f := range fs {
		gap = gap || f.Path == "OptionSettings" && f.WriteOnly
	}
	if !gap {
		t.Errorf("no readGap for the unread OptionSettings in %+v", fs)
	}
}
