package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Exit statuses.
const (
	ExitOK        = 0
	ExitDrift     = 1
	ExitError     = 2
	ExitInterrupt = 130
)

// IO carries the process streams so tests can drive verbs in-process.
type IO struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads the environment; nil means no variables are set.
	Getenv func(string) string
	// IsTTY reports whether stdout is a terminal.
	IsTTY bool
	// StdinTTY reports whether stdin is a terminal (prompts are offered
	// only then).
	StdinTTY bool
}

// command is one verb.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, s IO, args []string) int
}

// commands is the one registration table of verbs.
func commands() []command {
	return []command{
		{"check", "find drift in deployed stacks", runCheck},
		{"record", "record the current undeclared state as the baseline", runRecord},
		{"ignore", "stop reporting chosen findings", runIgnore},
		{"baseline", "move baselines and ignore rules to and from the service's table (push | pull)", runBaseline},
		{"diff", "what the next deploy of the app changes, resolved against the live stack (nested stacks with --recursive)", runDiff},
		{"revert", "write drift back: template values, recorded values, removal of added children", runRevert},
		{"demo", "walk through realdrift against the built-in sandbox", runDemo},
		{"corpus", "replay golden-corpus cases through the classifier", runCorpus},
		{"schema", "show registry schema facts (show TYPE | stats)", runSchema},
		{"sandbox", "run or build the emulated AWS organisation", runSandbox},
	}
}

// Run executes realdrift with args (without the program name) and returns the
// exit status.
func Run(ctx context.Context, s IO, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(s.Stdout)
		if len(args) == 0 {
			return ExitError
		}
		return ExitOK
	}
	for _, c := range commands() {
		if c.name == args[0] {
			code := c.run(ctx, s, args[1:])
			if code != ExitOK && ctx.Err() != nil {
				return ExitInterrupt
			}
			return code
		}
	}
	fmt.Fprintf(s.Stderr, "realdrift: unknown command %q (see realdrift --help)\n", args[0])
	return ExitError
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "realdrift finds drift between deployed CloudFormation/CDK stacks and the real AWS resources behind them,")
	fmt.Fprintln(w, "including properties the template never declared.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: realdrift <command> [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'realdrift <command> --help' for a command's flags.")
	fmt.Fprintln(w, "Exit status: 0 clean or report-only, 1 drift with --fail, 2 error, 130 interrupted.")
}

// newFlags returns a flag set that reports errors instead of exiting and
// prints usage to the right stream.
func newFlags(s IO, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet("realdrift "+name, flag.ContinueOnError)
	fs.SetOutput(s.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: realdrift %s %s\n\nFlags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args; it returns done=true with the exit status when the
// caller must stop (help asked for, or a flag error). Flags may appear
// before or after positional arguments.
func parse(s IO, fs *flag.FlagSet, args []string) (done bool, code int) {
	var positional []string
	rest := args
	// The flag package prints usage itself on -h and on errors; print it
	// once, to stdout for -h, and only a pointer to it after an error.
	usage := fs.Usage
	fs.Usage = func() {}
	defer func() { fs.Usage = usage }()
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(s.Stdout)
				usage()
				return true, ExitOK
			}
			fmt.Fprintf(s.Stderr, "(see %s --help)\n", fs.Name())
			return true, ExitError
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		if rest[0] == "--" {
			positional = append(positional, rest[1:]...)
			break
		}
		positional = append(positional, rest[0])
		rest = rest[1:]
	}
	// Re-parse with no args so fs.Args() returns the positional list.
	_ = fs.Parse(append([]string{"--"}, positional...))
	return false, ExitOK
}

// fail prints an error for a verb and returns ExitError.
func fail(s IO, verb string, err error) int {
	msg := err.Error()
	msg = strings.TrimSpace(msg)
	fmt.Fprintf(s.Stderr, "realdrift %s: %s\n", verb, msg)
	return ExitError
}
