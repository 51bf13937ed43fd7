package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
	"github.com/realdrift/realdrift/internal/schema"
)

const sandboxSynopsis = `serve [--world FILE] [--addr 127.0.0.1:PORT]
       realdrift sandbox world --from-corpus DIR -o FILE
       realdrift sandbox world --demo [--corpus DIR] [--drift] -o FILE
       realdrift sandbox change|delete|add|calls [flags]   (see realdrift sandbox change --help)`

func runSandbox(ctx context.Context, s IO, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintf(s.Stdout, "Usage: realdrift sandbox %s\n", sandboxSynopsis)
		if len(args) == 0 {
			return ExitError
		}
		return ExitOK
	}
	switch args[0] {
	case "serve":
		return runSandboxServe(ctx, s, args[1:])
	case "world":
		return runSandboxWorld(s, args[1:])
	case "change", "delete", "add", "calls":
		return runSandboxAdmin(ctx, s, args[0], args[1:])
	}
	return fail(s, "sandbox", fmt.Errorf("unknown subcommand %q (serve, world, change, delete, add or calls)%s", args[0], didYouMean(args[0], []string{"serve", "world", "change", "delete", "add", "calls"})))
}

func runSandboxServe(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "sandbox serve", "[--world FILE] [--addr 127.0.0.1:PORT] [--page-size N] [--operation-delay D] [--local-queue-urls]\n\nServes the world (the demo organisation without --world) and prints the URL,\nthe access keys each account answers to and the admin routes.")
	world := fs.String("world", "", "world file (JSON) to serve (default: the demo world, as sandbox world --demo builds it)")
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on (port 0 picks a free one)")
	pageSize := fs.Int("page-size", 100, "page size of paginated list calls")
	opDelay := fs.Duration("operation-delay", 20*time.Millisecond, "how long a Cloud Control create, update or delete request stays IN_PROGRESS (and can be cancelled) before it applies")
	localQueues := fs.Bool("local-queue-urls", false, "name every SQS queue at this server in answers (http://ADDR/queues/REGION/ACCOUNT/NAME), for clients that send SQS calls to a queue's URL, as the JavaScript SDK does; requests may use either form")
	if done, code := parse(s, fs, args); done {
		return code
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return fail(s, "sandbox serve", fmt.Errorf("--addr: %w", err))
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fail(s, "sandbox serve", fmt.Errorf("--addr %s is not a loopback address", *addr))
	}
	if *opDelay <= 0 {
		return fail(s, "sandbox serve", errors.New("--operation-delay must be positive (a duration such as 20ms or 10m)"))
	}
	var w *sandbox.World
	if *world == "" {
		cases, err := worldgen.DemoCases()
		if err == nil {
			w, err = worldgen.Demo(cases)
		}
		if err != nil {
			return fail(s, "sandbox serve", fmt.Errorf("the demo world: %w", err))
		}
	} else if w, err = sandbox.LoadWorld(*world); err != nil {
		return fail(s, "sandbox serve", err)
	}
	if *pageSize < 1 {
		return fail(s, "sandbox serve", errors.New("--page-size must be at least 1"))
	}
	opts := sandbox.Options{PageSize: *pageSize, OperationDelay: *opDelay, LocalQueueURLs: *localQueues}
	if snap, err := schema.Embedded(); err == nil {
		opts.Facts = snap.Lookup
	} else {
		fmt.Fprintf(s.Stderr, "realdrift sandbox serve: no schema snapshot (%v); DescribeType answers only the world's schemas\n", err)
	}
	srv, err := sandbox.New(w, opts)
	if err != nil {
		return fail(s, "sandbox serve", err)
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fail(s, "sandbox serve", err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(s.Stdout, "sandbox listening on http://%s\n", ln.Addr())
	printServed(s.Stdout, w, *world == "", "http://"+ln.Addr().String())
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fail(s, "sandbox serve", err)
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
		return ExitOK
	}
}

