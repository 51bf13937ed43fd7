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
	ExitOK    = 0
	ExitDrift = 1
	ExitError = 2
	// ExitIncomplete: nothing drifted among what was read, but something
	// could not be read (check --fail, revert): not clean.
	ExitIncomplete = 3
	ExitInterrupt  = 130
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
	// StderrTTY reports whether stderr is a terminal (check's live
	// progress line is drawn only then).
	StderrTTY bool
}

// command is one verb.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, s IO, args []string) int
	// output: the verb prints a report or listing and takes -o FILE for
	// it (output.go); check has its own, interactive verbs none (their
	// prompts are on stdout).
	output bool
}

// commands is the one registration table of verbs.
func commands() []command {
	return []command{
		{"check", "find drift in deployed stacks", runCheck, false},
		{"record", "record the current undeclared state as the baseline", runRecord, false},
		{"ignore", "stop reporting chosen findings", runIgnore, false},
		{"baseline", "move baselines and ignore rules to and from the service's table (push | pull)", runBaseline, true},
		{"diff", "what the next deploy of the app changes, resolved against the live stack (nested stacks with --recursive)", runDiff, true},
		{"revert", "write drift back: template values, recorded values, removal of added children", runRevert, true},
		{"approve", "approve or reject a revert the service waits on (approve EXECUTION [--reject])", runApprove, true},
		{"demo", "walk through realdrift against the built-in sandbox", runDemo, false},
		{"corpus", "replay golden-corpus cases through the classifier", runCorpus, true},
		{"schema", "show registry schema facts (show TYPE | stats)", runSchema, true},
		{"sandbox", "run or build the emulated AWS organisation", runSandbox, false},
		{"iam-policy", "print the IAM policy realdrift needs (--revert: with revert's writes)", runIAMPolicy, true},
		{"version", "print the version and the commit it was built from", runVersion, true},
		{"completion", "print a shell completion script (bash | zsh | fish)", runCompletion, true},
		{"config", "print the effective settings (flags, REALDRIFT_* variables, .realdrift.yaml) and where each came from", runConfig, true},
	}
}

// Run executes realdrift with args (without the program name) and returns the
// exit status.
func Run(ctx context.Context, s IO, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || (args[0] == "help" && len(args) == 1) {
		usage(s.Stdout)
		if len(args) == 0 {
			return ExitError
		}
		return ExitOK
	}
	switch args[0] {
	case "--version", "-version", "-V":
		fmt.Fprintln(s.Stdout, versionLine())
		return ExitOK
	case "help":
		// help VERB is VERB --help.
		args = []string{args[1], "--help"}
	}
	for _, c := range commands() {
		if c.name == args[0] {
			var out *redirect
			if c.output {
				out = &redirect{w: s.Stdout}
				s.Stdout = out
			}
			code := c.run(ctx, s, args[1:])
			if code != ExitOK && ctx.Err() != nil {
				code = ExitInterrupt
			}
			return out.finish(code, s.Stderr, c.name)
		}
	}
	fmt.Fprintf(s.Stderr, "realdrift: unknown command %q%s (see realdrift --help)\n", args[0], didYouMean(args[0], verbNames()))
	return ExitError
}

// verbNames lists the verbs.
func verbNames() []string {
	var out []string
	for _, c := range commands() {
		out = append(out, c.name)
	}
	return out
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "realdrift finds drift between deployed CloudFormation/CDK stacks and the real AWS resources behind them,")
	fmt.Fprintln(w, "including properties the template never declared.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: realdrift <command> [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'realdrift help <command>' (or 'realdrift <command> --help') for a command's flags; 'realdrift --version' for the version.")
	fmt.Fprintln(w, "Exit status: 0 clean or report-only, 1 drift with --fail, 2 error, 130 interrupted.")
}

// newFlags returns a flag set that reports errors instead of exiting and
// prints usage to the right stream.
func newFlags(s IO, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet("realdrift "+name, flag.ContinueOnError)
	fs.SetOutput(s.Stderr)
	if r, ok := s.Stdout.(*redirect); ok {
		usage := "write the output to `FILE` (atomically: the file appears whole, or not at all) instead of stdout"
		fs.Var(outputFlag{r}, "o", usage)
		fs.Var(outputFlag{r}, "output", usage)
	}
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: realdrift %s %s\n\nFlags:\n", name, synopsis)
		printDefaults(fs)
	}
	return fs
}

// parse parses args; it returns done=true with the exit status when the
// caller must stop (help asked for, or a flag error). Flags may appear
// before or after positional arguments.
func parse(s IO, fs *flag.FlagSet, args []string) (done bool, code int) {
	done, code, _ = parseSettings(s, fs, args)
	return done, code
}

// parseSettings is parse returning where each setting (config.go) of the
// flag set came from; a flag set with any setting's flag also takes
// --config, and the settings not given as flags take their REALDRIFT_*
// variable or the config file's value.
func parseSettings(s IO, fs *flag.FlagSet, args []string) (done bool, code int, srcs map[string]configSource) {
	registerConfig(fs)
	if done, code := parseFlags(s, fs, args); done {
		return done, code, nil
	}
	if fs.Lookup("config") == nil {
		return false, ExitOK, nil
	}
	srcs, err := resolveSettings(s, fs)
	if err != nil {
		fmt.Fprintf(s.Stderr, "%s: %v\n", fs.Name(), err)
		return true, ExitError, nil
	}
	return false, ExitOK, srcs
}

// parseFlags parses the command line.
func parseFlags(s IO, fs *flag.FlagSet, args []string) (done bool, code int) {
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
			if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: "); ok {
				fmt.Fprintf(s.Stderr, "unknown flag %s%s\n", name, didYouMean("--"+strings.TrimLeft(name, "-"), flagNames(fs)))
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

// printDefaults is flag.PrintDefaults with long flags spelled as the
// README spells them: --all, not -all (the flag package takes both).
func printDefaults(fs *flag.FlagSet) {
	w := fs.Output()
	fs.VisitAll(func(f *flag.Flag) {
		if long, ok := shortOf()[f.Name]; ok && fs.Lookup(long) != nil {
			return // printed with its short form
		}
		name, usage := flag.UnquoteUsage(f)
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-"
		}
		line := "  " + dash + f.Name
		for long, short := range shortOf() {
			if short == f.Name && fs.Lookup(long) != nil {
				line += ", --" + long
			}
		}
		if name != "" {
			line += " " + name
		}
		line += "\n    \t" + strings.ReplaceAll(usage, "\n", "\n    \t")
		if d := f.DefValue; d != "" && d != "false" && d != "0" && d != "[]" {
			if _, isString := f.Value.(interface{ IsBoolFlag() bool }); !isString && name == "string" {
				line += fmt.Sprintf(" (default %q)", d)
			} else {
				line += fmt.Sprintf(" (default %v)", d)
			}
		}
		fmt.Fprintln(w, line)
	})
}

// shortOf maps a long flag to the one-letter flag it is another name
// for; help prints them on one line ("-o, --output FILE").
func shortOf() map[string]string { return map[string]string{"output": "o"} }

// flagNames lists a flag set's flags as --name.
func flagNames(fs *flag.FlagSet) []string {
	var out []string
	fs.VisitAll(func(f *flag.Flag) { out = append(out, "--"+f.Name) })
	return out
}

// fail prints an error for a verb and returns ExitError.
func fail(s IO, verb string, err error) int {
	msg := err.Error()
	msg = strings.TrimSpace(msg)
	fmt.Fprintf(s.Stderr, "realdrift %s: %s\n", verb, msg)
	return ExitError
}
