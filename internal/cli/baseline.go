package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/store"
)

const baselineSynopsis = `push|pull --store dynamodb://TABLE[?region=REGION] [--state-dir DIR] [--endpoint-url URL] [STACK.ACCOUNT.REGION ...]

Moves baselines and the default ignore rules between the state directory
(.realdrift, reading .cdkrd too) and the service's DynamoDB table, so the
CLI and the service check against the same documents.

push writes every baseline of the state directory (or only the named
stacks) and ignore.yaml to the table, replacing what the table holds.
pull writes the named stacks' baselines and the table's default ignore
rules to the state directory. The table is never scanned, so pull needs the
stacks named (STACK.ACCOUNT.REGION, as the baseline files are named).

Credentials and region come from the usual AWS chain (AWS_PROFILE,
AWS_ACCESS_KEY_ID, ...); ?region= in the store URL wins over AWS_REGION.`

func runBaseline(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "baseline", baselineSynopsis)
	storeFlag := fs.String("store", "", "the service's table: dynamodb://TABLE[?region=REGION]")
	stateFlag := fs.String("state-dir", "", "directory of baselines and ignore.yaml (default .realdrift, reading .cdkrd too)")
	endpoint := fs.String("endpoint-url", "", "send DynamoDB calls to this endpoint (DynamoDB Local)")
	profile := fs.String("profile", "", "shared-config profile")
	if done, code := parse(s, fs, args); done {
		return code
	}
	pos := fs.Args()
	if len(pos) == 0 || (pos[0] != "push" && pos[0] != "pull") {
		return fail(s, "baseline", errors.New("want push or pull"))
	}
	dir := pos[0]
	su, err := tableURL(*storeFlag)
	if err != nil {
		return fail(s, "baseline", err)
	}
	stacks, err := parseStackFiles(pos[1:])
	if err != nil {
		return fail(s, "baseline", err)
	}
	if su, err = tableIn(s, su); err != nil {
		return fail(s, "baseline", err)
	}
	cfg, err := scan.Config(ctx, scan.Settings{
		Region: su.Region, Profile: *profile, EndpointURL: *endpoint,
		AccessKeyID: s.Getenv("AWS_ACCESS_KEY_ID"), SecretAccessKey: s.Getenv("AWS_SECRET_ACCESS_KEY"),
	})
	if err != nil {
		return fail(s, "baseline", err)
	}
	table := store.NewDynamo(dynamodb.NewFromConfig(cfg), su.Table)
	files, err := stateDir(*stateFlag)
	if err != nil {
		return fail(s, "baseline", err)
	}
	var from, to docStore = files, table
	tableState := &state{docs: table, url: su}
	fromName, toName := files.Dir(), su.String()
	if dir == "pull" {
		from, to, fromName, toName = table, files, toName, fromName
		if len(stacks) == 0 {
			fmt.Fprintln(s.Stderr, "realdrift baseline pull: no stacks named; pulling the ignore rules only (the table is never scanned)")
		}
	} else if len(stacks) == 0 {
		if stacks, err = localBaselines(files); err != nil {
			return fail(s, "baseline", err)
		}
	}
	moved, failed := 0, 0
	for _, ref := range stacks {
		switch err := moveDoc(ctx, from.GetBaseline, to.GetBaseline, to.PutBaseline, ref); {
		case errors.Is(err, store.ErrNotFound):
			fmt.Fprintf(s.Stderr, "%s: no baseline in %s\n", stackFile(ref), fromName)
			failed++
		case err != nil:
			fmt.Fprintf(s.Stderr, "%s: %v\n", stackFile(ref), tableState.explain(err))
			failed++
		default:
			fmt.Fprintf(s.Stdout, "%s baseline %s → %s\n", stackFile(ref), fromName, toName)
			moved++
		}
	}
	switch err := moveDoc(ctx, from.GetIgnoreRules, to.GetIgnoreRules, to.PutIgnoreRules, ""); {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		fmt.Fprintf(s.Stderr, "ignore rules: %v\n", tableState.explain(err))
		failed++
	default:
		fmt.Fprintf(s.Stdout, "ignore rules %s → %s\n", fromName, toName)
		moved++
	}
	fmt.Fprintf(s.Stdout, "%d moved, %d failed\n", moved, failed)
	if failed > 0 {
		return ExitError
	}
	return ExitOK
}

// docStore is the part of both stores baseline push|pull moves.
type docStore interface {
	store.Baselines
	store.IgnoreRules
}

var (
	_ docStore = (*store.File)(nil)
	_ docStore = (*store.Dynamo)(nil)
)

// moveDoc copies one versioned document, replacing the destination's copy
// (read its version, write over it; once more on a concurrent write).
func moveDoc[K any](ctx context.Context,
	get func(context.Context, K) ([]byte, int64, error),
	getTo func(context.Context, K) ([]byte, int64, error),
	put func(context.Context, K, []byte, int64) (int64, error), key K) error {
	doc, _, err := get(ctx, key)
	if err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		_, v, err := getTo(ctx, key)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		_, err = put(ctx, key, doc, v)
		if !errors.Is(err, store.ErrConflict) || attempt > 0 {
			return err
		}
	}
}

var stackFileRE = regexp.MustCompile(`^([A-Za-z][-A-Za-z0-9]*)\.([0-9]{12})\.([a-z]{2}(?:-gov|-iso[a-z]*)?-[a-z]+-[0-9])$`)

// parseStackFiles reads STACK.ACCOUNT.REGION arguments.
func parseStackFiles(args []string) ([]drift.StackRef, error) {
	var out []drift.StackRef
	for _, a := range args {
		m := stackFileRE.FindStringSubmatch(strings.TrimSuffix(a, ".json"))
		if m == nil {
			return nil, fmt.Errorf("%q is not STACK.ACCOUNT.REGION", a)
		}
		out = append(out, drift.StackRef{Name: m[1], Account: m[2], Region: m[3]})
	}
	return out, nil
}

func stackFile(ref drift.StackRef) string { return ref.Name + "." + ref.Account + "." + ref.Region }

// localBaselines lists the stacks with a baseline file in the state
// directory or its .cdkrd lower layer.
func localBaselines(f *store.File) ([]drift.StackRef, error) {
	seen := map[string]drift.StackRef{}
	for _, dir := range []string{f.Dir(), f.Fallback()} {
		if dir == "" {
			continue
		}
		names, err := filepath.Glob(filepath.Join(dir, "baselines", "*.json"))
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			refs, err := parseStackFiles([]string{filepath.Base(n)})
			if err != nil {
				continue // not a baseline file name
			}
			seen[stackFile(refs[0])] = refs[0]
		}
	}
	if len(seen) == 0 {
		if _, err := os.Stat(f.Dir()); err != nil {
			return nil, fmt.Errorf("no baselines to push: %w", err)
		}
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]drift.StackRef, 0, len(keys))
	for _, k := range keys {
		out = append(out, seen[k])
	}
	return out, nil
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