func runSandboxWorld(s IO, args []string) int {
	fs := newFlags(s, "sandbox world", "(--from-corpus DIR | --demo [--corpus DIR] [--drift]) -o FILE")
	from := fs.String("from-corpus", "", "golden-corpus directory to build the world from")
	demo := fs.Bool("demo", false, "build the demo organisation")
	corpusDir := fs.String("corpus", "", "demo: corpus directory whose recordings seed the live models (default $REALDRIFT_CORPUS_DIR, else "+builtInRecordings+")")
	plant := fs.Bool("drift", false, "demo: plant the demo's out-of-band changes in the dev account's us-east-1")
	out := fs.String("o", "", "output world file ('-' for stdout)")
	if done, code := parse(s, fs, args); done {
		return code
	}
	if !*demo && (*corpusDir != "" || *plant) {
		return fail(s, "sandbox world", errors.New("--corpus and --drift go with --demo"))
	}
	if (*from == "") == !*demo {
		return fail(s, "sandbox world", errors.New("give exactly one of --from-corpus DIR and --demo"))
	}
	if *out == "" {
		return fail(s, "sandbox world", errors.New("-o FILE is required"))
	}
	var w *sandbox.World
	code := ExitOK
	if *demo {
		dir := *corpusDir
		if dir == "" && s.Getenv != nil {
			dir = s.Getenv("REALDRIFT_CORPUS_DIR")
		}
		cases, err := demoCases(dir)
		if err != nil {
			return fail(s, "sandbox world", fmt.Errorf("demo recordings (--corpus): %w", err))
		}
		if w, err = worldgen.Demo(cases); err != nil {
			return fail(s, "sandbox world", err)
		}
		if *plant {
			if w, err = plantDemoDrift(w); err != nil {
				return fail(s, "sandbox world", err)
			}
		}
	} else {
		// A bad case is reported and left out of the world; the world is
		// still written, and the exit status is 2 at the end.
		cases, loadErr := corpus.LoadDirs(*from)
		if bad := reportBadCases(s, "sandbox world", loadErr); len(cases) == 0 {
			if bad > 0 || loadErr != nil {
				return ExitError
			}
			return fail(s, "sandbox world", fmt.Errorf("no corpus case in %s", *from))
		}
		var err error
		if w, err = worldgen.FromCorpus(cases); err != nil {
			return fail(s, "sandbox world", err)
		}
		if loadErr != nil {
			code = ExitError
		}
	}
	data, err := w.Marshal()
	if err != nil {
		return fail(s, "sandbox world", err)
	}
	// Validate what we wrote, so a generator bug never ships a bad world.
	if _, err := sandbox.ParseWorld(data); err != nil {
		return fail(s, "sandbox world", fmt.Errorf("generated world is invalid: %w", err))
	}
	keysTo := s.Stdout
	if *out == "-" {
		_, err = s.Stdout.Write(data)
		keysTo = s.Stderr
	} else {
		err = os.WriteFile(*out, data, 0o644)
	}
	if err != nil {
		return fail(s, "sandbox world", err)
	}
	// The keys the world's accounts answer to (stderr when the world
	// itself goes to stdout).
	printKeys(keysTo, w)
	return code
}

// plantDemoDrift applies the demo's out-of-band changes to the dev
// account's us-east-1 through a sandbox server and returns the changed world.
func plantDemoDrift(w *sandbox.World) (*sandbox.World, error) {
	dev := worldgen.DemoAccounts()[1].ID
	changes, err := worldgen.DemoDrift(w, dev, "us-east-1")
	if err != nil {
		return nil, err
	}
	srv, err := sandbox.New(w, sandbox.Options{})
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	for _, ch := range changes {
		if err := srv.Apply(ch.Change); err != nil {
			return nil, fmt.Errorf("plant %q: %w", ch.Story, err)
		}
	}
	data, err := srv.Snapshot()
	if err != nil {
		return nil, err
	}
	return sandbox.ParseWorld(data)
}

// printServed says what sandbox serve serves: the world, the access keys
// each account answers to and the admin routes under url.
func printServed(out io.Writer, w *sandbox.World, demo bool, url string) {
	if demo {
		fmt.Fprintln(out, "world: the demo organisation (no --world)")
	}
	printKeys(out, w)
	fmt.Fprintln(out, "admin routes:")
	for _, r := range sandbox.AdminRoutes() {
		fmt.Fprintf(out, "  %-6s %s%s  %s\n", r.Method, url, r.Path, r.About)
	}
}

// printKeys lists the access keys each account of w answers to.
func printKeys(out io.Writer, w *sandbox.World) {
	fmt.Fprintln(out, "access keys (the secret key is not checked; any other key is refused, as AWS refuses a key it does not know):")
	for _, a := range w.Accounts {
		name := a.ID
		if a.Name != "" {
			name += " (" + a.Name + ")"
		}
		if len(a.AccessKeys) == 0 {
			fmt.Fprintf(out, "  %s: none\n", name)
		}
		for _, k := range a.AccessKeys {
			as := "user " + k.UserName
			switch {
			case k.Role != "":
				as = "role " + k.Role
			case k.UserName == "":
				as = "root"
			}
			fmt.Fprintf(out, "  %s: %s (%s)\n", name, k.ID, as)
		}
	}
}
