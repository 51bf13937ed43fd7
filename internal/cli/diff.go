package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/cloudformation"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/cfn/intrinsic"
	"github.com/realdrift/realdrift/internal/diff"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/report"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/schema"
	"github.com/realdrift/realdrift/internal/secdiff"
)

const diffSynopsis = `--app A [flags] [STACK|GLOB ...]

Shows what the next deploy of the app's stacks changes: per resource
CREATE / UPDATE (the changed sub-properties) / REPLACE / DELETE (orphan
when retained), resolved against the deployed stack and its live
resources, with replacements propagated to dependents, the Outputs diff,
what stays undecided until the deploy, an export other stacks import that
the deploy would change, and, beside each resource, where it has drifted.
The security view lists the IAM statement, managed-policy and
security-group rule changes. --recursive descends into nested stacks.
--template OLD.json diffs one stack against a template file instead of the
deployed stack, with no AWS call (nested templates are read beside it).
Exit status: 0 (also with changes, unless --fail or --fail-on), 1 changes
with --fail, or a change of the --fail-on class (broadening: an added
grant or an opened security-group rule; destructive: a delete, or a
replacement of a stateful resource; any: any change), 2 error,
130 interrupted.`

// failOn is the class of change --fail-on exits 1 for.
type failOn string

// The --fail-on classes.
const (
	failOnNone        failOn = ""
	failOnBroadening  failOn = "broadening"
	failOnDestructive failOn = "destructive"
	failOnAny         failOn = "any"
)

// diffFlags are diff's own flags.
type diffFlags struct {
	stackFlags
	json      bool
	fail      bool
	verbose   bool
	recursive bool
	// template is the deployed template's file (--template): the diff
	// makes no AWS call.
	template     string
	strict       bool
	securityOnly bool
	failOn       string
}

