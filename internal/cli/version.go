package cli

import (
	"context"
	"fmt"
	"runtime/debug"
)

// The release stamp, set by the linker for release builds (.goreleaser.yaml,
// scripts/release):
//
//	-X github.com/realdrift/realdrift/internal/cli.releaseVersion=v1.2.3
//	-X github.com/realdrift/realdrift/internal/cli.releaseCommit=0123abcd…
//	-X github.com/realdrift/realdrift/internal/cli.releaseDate=2026-01-02T03:04:05Z
//
// They are written only by the linker, never at run time. Empty (a plain go
// build) leaves the module version and the VCS stamp of the build info.
var releaseVersion, releaseCommit, releaseDate string

// stamp is the release stamp a build carries.
type stamp struct{ version, commit, date string }

// versionLine is "realdrift VERSION (commit REV[, modified], TIME) GO":
// the release stamp, else the module version and VCS stamp the Go
// toolchain put in the binary.
func versionLine() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		info = &debug.BuildInfo{}
	}
	return versionOf(info, stamp{releaseVersion, releaseCommit, releaseDate})
}

// toolVersion is the version reports name: the release tag, else the
// module version ("(devel)" for a plain build).
func toolVersion() string {
	if releaseVersion != "" {
		return releaseVersion
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

func versionOf(info *debug.BuildInfo, st stamp) string {
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
	if st.version != "" {
		v = st.version
	}
	if st.commit != "" {
		rev, when, modified = st.commit, st.date, false
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
	if info.GoVersion == "" {
		return line
	}
	return line + " " + info.GoVersion
}

func runVersion(_ context.Context, s IO, args []string) int {
	fs := newFlags(s, "version", "\n\nPrints the version and the VCS commit the binary was built from: the release's tag and commit\n(set at link time by release builds), else the module version and the Go toolchain's VCS stamp.")
	if done, code := parse(s, fs, args); done {
		return code
	}
	fmt.Fprintln(s.Stdout, versionLine())
	return ExitOK
}
