package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/config"

	"github.com/realdrift/realdrift/internal/ignore"
	"github.com/realdrift/realdrift/internal/region"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/store"
)

// stackFlags are the flags every verb that checks stacks shares: where the
// stacks are (account, region, endpoint), which stacks, and where state
// files live.
type stackFlags struct {
	all         bool
	region      string
	profile     string
	app         string
	endpointURL string
	stateDir    string
	// storeURL is --store: a table or a state directory (statestore.go).
	storeURL    string
	concurrency int
	// schemaSource is "snapshot" (DescribeType only for types the
	// embedded snapshot lacks) or "live" (DescribeType for every type).
	schemaSource string
	// The deadlines and attempts of one AWS call.
	connectTimeout   time.Duration
	firstByteTimeout time.Duration
	callTimeout      time.Duration
	maxAttempts      int
	// noRecursive leaves nested stacks out (check, record and ignore
	// register --no-recursive; diff has its own --recursive).
	noRecursive bool
}

func (f *stackFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.all, "all", false, "every stack: of the app with --app, else every stack of the account and region")
	fs.StringVar(&f.region, "region", "", "AWS region (default: AWS_REGION, AWS_DEFAULT_REGION, then the profile's region)")
	fs.StringVar(&f.profile, "profile", "", "shared-config profile (default: AWS_PROFILE, else the default chain)")
	fs.StringVar(&f.app, "app", "", "a CDK cloud assembly directory (cdk.out), or an app command run with CDK_OUTDIR set; it decides which stacks are in scope and their construct paths")
	fs.StringVar(&f.endpointURL, "endpoint-url", "", "send every AWS call to this endpoint (e.g. a realdrift sandbox; default: AWS_ENDPOINT_URL)")
	fs.StringVar(&f.stateDir, "state-dir", "", "directory of baselines and ignore.yaml (default .realdrift, reading .cdkrd too)")
	fs.StringVar(&f.storeURL, "store", "", storeFlagHelp)
	fs.IntVar(&f.concurrency, "concurrency", scan.DefaultConcurrency, "most AWS calls in flight over the whole run (stacks are checked side by side; each API's rate adapts to throttling)")
	fs.StringVar(&f.schemaSource, "schema", "snapshot", "where schema facts come from: snapshot (the embedded registry snapshot; DescribeType only for types it lacks) or live (DescribeType for every type, once per type)")
	fs.DurationVar(&f.connectTimeout, "connect-timeout", scan.DefaultConnectTimeout, "deadline to connect to an AWS endpoint (each attempt)")
	fs.DurationVar(&f.firstByteTimeout, "first-byte-timeout", scan.DefaultFirstByteTimeout, "deadline for the first byte of an answer once a request is sent (each attempt)")
	fs.DurationVar(&f.callTimeout, "call-timeout", scan.DefaultCallTimeout, "deadline of one AWS call, all its retries included; a resource read that runs out of time is skipped, a stack-level call is a stack error")
	fs.IntVar(&f.maxAttempts, "max-attempts", scan.DefaultMaxAttempts, "most attempts of one AWS call (retries on throttling, 5xx and timeouts)")
}

// target is one stack to check.
type target struct {
	name   string
	region string
	// app is the stack's cloud-assembly entry (nil without --app).
	app *appStack
}

// session is what a verb needs to check stacks: the chosen stacks, the
// clients of each region, the state (directory or table) and the ignore
// rules.
type session struct {
	flags   *stackFlags
	targets []target
	state   *state
	rules   []ignore.Rule
	// settings is the AWS settings of the default region; clients holds
	// one client set per region, built on first use.
	settings scan.Settings
	// sched bounds and paces every AWS call of the session (all regions).
	sched   *scan.Scheduler
	mu      sync.Mutex // guards clients
	clients map[string]*scan.Clients
	// app is the --app assembly (nil without --app).
	app *appAssembly
	// offline: diff --template, no AWS call; strict: diff --strict.
	offline, strict bool
	// io is the verb's streams and environment.
	io IO
	// checked is set once preflight passed (guarded by mu).
	checked bool
}

// close releases what open made: an app command's temporary assembly.
func (sess *session) close() {
	if sess != nil {
		sess.app.remove()
	}
}

