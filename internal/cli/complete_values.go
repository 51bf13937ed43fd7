package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/realdrift/realdrift/internal/scan"
)

// subVerbs are the sub-verbs of the verbs that take one first, the one
// table completion offers them from (TestCompletionSubVerbs runs each).
func subVerbs() map[string][]string {
	return map[string][]string{
		"sandbox":  {"serve", "world", "change", "delete", "add", "calls"},
		"schema":   {"show", "stats"},
		"baseline": {"push", "pull"},
	}
}

// flagValues are the values completion offers for a verb's flag.
func flagValues() map[string]map[string][]string {
	return map[string]map[string][]string{
		"check": {"format": checkFormats()},
	}
}

// stackVerbs take stack names (or globs) as arguments: completion offers
// the account's stacks to them.
func stackVerbs() []string { return []string{"check", "record", "ignore", "revert", "diff"} }

// stackListTimeout bounds the stack-name listing a completion runs.
const stackListTimeout = 3 * time.Second

// hasCredentials reports whether the environment names AWS credentials:
// keys, a profile, a web identity, a container endpoint, or a shared
// credentials or config file. Without them completion makes no call.
func hasCredentials(s IO) bool {
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_PROFILE", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"} {
		if getenv(s, k) != "" {
			return true
		}
	}
	files := []string{getenv(s, "AWS_SHARED_CREDENTIALS_FILE"), getenv(s, "AWS_CONFIG_FILE")}
	if home := getenv(s, "HOME"); home != "" {
		files = append(files, filepath.Join(home, ".aws", "credentials"), filepath.Join(home, ".aws", "config"))
	}
	for _, f := range files {
		if f == "" {
			continue
		}
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// runCompleteStacks is `completion stacks`: the names of the stacks in the
// region, one a line, for the shells' scripts. It never fails a
// completion: without credentials it prints nothing and makes no call,
// and any error (or the stackListTimeout passing) prints nothing.
func runCompleteStacks(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "completion stacks", "[--region R] [--profile P] [--endpoint-url URL]\n\nPrints the region's stack names for shell completion (nothing without credentials or after 3 s).")
	f := &stackFlags{maxAttempts: 1, callTimeout: stackListTimeout, connectTimeout: time.Second, firstByteTimeout: 2 * time.Second}
	fs.StringVar(&f.region, "region", "", "AWS region")
	fs.StringVar(&f.profile, "profile", "", "AWS profile")
	fs.StringVar(&f.endpointURL, "endpoint-url", "", "AWS endpoint URL")
	if done, code := parse(s, fs, args); done {
		return code
	}
	if !hasCredentials(s) {
		return ExitOK
	}
	ctx, cancel := context.WithTimeout(ctx, stackListTimeout)
	defer cancel()
	region, err := f.resolveRegion(ctx, s, nil)
	if err != nil {
		return ExitOK
	}
	sess := &session{flags: f, io: s, clients: map[string]*scan.Clients{}, sched: scan.NewScheduler(scan.SchedulerOptions{Concurrency: 1})}
	defer sess.close()
	sess.settings = f.awsSettings(s, region)
	sess.settings.Scheduler = sess.sched
	c, err := sess.clientsFor(ctx, region)
	if err != nil {
		return ExitOK
	}
	listed, err := scan.ListStackTree(ctx, c)
	if err != nil {
		return ExitOK
	}
	names := make([]string, len(listed))
	for i, st := range listed {
		names[i] = st.Name
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintln(s.Stdout, n)
	}
	return ExitOK
}
