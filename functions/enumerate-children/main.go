// Command enumerate-children is realdrift's enumerate-children Lambda function: it builds the service
// from its environment (service.FromEnv) and serves service.Service.EnumerateChildren.
package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/realdrift/realdrift/internal/service"
)

func main() {
	svc, err := service.FromEnv(context.Background(), os.Getenv)
	if err != nil {
		slog.Error("enumerate-children: start", "error", err)
		os.Exit(1)
	}
	lambda.Start(svc.EnumerateChildren)
}