func runDiff(ctx context.Context, s IO, args []string) int {
	fs := newFlags(s, "diff", diffSynopsis)
	var f diffFlags
	f.register(fs)
	fs.BoolVar(&f.json, "json", false, "write the diff as JSON: {schemaVersion, report: \"diff\", toolVersion, stacks: [{stack, region, changes, outputChanges, children, …}]} (report.schema.json)")
	fs.BoolVar(&f.fail, "fail", false, "exit 1 when the deploy would change anything (the whole nested tree with --recursive)")
	fs.BoolVar(&f.verbose, "verbose", false, "print the AWS call figures to stderr")
	fs.BoolVar(&f.recursive, "recursive", false, "descend into nested stacks (AWS::CloudFormation::Stack), depth first")
	fs.StringVar(&f.template, "template", "", "diff against this template file (the deployed stack's, e.g. from an earlier cdk.out) instead of the deployed stack: no AWS call, one stack; nested stacks' old templates are read beside it by their aws:asset:path")
	fs.BoolVar(&f.strict, "strict", false, "also show the resources a tool adds for itself (AWS::CDK::Metadata)")
	fs.BoolVar(&f.securityOnly, "security-only", false, "print only the security view: IAM statement, managed-policy and security-group rule changes")
	fs.StringVar(&f.failOn, "fail-on", "", "exit 1 when the deploy makes a change of this class: broadening (an added grant or opened rule), destructive (a delete, or a replacement of a stateful resource), or any")
	if done, code := parse(s, fs, args); done {
		return code
	}
	if f.app == "" {
		return fail(s, "diff", errors.New("--app is needed (the synthesized templates the next deploy sends)"))
	}
	switch failOn(f.failOn) {
	case failOnNone, failOnBroadening, failOnDestructive, failOnAny:
	default:
		return fail(s, "diff", fmt.Errorf("--fail-on %q: want broadening, destructive or any", f.failOn))
	}
	var out []*stackDiff
	var sess *session
	if f.template != "" {
		sd, err := diffTemplateFile(ctx, s, &f, fs.Args())
		if err != nil {
			return fail(s, "diff", err)
		}
		out = append(out, sd)
	} else {
		var err error
		if sess, err = f.open(ctx, s, fs.Args()); err != nil {
			return fail(s, "diff", err)
		}
		defer sess.close()
		sess.strict = f.strict
		for _, t := range sess.targets {
			if ctx.Err() != nil {
				return ExitInterrupt
			}
			sd := sess.diffStack(ctx, t, f.recursive, 0)
			out = append(out, sd)
		}
	}
	color := colorOn(s, false)
	failed := false
	for _, sd := range out {
		sd.walk(func(d *stackDiff) {
			if d.err != nil {
				failed = true
				fmt.Fprintf(s.Stderr, "realdrift diff: %s: %v\n", d.Stack, d.err)
			}
		})
	}
	if f.json {
		enc := json.NewEncoder(s.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(diffReport{Header: report.NewHeader(report.KindDiff, toolVersion()), Stacks: nonNilDiffs(out)}); err != nil {
			return fail(s, "diff", fmt.Errorf("write JSON: %w", err))
		}
	} else {
		for i, sd := range out {
			if i > 0 {
				fmt.Fprintln(s.Stdout)
			}
			writeDiff(s.Stdout, sd, color, f.securityOnly)
		}
	}
	if f.verbose && sess != nil {
		printCallStats(s.Stderr, sess.sched.Stats())
	}
	switch {
	case ctx.Err() != nil:
		return ExitInterrupt
	case failed:
		return ExitError
	}
	class := failOn(f.failOn)
	if f.fail {
		class = failOnAny
	}
	for _, sd := range out {
		if sd.fails(class) {
			return ExitDrift
		}
	}
	return ExitOK
}

// fails reports whether the tree holds a change of the class.
func (d *stackDiff) fails(class failOn) bool {
	hit := false
	d.walk(func(c *stackDiff) {
		switch class {
		case failOnAny:
			hit = hit || len(c.Changes) > 0 || len(c.Outputs) > 0 || (c.Security != nil && !c.Security.Empty())
		case failOnBroadening:
			hit = hit || (c.Security != nil && c.Security.Broadening())
		case failOnDestructive:
			for _, ch := range c.Changes {
				if (ch.Action == diff.Delete && !ch.Retained) || (ch.Action == diff.Replace && ch.Stateful && !ch.Retained) {
					hit = true
				}
			}
		}
	})
	return hit
}

// stackDiff is one stack's diff as diff writes it.
type stackDiff struct {
	Stack    string       `json:"stack"`
	Region   string       `json:"region"`
	Changes  []changeView `json:"changes"`
	Outputs  []outputView `json:"outputChanges"`
	Children []*stackDiff `json:"children"`
	Error    string       `json:"error,omitempty"`
	// Undecided and UndecidedOutputs are what stays unknown until the
	// deploy (not counted as changes).
	Undecided        []string               `json:"undecided"`
	UndecidedOutputs []diff.UndecidedOutput `json:"undecidedOutputs"`
	// Security is the security view: IAM statement, managed-policy and
	// security-group rule changes.
	Security *secdiff.Result `json:"security"`
	// Offline: diffed against a template file (--template), no AWS call.
	Offline bool           `json:"offline,omitempty"`
	result  *diff.Result   `json:"-"`
	account string         `json:"-"`
	err     error          `json:"-"`
	drifts  map[string]int `json:"-"`
}

// diffReport is diff --json: the header every JSON report carries, then
// each stack's diff (report.schema.json, diffReport).
type diffReport struct {
	report.Header
	Stacks []*stackDiff `json:"stacks"`
}

// nonNilDiffs is list, or an empty list for nil (a JSON array, never null).
func nonNilDiffs(list []*stackDiff) []*stackDiff {
	if list == nil {
		return []*stackDiff{}
	}
	return list
}

// changeView is a resource change with its drift notes.
type changeView struct {
	diff.ResourceChange
	Drift []string `json:"drift,omitempty"`
}

type outputView = diff.OutputChange

func (d *stackDiff) walk(f func(*stackDiff)) {
	f(d)
	for _, c := range d.Children {
		c.walk(f)
	}
}

// changed reports any change in the tree.
func (d *stackDiff) changed() bool {
	any := false
	d.walk(func(c *stackDiff) { any = any || len(c.Changes) > 0 || len(c.Outputs) > 0 })
	return any
}

// maxNestedDepth bounds the nested-stack descent.
const maxNestedDepth = 8

// diffStack diffs one stack of the app (or a nested child: t.app nil and
// child set).
func (sess *session) diffStack(ctx context.Context, t target, recursive bool, depth int) *stackDiff {
	sd := newStackDiff(t.name, t.region)
	body, err := t.app.template()
	if err != nil {
		sd.setErr(err)
		return sd
	}
	tmpl, err := cfn.Parse(body)
	if err != nil {
		sd.setErr(fmt.Errorf("synthesized template of %s: %w", t.name, err))
		return sd
	}
	dep, err := sess.deployed(ctx, t)
	if err != nil {
		sd.setErr(err)
		return sd
	}
	sess.diffWith(ctx, sd, t, dep, tmpl, nil, recursive, depth)
	return sd
}

func newStackDiff(name, region string) *stackDiff {
	return &stackDiff{Stack: name, Region: region, Changes: []changeView{}, Outputs: []outputView{}, Children: []*stackDiff{}, Undecided: []string{}, UndecidedOutputs: []diff.UndecidedOutput{}}
}

func (sd *stackDiff) setErr(err error) {
	sd.err = err
	sd.Error = err.Error()
}

// deployedStack is what the deploy starts from: the check of the deployed
// stack (nil run when it does not exist) and its outputs.
type deployedStack struct {
	run     *stackRun
	tmpl    *cfn.Template
	outputs []diff.DeployedOutput
	ctx     intrinsic.Context
	// templateFile is the old template's file when diffing offline
	// (--template); nested templates are read beside it.
	templateFile string
}

// deployed checks the deployed stack through the check pipeline and reads
// its outputs. A stack that does not exist yet is not an error: dep.run is
// nil.
func (sess *session) deployed(ctx context.Context, t target) (*deployedStack, error) {
	c, err := sess.clientsFor(ctx, t.region)
	if err != nil {
		return nil, err
	}
	name := t.name
	ds, err := c.CloudFormation.DescribeStacks(ctx, &cloudformation.DescribeStacksInput{StackName: &name})
	if err != nil {
		if strings.Contains(err.Error(), "does not exist") {
			return &deployedStack{ctx: intrinsic.Context{Region: t.region, StackName: t.name}}, nil
		}
		return nil, fmt.Errorf("describe stack %s: %w", name, err)
	}
	dep := &deployedStack{}
	for _, st := range ds.Stacks {
		for _, o := range st.Outputs {
			dep.outputs = append(dep.outputs, diff.DeployedOutput{Key: deref(o.OutputKey), Value: deref(o.OutputValue), ExportName: deref(o.ExportName)})
		}
	}
	run := sess.gather(ctx, target{name: t.name, region: t.region}, gatherMode{})
	if run.err != nil {
		return nil, run.err
	}
	d := run.result.Desired
	if dep.tmpl, err = cfn.Parse([]byte(d.TemplateBody)); err != nil {
		return nil, fmt.Errorf("deployed template of %s: %w", t.name, err)
	}
	attrs := map[string]map[string]any{}
	for id, res := range run.result.Lives {
		if res.Status == live.Found {
			attrs[id] = res.Model
		}
	}
	dep.run = run
	dep.ctx = intrinsic.Context{
		AccountID: d.Stack.Account, Region: d.Stack.Region, StackName: d.Stack.Name, StackID: d.StackID,
		Parameters: d.Parameters, PhysicalIDs: d.PhysicalIDs, LiveAttrs: attrs, Exports: d.Exports,
		StackOutputs: func(ref intrinsic.StackOutputRef) (string, bool) {
			region := ref.Region
			if region == "" {
				region = d.Stack.Region
			}
			v, ok := d.StackOutputs[region+"|"+ref.StackName+"|"+ref.OutputName]
			return v, ok
		},
	}
	return dep, nil
}

// diffWith diffs the new template against dep and, with recursive,
// descends into its nested stacks.
func (sess *session) diffWith(ctx context.Context, sd *stackDiff, t target, dep *deployedStack, tmpl *cfn.Template, newParams map[string]string, recursive bool, depth int) {
	facts, err := sess.factsFor(ctx, t.region, dep.tmpl, tmpl)
	if err != nil {
		sd.setErr(err)
		return
	}
	in := diff.Input{Old: dep.tmpl, New: tmpl, Context: dep.ctx, NewParameters: newParams, Facts: facts, Strict: sess.strict}
	if dep.run != nil {
		in.Outputs, in.HasOutputs = dep.outputs, true
		sd.account = dep.ctx.AccountID
	}
	if dep.tmpl == nil && tmpl != nil {
		// A new stack: its own parameters' defaults.
		in.Context.Parameters = newParams
	}
	res := diff.Compute(in)
	sd.result = res
	sd.Undecided = append(sd.Undecided, res.Undecided...)
	for _, c := range res.Changes {
		for _, k := range c.Undecided {
			sd.Undecided = append(sd.Undecided, c.LogicalID+"."+k)
		}
	}
	sd.Security = secdiff.Compute(dep.tmpl, tmpl)
	var findings []drift.Finding
	if dep.run != nil {
		findings = dep.run.findings
	}
	for _, c := range res.Changes {
		if dep.templateFile != "" {
			c.PhysicalID = "" // a placeholder, not the deployed resource's id
		}
		sd.Changes = append(sd.Changes, changeView{ResourceChange: c, Drift: driftNotes(c, findings)})
	}
	switch {
	case dep.run != nil:
		sess.importers(ctx, t.region, res)
	case dep.templateFile != "":
		for i := range res.Outputs {
			if o := &res.Outputs[i]; o.Export && o.Action != diff.OutputAdd {
				o.ImportersUnknown = "--template makes no AWS call (ListImports): a stack importing this export makes CloudFormation refuse the change"
			}
		}
		for i := range res.UndecidedOutputs {
			if u := &res.UndecidedOutputs[i]; u.Export && u.Via != "" {
				u.ImportersUnknown = "--template makes no AWS call (ListImports): a stack importing this export makes CloudFormation refuse the change"
			}
		}
	}
	sd.Outputs = append(sd.Outputs, res.Outputs...)
	sd.UndecidedOutputs = append(sd.UndecidedOutputs, res.UndecidedOutputs...)
	if recursive && depth < maxNestedDepth {
		sess.descend(ctx, sd, t, dep, tmpl, recursive, depth)
	}
}

// factsFor looks up the schema facts of every type of both templates.
func (sess *session) factsFor(ctx context.Context, region string, ts ...*cfn.Template) (func(string) (*schema.Facts, bool), error) {
	var src scan.FactsSource
	if sess.offline {
		snap, err := schema.Embedded()
		if err != nil {
			return nil, fmt.Errorf("schema facts: %w", err)
		}
		src = snapshotSource{snap}
	} else {
		c, err := sess.clientsFor(ctx, region)
		if err != nil {
			return nil, err
		}
		if src, err = c.FactsSource(sess.flags.schemaSource == "live"); err != nil {
			return nil, err
		}
	}
	byType := map[string]*schema.Facts{}
	for _, t := range ts {
		if t == nil {
			continue
		}
		for _, r := range t.Resources {
			if _, done := byType[r.Type]; done || strings.HasPrefix(r.Type, "Custom::") {
				continue
			}
			f, err := src.Lookup(ctx, r.Type)
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				byType[r.Type] = nil
				continue
			}
			byType[r.Type] = f
		}
	}
	return func(typ string) (*schema.Facts, bool) {
		f := byType[typ]
		return f, f != nil
	}, nil
}

