// Command accept is realdrift's accept Lambda function: it builds the service
// from its environment (service.FromEnv) and serves service.Service.Accept.
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
		slog.Error("accept: start", "error", err)
		os.Exit(1)
	}
	lambda.Start(svc.Accept)
}
