// Command classify is realdrift's classify Lambda function: it reads its
// settings from the environment, builds its clients from one aws.Config and
// serves service.Service.Classify (see internal/service).
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/realdrift/realdrift/internal/service"
)

func main() {
	ctx := context.Background()
	set, err := service.SettingsFromEnv(os.Getenv)
	if err != nil {
		slog.Error("classify: settings", "error", err)
		os.Exit(1)
	}
	cfg, err := service.AWSConfig(ctx, set, os.Getenv("AWS_REGION"))
	if err != nil {
		slog.Error("classify: AWS config", "error", err)
		os.Exit(1)
	}
	svc, err := service.New(cfg, set)
	if err != nil {
		slog.Error("classify: service", "error", err)
		os.Exit(1)
	}
	lambda.Start(svc.Classify)
}