// driftNotes says, for one resource change, where the resource has drifted
// and what the deploy does to it: CloudFormation writes only what changes,
// so a drifted value the deploy changes is overwritten and one it does not
// change survives.
func driftNotes(c diff.ResourceChange, findings []drift.Finding) []string {
	changes := func(path string) bool {
		for _, p := range c.Properties {
			if p.Path == path || strings.HasPrefix(path, p.Path+".") || strings.HasPrefix(path, p.Path+"[") || strings.HasPrefix(p.Path, path+".") {
				return true
			}
		}
		return false
	}
	var out []string
	for _, f := range findings {
		if f.LogicalID != c.LogicalID {
			continue
		}
		live := renderValue(f.Actual)
		switch f.Tier {
		case drift.Deleted:
			switch c.Action {
			case diff.Replace:
				out = append(out, "deleted out of band: the replacement creates it again")
			case diff.Delete:
				out = append(out, "already deleted out of band")
			default:
				out = append(out, "deleted out of band: the deploy does not create it again")
			}
		case drift.Declared:
			switch {
			case c.Action == diff.Replace:
				out = append(out, fmt.Sprintf("%s drifted (live %s): the replacement discards it", f.Path, live))
			case changes(f.Path):
				out = append(out, fmt.Sprintf("%s drifted (live %s): the deploy will overwrite this live value", f.Path, live))
			default:
				out = append(out, fmt.Sprintf("%s drifted (live %s): the deploy leaves it (the template value does not change)", f.Path, live))
			}
		case drift.Undeclared, drift.Added:
			what := f.Path
			if f.Tier == drift.Added {
				what = "added " + f.ResourceType + " " + f.PhysicalID
			}
			switch {
			case c.Action == diff.Replace:
				out = append(out, fmt.Sprintf("undeclared %s (live %s): the replacement discards it", what, live))
			case changes(f.Path) && f.Path != "":
				out = append(out, fmt.Sprintf("undeclared %s (live %s): the deploy will overwrite this live value", what, live))
			default:
				out = append(out, fmt.Sprintf("undeclared %s (live %s): this undeclared value will survive the deploy", what, live))
			}
		}
	}
	sort.Strings(out)
	return out
}

