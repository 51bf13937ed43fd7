package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/aws/aws-sdk-go-v2/service/cloudformation"

	"github.com/realdrift/realdrift/internal/report"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/schema"
)

// schemaVerbs is the registration table of "realdrift schema" sub-verbs.
func schemaVerbs() []command {
	return []command{
		{"show", "print a resource type's facts as JSON", runSchemaShow, false},
		{"stats", "summarise the embedded schema snapshot", runSchemaStats, false},
	}
}

func runSchema(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "schema", "<show TYPE | stats> [flags]")
	baseUsage := fs.Usage
	fs.Usage = func() {
		baseUsage()
		fmt.Fprintln(fs.Output(), "\nSub-commands:")
		for _, v := range schemaVerbs() {
			fmt.Fprintf(fs.Output(), "  %-6s %s\n", v.name, v.summary)
		}
	}
	// Only the sub-verb name is parsed here; everything after it belongs to
	// the sub-verb, so its flags are not mistaken for ours.
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != "--" {
		i++
	}
	if done, code := parse(s, fs, args[:i]); done {
		return code
	}
	rest := args[i:]
	if len(rest) > 0 && rest[0] == "--" {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		fs.Usage()
		return fail(s, "schema", fmt.Errorf("missing sub-command (show TYPE or stats)"))
	}
	for _, v := range schemaVerbs() {
		if v.name == rest[0] {
			return v.run(ctx, s, rest[1:])
		}
	}
	return fail(s, "schema", fmt.Errorf("unknown sub-command %q (want show or stats)", rest[0]))
}

func runSchemaShow(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "schema show", "[--live --region R [--profile P] [--endpoint-url URL]] TYPE")
	live := fs.Bool("live", false, "ask the account's registry (CloudFormation DescribeType) first; the snapshot is the fallback")
	region := fs.String("region", "", "AWS region for --live (default: $AWS_REGION)")
	profile := fs.String("profile", "", "shared-config profile for --live")
	endpoint := fs.String("endpoint-url", "", "send --live calls to this endpoint (e.g. the sandbox)")
	if done, code := parse(s, fs, args); done {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return fail(s, "schema show", fmt.Errorf("want exactly one resource type (e.g. AWS::S3::Bucket), got %d arguments", fs.NArg()))
	}
	if !*live && (*region != "" || *profile != "" || *endpoint != "") {
		return fail(s, "schema show", fmt.Errorf("--region, --profile and --endpoint-url need --live"))
	}
	typeName := fs.Arg(0)
	snap, err := schema.Embedded()
	if err != nil {
		return fail(s, "schema show", err)
	}
	reg := schema.NewRegistry(nil, snap)
	if *live {
		if *region == "" {
			*region = getenv(s, "AWS_REGION")
		}
		cfg, err := scan.Config(ctx, scan.Settings{Region: *region, Profile: *profile, EndpointURL: *endpoint, MaxAttempts: 2})
		if err != nil {
			return fail(s, "schema show", err)
		}
		reg = schema.NewRegistry(cloudformation.NewFromConfig(cfg), snap)
	}
	res, err := reg.Resolve(ctx, typeName)
	if err != nil {
		if ctx.Err() != nil {
			return fail(s, "schema show", err)
		}
		msg := fmt.Sprintf("unknown resource type %q: not in the schema snapshot (%s@%s)", typeName, snap.Source().Package, snap.Source().Version)
		if res.DescribeErr != nil {
			msg += fmt.Sprintf(" and DescribeType failed: %v", res.DescribeErr)
		}
		if near := sameFold(snap.Types(), typeName); near != "" {
			msg += fmt.Sprintf("; did you mean %s?", near)
		}
		return fail(s, "schema show", fmt.Errorf("%s", msg))
	}
	if res.DescribeErr != nil {
		fmt.Fprintf(s.Stderr, "realdrift schema show: showing the snapshot (%s@%s): %v\n", snap.Source().Package, snap.Source().Version, res.DescribeErr)
	}
	b, err := json.MarshalIndent(res.Facts, "", "  ")
	if err != nil {
		return fail(s, "schema show", err)
	}
	fmt.Fprintf(s.Stdout, "%s\n", b)
	return ExitOK
}

func getenv(s IO, key string) string {
	if s.Getenv == nil {
		return ""
	}
	return s.Getenv(key)
}