// validate checks flag values that do not need I/O.
func (f *stackFlags) validate() error {
	if f.concurrency < 1 {
		return fmt.Errorf("--concurrency must be at least 1 (got %d)", f.concurrency)
	}
	if f.schemaSource != "snapshot" && f.schemaSource != "live" {
		return fmt.Errorf("--schema must be snapshot or live (got %q)", f.schemaSource)
	}
	if _, err := f.stateURL(); err != nil {
		return err
	}
	if f.maxAttempts < 1 {
		return fmt.Errorf("--max-attempts must be at least 1 (got %d)", f.maxAttempts)
	}
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"--connect-timeout", f.connectTimeout}, {"--first-byte-timeout", f.firstByteTimeout}, {"--call-timeout", f.callTimeout}} {
		if d.v <= 0 {
			return fmt.Errorf("%s must be positive (got %s)", d.flag, d.v)
		}
	}
	return nil
}

// open reads the app (with --app), resolves the region, opens the state
// (directory or table), loads the ignore rules and picks the stacks
// matching patterns. Every failure here is a usage or input error (exit 2).
func (f *stackFlags) open(ctx context.Context, s IO, patterns []string) (*session, error) {
	if err := f.validate(); err != nil {
		return nil, err
	}
	var err error
	sess := &session{flags: f, io: s, clients: map[string]*scan.Clients{}, sched: scan.NewScheduler(scan.SchedulerOptions{Concurrency: f.concurrency})}
	var app *appAssembly
	if f.app != "" {
		if app, err = loadApp(ctx, s, f.app); err != nil {
			return nil, err
		}
		sess.app = app
	}
	ok := false
	defer func() {
		if !ok {
			sess.close()
		}
	}()
	region, err := f.resolveRegion(ctx, s, app)
	if err != nil {
		return nil, err
	}
	sess.settings = f.awsSettings(s, region)
	sess.settings.Scheduler = sess.sched
	if sess.state, err = f.openState(ctx, s, region, sess.settings); err != nil {
		return nil, err
	}
	if sess.rules, err = ignore.LoadStored(ctx, sess.state.docs, ""); err != nil {
		return nil, sess.state.explain(err)
	}

	if f.all {
		patterns = nil
	}
	if app != nil {
		names := make([]string, 0, len(app.stacks))
		byName := map[string]*appStack{}
		for i := range app.stacks {
			st := &app.stacks[i]
			names = append(names, st.name)
			byName[st.name] = st
		}
		sort.Strings(names)
		picked, err := matchStacks(names, patterns)
		if err != nil {
			return nil, fmt.Errorf("--app %s: %w", f.app, err)
		}
		for _, n := range picked {
			st := byName[n]
			r := region
			if st.region != "" {
				r = st.region // a stack's pinned environment wins, as in a deploy
			}
			sess.targets = append(sess.targets, target{name: n, region: r, app: st})
		}
		ok = true
		return sess, nil
	}
	if len(patterns) == 0 && !f.all {
		return nil, errors.New("name one or more stacks (exact names or globs such as 'Prod*'), or pass --all")
	}
	c, err := sess.clientsFor(ctx, region)
	if err != nil {
		return nil, err
	}
	listed, err := scan.ListStackTree(ctx, c)
	if err != nil {
		return nil, explain(err)
	}
	names := make([]string, len(listed))
	for i, s := range listed {
		names[i] = s.Name
	}
	sort.Strings(names)
	picked, err := matchStacks(names, patterns)
	if err != nil {
		return nil, err
	}
	if len(picked) == 0 {
		return nil, fmt.Errorf("no stack deployed in %s", region)
	}
	if !f.noRecursive {
		picked = topLevel(picked, listed)
	}
	for _, n := range picked {
		sess.targets = append(sess.targets, target{name: n, region: region})
	}
	ok = true
	return sess, nil
}

// matchStacks is scan.MatchStacks with "did you mean" for a name that
// matches no stack.
func matchStacks(names, patterns []string) ([]string, error) {
	picked, err := scan.MatchStacks(names, patterns)
	if err == nil {
		return picked, nil
	}
	for _, p := range patterns {
		if m, _ := scan.MatchStacks(names, []string{p}); len(m) == 0 {
			if hint := didYouMean(p, names); hint != "" {
				return nil, fmt.Errorf("%w%s", err, hint)
			}
		}
	}
	return nil, err
}

// stateDir opens the state directory (--state-dir, else .realdrift reading
// .cdkrd too) under the working directory as a file store: every baseline
// and ignore-rules read and write of the CLI goes through it.
func stateDir(flag string) (*store.File, error) {
	root, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("working directory: %w", err)
	}
	return store.StateDir(root, flag), nil
}