// descend diffs the nested stacks of tmpl (and of the deployed template:
// a removed child diffs as all DELETE), depth first in logical-id order.
func (sess *session) descend(ctx context.Context, sd *stackDiff, t target, dep *deployedStack, tmpl *cfn.Template, recursive bool, depth int) {
	ids := map[string]bool{}
	for _, tm := range []*cfn.Template{dep.tmpl, tmpl} {
		if tm == nil {
			continue
		}
		for id, r := range tm.Resources {
			if r.Type == "AWS::CloudFormation::Stack" {
				ids[id] = true
			}
		}
	}
	sorted := make([]string, 0, len(ids))
	for id := range ids {
		sorted = append(sorted, id)
	}
	sort.Strings(sorted)
	for _, id := range sorted {
		child := newStackDiff(t.name+"~"+id, t.region)
		child.Offline = sd.Offline
		sd.Children = append(sd.Children, child)
		sess.diffChild(ctx, child, t, dep, tmpl, id, recursive, depth+1)
	}
}

// diffChild diffs one nested stack: its synthesized template (from the
// parent resource's aws:asset:path in the assembly) against the child stack
// the parent's physical id names.
func (sess *session) diffChild(ctx context.Context, sd *stackDiff, parent target, pdep *deployedStack, ptmpl *cfn.Template, id string, recursive bool, depth int) {
	var newTmpl *cfn.Template
	if ptmpl != nil && ptmpl.Resources[id] != nil {
		if parent.app == nil {
			sd.setErr(fmt.Errorf("nested stack %s: no cloud assembly to read its template from", id))
			return
		}
		rel, _ := ptmpl.Resources[id].Metadata["aws:asset:path"].(string)
		if rel == "" {
			sd.setErr(fmt.Errorf("nested stack %s: its resource has no aws:asset:path metadata (the synthesized child template)", id))
			return
		}
		body, err := (&appStack{name: sd.Stack, templateFile: filepath.Join(filepath.Dir(parent.app.templateFile), filepath.Clean(rel))}).template()
		if err != nil {
			sd.setErr(err)
			return
		}
		if newTmpl, err = cfn.Parse(body); err != nil {
			sd.setErr(fmt.Errorf("nested stack %s: %w", id, err))
			return
		}
	}
	childTarget := target{region: parent.region}
	dep := &deployedStack{ctx: intrinsic.Context{Region: parent.region, AccountID: pdep.ctx.AccountID}}
	if pdep.templateFile != "" {
		d, err := oldChild(pdep, id)
		if err != nil {
			sd.setErr(err)
			return
		}
		dep = d
	} else if arn := pdep.ctx.PhysicalIDs[id]; arn != "" && pdep.run != nil {
		childTarget.name = stackNameOfARN(arn)
		d, err := sess.deployed(ctx, childTarget)
		if err != nil {
			sd.setErr(err)
			return
		}
		dep = d
	}
	if pdep.templateFile != "" {
		childTarget.name = sd.Stack // offline: the child is known by its place in the tree
	} else if childTarget.name != "" {
		sd.Stack += " (" + childTarget.name + ")"
	}
	childTarget.app = nil
	var params map[string]string
	if newTmpl != nil {
		params = childParameters(pdep, ptmpl, id, dep.ctx.Parameters)
		if dep.run != nil || dep.templateFile != "" {
			dep.ctx.Parameters = carriedExpressions(pdep, id, dep.ctx.Parameters)
		}
	}
	// The child's own nested stacks come from the same assembly.
	if parent.app != nil {
		childTarget.app = &appStack{name: sd.Stack, templateFile: parent.app.templateFile}
	}
	sess.diffWith(ctx, sd, childTarget, dep, newTmpl, params, recursive, depth)
}

