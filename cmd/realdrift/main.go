// Command realdrift finds drift between deployed CloudFormation / CDK stacks
// and the real AWS resources behind them. See internal/cli for the verbs.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/realdrift/realdrift/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, cli.StdIO(os.Stdin, os.Stdout, os.Stderr, os.Getenv), os.Args[1:])
	stop()
	os.Exit(code)
}