// awsSettings are the settings of the verb's AWS calls in region: profile,
// endpoint, the verb's keys and the deadlines (no scheduler).
func (f *stackFlags) awsSettings(s IO, region string) scan.Settings {
	st := scan.Settings{
		Region:      region,
		Profile:     f.profileName(s),
		EndpointURL: firstNonEmpty(f.endpointURL, getenv(s, "AWS_ENDPOINT_URL")),

		MaxAttempts:      f.maxAttempts,
		ConnectTimeout:   f.connectTimeout,
		FirstByteTimeout: f.firstByteTimeout,
		CallTimeout:      f.callTimeout,
	}
	// Keys from the verb's environment are passed on explicitly (tests and
	// the demo give them through IO); a session token means temporary
	// credentials, which the SDK's own chain reads with the token.
	if id, secret := getenv(s, "AWS_ACCESS_KEY_ID"), getenv(s, "AWS_SECRET_ACCESS_KEY"); id != "" && secret != "" && getenv(s, "AWS_SESSION_TOKEN") == "" {
		st.AccessKeyID, st.SecretAccessKey = id, secret
	}
	return st
}

func (f *stackFlags) profileName(s IO) string {
	if f.profile != "" {
		return f.profile
	}
	return getenv(s, "AWS_PROFILE")
}

// resolveRegion: --region, else AWS_REGION / AWS_DEFAULT_REGION, else the
// profile's region from the shared config files; with --app, a region
// every chosen stack pins is enough. No region is an error, never a guess;
// so is a name that is not a region ("us-east1"), naming where it came
// from with a suggestion (package region: AWS's partition data).
func (f *stackFlags) resolveRegion(ctx context.Context, s IO, app *appAssembly) (string, error) {
	if f.region != "" {
		return checkRegion(f.region, "--region")
	}
	for _, k := range []string{"AWS_REGION", "AWS_DEFAULT_REGION"} {
		if v := getenv(s, k); v != "" {
			return checkRegion(v, k)
		}
	}
	if r := profileRegion(ctx, s, f.profileName(s)); r != "" {
		return checkRegion(r, "the profile's region")
	}
	if app != nil && app.allPinned() {
		return app.stacks[0].region, nil
	}
	return "", errors.New("no region: pass --region, set AWS_REGION, or configure a region for the profile")
}

// profileRegion reads the region of profile (or of "default") from the
// shared config files named by the verb's environment, "" when none.
func profileRegion(ctx context.Context, s IO, profile string) string {
	var files []string
	if p := getenv(s, "AWS_CONFIG_FILE"); p != "" {
		files = []string{p}
	} else if home := getenv(s, "HOME"); home != "" {
		files = []string{home + "/.aws/config"}
	} else {
		return ""
	}
	for _, name := range []string{profile, "default"} {
		if name == "" {
			continue
		}
		sc, err := config.LoadSharedConfigProfile(ctx, name, func(o *config.LoadSharedConfigOptions) {
			o.ConfigFiles = files
			o.CredentialsFiles = []string{}
		})
		if err == nil && sc.Region != "" {
			return sc.Region
		}
	}
	return ""
}

// clientsFor returns the clients of region, building them once. It is
// safe for concurrent use.
func (sess *session) clientsFor(ctx context.Context, region string) (*scan.Clients, error) {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if c, ok := sess.clients[region]; ok {
		return c, nil
	}
	st := sess.settings
	st.Region = region
	cfg, err := sdkConfig(ctx, st)
	if err != nil {
		return nil, err
	}
	if !sess.checked {
		// Once per run, before the first call: an endpoint nothing
		// listens on and missing credentials fail fast, saying what to do.
		if err := preflight(ctx, st, cfg, sess.flags.profileName(sess.io)); err != nil {
			return nil, err
		}
		sess.checked = true
	}
	c := scan.NewClients(cfg)
	sess.clients[region] = c
	return c, nil
}

// checkRegion returns name when it is an AWS region name, else an error
// saying where it came from, with a "did you mean".
func checkRegion(name, from string) (string, error) {
	if region.Valid(name) {
		return name, nil
	}
	return "", fmt.Errorf("%s %q is not an AWS region%s (regions look like us-east-1)", from, name, didYouMean(name, region.Known()))
}
