package main

import (
	"fmt"
	"os"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/jsii-runtime-go"
)

// ServiceStackName names the central stack.
const ServiceStackName = "Realdrift"

func main() {
	os.Exit(run())
}

func run() int {
	defer jsii.Close()
	cfg, err := ConfigFromEnv(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "infra:", err)
		return 2
	}
	outdir := os.Getenv("CDK_OUTDIR")
	if outdir == "" {
		outdir = "cdk.out"
	}
	app := newApp(outdir)
	svc, err := NewService(app, ServiceStackName, cfg, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "infra:", err)
		return 2
	}
	for _, name := range svc.Missing {
		fmt.Fprintf(os.Stderr, "infra: WARNING: functions/%s is not built; its Lambda uses the PLACEHOLDER asset and cannot run\n", name)
	}
	app.Synth(nil)
	fmt.Fprintln(os.Stderr, "infra: synthesized", ServiceStackName, "into", outdir)
	return 0
}

// newApp returns the CDK app with its feature flags set in code (cdk.json
// context is read only by the cdk CLI).
func newApp(outdir string) awscdk.App {
	return awscdk.NewApp(&awscdk.AppProps{
		Outdir:             jsii.String(outdir),
		AnalyticsReporting: jsii.Bool(false),
		Context: &map[string]any{
			"@aws-cdk/aws-iam:minimizePolicies":                          true,
			"@aws-cdk/aws-lambda:recognizeLayerVersion":                  true,
			"@aws-cdk/core:target-partitions":                            []string{"aws", "aws-cn"},
			"@aws-cdk/aws-stepfunctions:useDistributedMapResultWriterV2": true,
		},
	})
}
