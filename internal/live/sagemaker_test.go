package live_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	smEndpointConfigArn = "arn:aws:sagemaker:us-east-1:111111111111:endpoint-config/serve-config"
	smScheduleArn       = "arn:aws:sagemaker:us-east-1:111111111111:monitoring-schedule/nightly-quality"
	smEndpointConfig    = `{"EndpointConfigName":"serve-config","ProductionVariants":[{"VariantName":"AllTraffic","ModelName":"serve-model","InitialInstanceCount":1,` +
		`"InstanceType":"ml.t2.medium","InitialVariantWeight":0.1}],"EnableNetworkIsolation":false,"Tags":[{"Key":"team","Value":"ml"}]}`
	smSchedule = `{"MonitoringScheduleName":"nightly-quality","MonitoringScheduleConfig":{"ScheduleConfig":{"ScheduleExpression":"cron(0 23 ? * * *)"},` +
		`"MonitoringJobDefinition":{"MonitoringAppSpecification":{"ImageUri":"123.dkr.ecr.us-east-1.amazonaws.com/analyzer"},` +
		`"MonitoringOutputConfig":{"MonitoringOutputs":[{"S3Output":{"LocalPath":"/opt/ml/processing/output","S3Uri":"s3://ml-bucket/out"}}]},` +
		`"MonitoringResources":{"ClusterConfig":{"InstanceCount":1,"InstanceType":"ml.m5.large","VolumeSizeInGB":20}},"RoleArn":"arn:aws:iam::111111111111:role/monitor"},` +
		`"MonitoringType":"DataQuality"}}`
)

// moto 5.2.1 serves SageMaker endpoint configurations: see
// TestMotoSageMakerEndpointConfig.
func TestSageMakerRoundTrip(t *testing.T) {
	schedule := strings.TrimSuffix(smSchedule, "}")
	schedule += `,"Tags":[`
	for i := 0; i < 60; i++ { // more than ListTags's page of 50
		if i > 0 {
			schedule += ","
		}
		schedule += fmt.Sprintf(`{"Key":"k%02d","Value":"v"}`, i)
	}
	schedule += "]}"
	srv, url := serve(t, worldOf(
		liveOnly("AWS::SageMaker::EndpointConfig", smEndpointConfigArn, smEndpointConfig),
		liveOnly("AWS::SageMaker::MonitoringSchedule", smScheduleArn, schedule),
	))
	c := live.NewClients(config(url))
	for _, tc := range []struct{ typ, id, model, path, value string }{
		{"AWS::SageMaker::EndpointConfig", smEndpointConfigArn, smEndpointConfig, "EnableNetworkIsolation", `true`},
		{"AWS::SageMaker::MonitoringSchedule", smScheduleArn, schedule, "MonitoringScheduleConfig.ScheduleConfig", `{"ScheduleExpression":"cron(0 1 ? * * *)"}`},
	} {
		req := live.Request{Type: tc.typ, LogicalID: "R", PhysicalID: tc.id, Declared: declaredOf(t, tc.model)}
		overrideRoundTrip(t, c, srv, region, req, tc.model, tc.id, tc.path, tc.value)
		gone := strings.Replace(tc.id, "/", "/gone-", 1)
		if got := live.Read(ctx(t), c, live.Request{Type: tc.typ, PhysicalID: gone}); got.Status != live.NotFound {
			t.Errorf("%s gone: %+v, want notFound", tc.typ, got)
		}
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "sagemaker", Action: "ListTags", Code: "AccessDeniedException", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: "AWS::SageMaker::EndpointConfig", PhysicalID: smEndpointConfigArn}); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "SageMaker ListTags: AccessDeniedException") {
		t.Errorf("tags denied: %+v, want skipped", got)
	}
}