// sameFold returns the type name equal to name under case folding, if any.
func sameFold(names []string, name string) string {
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return n
		}
	}
	return ""
}

// schemaStats is the summary "schema stats" prints; as JSON it is a
// report (report.schema.json's schemaStatsReport).
type schemaStats struct {
	report.Header
	Types         int           `json:"types"`
	Source        schema.Source `json:"source"`
	Readable      int           `json:"readable"`
	Updatable     int           `json:"updatable"`
	Provisionable int           `json:"provisionable"`
	NoHandlers    int           `json:"noHandlers"`
	Taggable      int           `json:"taggable"`
	WithWriteOnly int           `json:"withWriteOnly"`
	WithDefaults  int           `json:"withDefaults"`
	WithUnordered int           `json:"withUnorderedArrays"`
	WithFreeForm  int           `json:"withFreeFormMaps"`
	WithTransform int           `json:"withPropertyTransforms"`
	WithCondCO    int           `json:"withConditionalCreateOnly"`
}

func runSchemaStats(_ context.Context, s IO, args []string) int {
	fs := newFlags(s, "schema stats", "[--json]")
	asJSON := fs.Bool("json", false, "print the summary as JSON (report.schema.json, report \"schemaStats\")")
	if done, code := parse(s, fs, args); done {
		return code
	}
	if fs.NArg() != 0 {
		return fail(s, "schema stats", fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " ")))
	}
	snap, err := schema.Embedded()
	if err != nil {
		return fail(s, "schema stats", err)
	}
	st := summarise(snap)
	if *asJSON {
		st.Header = report.NewHeader(report.KindSchemaStats, toolVersion())
		b, err := json.MarshalIndent(st, "", "  ")
		if err != nil {
			return fail(s, "schema stats", err)
		}
		fmt.Fprintf(s.Stdout, "%s\n", b)
		return ExitOK
	}
	printStats(s.Stdout, st)
	return ExitOK
}

func summarise(snap *schema.Snapshot) schemaStats {
	st := schemaStats{Source: snap.Source()}
	count := func(n *int, cond bool) {
		if cond {
			*n++
		}
	}
	for _, name := range snap.Types() {
		f, _ := snap.Lookup(name)
		st.Types++
		count(&st.Readable, f.Readable())
		count(&st.Updatable, f.Updatable())
		count(&st.Provisionable, f.Provisionable())
		count(&st.NoHandlers, len(f.Handlers) == 0)
		count(&st.Taggable, f.Taggable)
		count(&st.WithWriteOnly, len(f.WriteOnlyPaths) > 0)
		count(&st.WithDefaults, len(f.DefaultPaths) > 0)
		count(&st.WithUnordered, len(f.UnorderedScalarPaths)+len(f.UnorderedObjectArrayPaths) > 0)
		count(&st.WithFreeForm, len(f.FreeFormMapPaths) > 0)
		count(&st.WithTransform, len(f.PropertyTransforms) > 0)
		count(&st.WithCondCO, len(f.ConditionalCreateOnlyPaths) > 0)
	}
	return st
}

func printStats(w io.Writer, st schemaStats) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "types\t%d\n", st.Types)
	fmt.Fprintf(tw, "source\t%s@%s\n", st.Source.Package, st.Source.Version)
	fmt.Fprintf(tw, "integrity\t%s\n", st.Source.Integrity)
	fmt.Fprintf(tw, "readable (Cloud Control read)\t%d\n", st.Readable)
	fmt.Fprintf(tw, "updatable (Cloud Control update)\t%d\n", st.Updatable)
	fmt.Fprintf(tw, "provisionable (Cloud Control create)\t%d\n", st.Provisionable)
	fmt.Fprintf(tw, "no handlers\t%d\n", st.NoHandlers)
	fmt.Fprintf(tw, "taggable\t%d\n", st.Taggable)
	fmt.Fprintf(tw, "with write-only paths\t%d\n", st.WithWriteOnly)
	fmt.Fprintf(tw, "with defaults\t%d\n", st.WithDefaults)
	fmt.Fprintf(tw, "with unordered arrays\t%d\n", st.WithUnordered)
	fmt.Fprintf(tw, "with free-form maps\t%d\n", st.WithFreeForm)
	fmt.Fprintf(tw, "with property transforms\t%d\n", st.WithTransform)
	fmt.Fprintf(tw, "with conditional create-only\t%d\n", st.WithCondCO)
	tw.Flush()
}
