package cli

import "os"

// StdIO is the IO of a process: its streams, whether each is a terminal
// (IsTerminal), and its environment. main uses it, and so do the
// pseudo-terminal tests, so both decide interactivity the same way.
func StdIO(stdin, stdout, stderr *os.File, getenv func(string) string) IO {
	return IO{
		Stdin:  stdin,
		Stdout: stdout,
		Stderr: stderr,
		Getenv: getenv,
		IsTTY:  IsTerminal(stdout),
		// A prompt needs a terminal on both ends.
		StdinTTY:  IsTerminal(stdin),
		StderrTTY: IsTerminal(stderr),
	}
}
