package cli

import (
	"context"
	"fmt"
	"runtime/debug"
)

// versionLine is "realdrift VERSION (commit REV[, modified], TIME) GO":
// the module version and VCS stamp the Go toolchain put in the binary.
func versionLine() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "realdrift (no build information)"
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, when string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	line := "realdrift " + v
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		line += " (commit " + rev
		if modified {
			line += ", modified"
		}
		if when != "" {
			line += ", " + when
		}
		line += ")"
	}
	return line + " " + info.GoVersion
}

func runVersion(_ context.Context, s IO, args []string) int {
	fs := newFlags(s, "version", "\n\nPrints the module version and the VCS commit the binary was built from.")
	if done, code := parse(s, fs, args); done {
		return code
	}
	fmt.Fprintln(s.Stdout, versionLine())
	return ExitOK
}