// childParameters resolves the Parameters the new parent template passes
// to nested stack id: a secret dynamic reference is carried as its
// {{resolve:…}} expression (never resolved to plaintext); a value that
// cannot be resolved before the deploy, or a secret one, keeps the deployed
// child's value (unknown is not a change).
func childParameters(pdep *deployedStack, ptmpl *cfn.Template, id string, deployed map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range deployed {
		out[k] = v
	}
	raw, _ := ptmpl.Resources[id].Properties["Parameters"].(map[string]any)
	ctx := pdep.ctx
	r := intrinsic.New(ptmpl, ctx)
	for k, v := range raw {
		if s, ok := v.(string); ok && strings.Contains(s, "{{resolve:") {
			out[k] = s
			continue
		}
		rv, ok := r.Value(v)
		if !ok {
			continue
		}
		if s, ok := paramText(rv); ok {
			out[k] = s
		}
	}
	return out
}

// carriedExpressions sets, on the deployed child's parameters, the
// {{resolve:…}} expression the deployed parent passed where it passed one:
// both sides then compare expression with expression.
func carriedExpressions(pdep *deployedStack, id string, deployed map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range deployed {
		out[k] = v
	}
	if pdep.tmpl == nil || pdep.tmpl.Resources[id] == nil {
		return out
	}
	raw, _ := pdep.tmpl.Resources[id].Properties["Parameters"].(map[string]any)
	for k, v := range raw {
		if s, ok := v.(string); ok && strings.Contains(s, "{{resolve:") {
			out[k] = s
		}
	}
	return out
}

// paramText is a resolved value as a stack parameter's text; secrets and
// unknowns have none.
func paramText(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case float64, bool:
		b, _ := json.Marshal(t)
		return string(b), true
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			s, ok := paramText(e)
			if !ok {
				return "", false
			}
			parts[i] = s
		}
		return strings.Join(parts, ","), true
	}
	return "", false
}

// stackNameOfARN is the stack name of a stack ARN
// (arn:…:stack/NAME/uuid), or the string itself.
func stackNameOfARN(arn string) string {
	if _, rest, ok := strings.Cut(arn, ":stack/"); ok {
		name, _, _ := strings.Cut(rest, "/")
		return name
	}
	return arn
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

var _ io.Writer = (*strings.Builder)(nil)
