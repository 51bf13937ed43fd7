package main

import (
	"context"

	"github.com/aws/aws-lambda-go/lambda"
)

func main() { lambda.Start(func(context.Context) error { return nil }) }
