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
	code := cli.Run(ctx, cli.IO{
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Getenv: os.Getenv,
		IsTTY:  cli.IsTerminal(os.Stdout),
		// A prompt needs a terminal on both ends.
		StdinTTY:  cli.IsTerminal(os.Stdin),
		StderrTTY: cli.IsTerminal(os.Stderr),
	}, os.Args[1:])
	stop()
	os.Exit(code)
}
