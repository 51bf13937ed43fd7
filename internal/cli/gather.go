package cli

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	cfntypes "github.com/aws/aws-sdk-go-v2/service/cloudformation/types"

	"github.com/realdrift/realdrift/internal/baseline"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
	"github.com/realdrift/realdrift/internal/report"
	"github.com/realdrift/realdrift/internal/scan"
)

// gatherMode says how a stack's raw findings are reconciled.
type gatherMode struct {
	// preDeploy compares against the app's synthesized template: only the
	// declared side is reported and the baseline is not used.
	preDeploy bool
	// showAll ignores the baseline (inventory: every live-only value).
	showAll bool
	// noBaseline checks without a recorded baseline (check --no-baseline).
	noBaseline bool
	// scope keeps only one side (scopeAll: both).
	scope scope
}

// scope narrows a check to one side of the template.
type scope uint8

const (
	scopeAll scope = iota
	scopeDeclared
	scopeUndeclared
)

// stackRun is one stack's gathered state and reconciled findings.
type stackRun struct {
	target target
	ref    drift.StackRef
	result *scan.StackResult
	// raw are the classifier's findings (construct paths filled in from
	// the app), before the baseline and the ignore rules.
	raw []drift.Finding
	// base is the stack's baseline as loaded (nil when none or unused).
	base *baseline.Baseline
	// noBaseline says the stack has no baseline yet (checked against the
	// store, not a pre-deploy view): check's terminal offers to record
	// the first one (seed 002 R141).
	noBaseline bool
	// findings are the reconciled findings (baseline, scope, ignore rules).
	findings []drift.Finding
	// notes are one-line nudges for stderr.
	notes []string
	err   error
	// parent is the stack a nested stack's run was reached from, and
	// parentLogicalID the logical id of its stack resource there ("" for
	// a stack checked in its own right).
	parent, parentLogicalID string
}

// report returns the run as the report package takes it.
func (r *stackRun) report() report.Stack {
	return report.Stack{Ref: r.ref, Findings: r.findings, Err: r.err, Parent: r.parent, ParentLogicalID: r.parentLogicalID, Resources: r.resources()}
}

// resources is how many resources the run covered: the template's plus
// the added children the scan found (0 for a stack not checked).
func (r *stackRun) resources() int {
	if r.result == nil || r.result.Desired == nil {
		return 0
	}
	return drift.Resources(len(r.result.Desired.Resources), r.raw)
}

// gather checks one stack: the scan pipeline, then the baseline, the scope
// and the ignore rules. A stack that cannot be checked has err set.
func (sess *session) gather(ctx context.Context, t target, mode gatherMode) *stackRun {
	run := &stackRun{target: t, ref: drift.StackRef{Name: t.name, Region: t.region}}
	c, err := sess.clientsFor(ctx, t.region)
	if err != nil {
		run.err = err
		return run
	}
	base := c
	opts := scan.Options{Concurrency: sess.flags.concurrency, LiveSchema: sess.flags.schemaSource == "live"}
	if mode.preDeploy {
		// The synthesized template's clients share the region's schema
		// facts source, so each type is still asked once per run.
		src, err := base.FactsSource(opts.LiveSchema)
		if err != nil {
			return sess.failed(ctx, run, c, err)
		}
		opts.Schema = src
		if t.app == nil {
			return sess.failed(ctx, run, c, fmt.Errorf("--pre-deploy needs --app"))
		}
		body, err := t.app.template()
		if err != nil {
			return sess.failed(ctx, run, c, err)
		}
		c = &scan.Clients{
			CloudFormation: synthTemplate{stackAPI: c.CloudFormation, stack: t.name, body: string(body)},
			Live:           c.Live,
			KMS:            c.KMS,
		}
	}
	res, err := scan.Check(ctx, c, run.ref, opts)
	if err != nil {
		return sess.failed(ctx, run, base, err)
	}
	run.result = res
	run.ref = res.Desired.Stack
	findings := res.Findings
	if t.app != nil {
		findings = withConstructPaths(findings, t.app.paths)
	}
	run.raw = findings
	switch {
	case mode.preDeploy:
		findings = keep(findings, declaredSide)
	default:
		b, _, err := baseline.LoadStored(ctx, sess.state.docs, run.ref)
		if err != nil {
			run.err = sess.state.explain(err)
			return run
		}
		run.base, run.noBaseline = b, b == nil
		use := b
		if mode.showAll || mode.noBaseline {
			use = nil
		}
		applied := baseline.Apply(use, baseline.Input{
			Findings:     findings,
			Resources:    res.Desired.BaselineResources(),
			TemplateHash: baseline.TemplateHash([]byte(res.Desired.TemplateBody)),
		}, baseline.Options{})
		findings, run.notes = applied.Findings, applied.Notes
	}
	switch mode.scope {
	case scopeDeclared:
		findings = keep(findings, declaredSide)
	case scopeUndeclared:
		findings = keep(findings, undeclaredSide)
	}
	run.findings = ignore.Apply(findings, run.ref, sess.rules)
	return run
}

// failed marks run as a stack that could not be checked, naming its
// account when the clients can tell (a stack that failed before its stack
// id was read has none otherwise).
func (sess *session) failed(ctx context.Context, run *stackRun, c *scan.Clients, err error) *stackRun {
	run.err = explain(err)
	if run.ref.Account == "" && ctx.Err() == nil {
		if a, err := scan.CallerAccount(ctx, c); err == nil {
			run.ref.Account = a
		}
	}
	return run
}

// declaredSide: the tiers about what the template declares, plus skipped
// and nothingToRead (coverage). Pre-deploy and --declared-only keep these.
func declaredSide(f drift.Finding) bool {
	switch f.Tier {
	case drift.Deleted, drift.Declared, drift.ReadGap, drift.Unresolved, drift.Skipped, drift.NothingToRead:
		return true
	}
	return false
}

// undeclaredSide: live-only state, plus skipped and nothingToRead
// (coverage).
func undeclaredSide(f drift.Finding) bool {
	switch f.Tier {
	case drift.Undeclared, drift.Added, drift.AtDefault, drift.Generated, drift.Skipped, drift.NothingToRead:
		return true
	}
	return false
}

func keep(fs []drift.Finding, ok func(drift.Finding) bool) []drift.Finding {
	var out []drift.Finding
	for _, f := range fs {
		if ok(f) {
			out = append(out, f)
		}
	}
	return out
}

// withConstructPaths fills the construct path of findings the deployed
// template left without one, from the app's metadata.
func withConstructPaths(fs []drift.Finding, paths map[string]string) []drift.Finding {
	out := make([]drift.Finding, len(fs))
	for i, f := range fs {
		if f.ConstructPath == "" {
			f.ConstructPath = paths[f.LogicalID]
		}
		out[i] = f
	}
	return out
}

// cfnAPI is the CloudFormation surface scan's loader calls; synthTemplate
// wraps it.
type cfnAPI interface {
	DescribeStacks(ctx context.Context, in *cloudformation.DescribeStacksInput, optFns ...func(*cloudformation.Options)) (*cloudformation.DescribeStacksOutput, error)
	GetTemplate(ctx context.Context, in *cloudformation.GetTemplateInput, optFns ...func(*cloudformation.Options)) (*cloudformation.GetTemplateOutput, error)
	ListStackResources(ctx context.Context, in *cloudformation.ListStackResourcesInput, optFns ...func(*cloudformation.Options)) (*cloudformation.ListStackResourcesOutput, error)
	ListExports(ctx context.Context, in *cloudformation.ListExportsInput, optFns ...func(*cloudformation.Options)) (*cloudformation.ListExportsOutput, error)
	ListImports(ctx context.Context, in *cloudformation.ListImportsInput, optFns ...func(*cloudformation.Options)) (*cloudformation.ListImportsOutput, error)
	DescribeType(ctx context.Context, in *cloudformation.DescribeTypeInput, optFns ...func(*cloudformation.Options)) (*cloudformation.DescribeTypeOutput, error)
}

// synthTemplate answers GetTemplate for one stack with its synthesized
// template (--pre-deploy); every other call goes to AWS.
type synthTemplate struct {
	stackAPI cfnAPI
	stack    string
	body     string
}

func (s synthTemplate) DescribeStacks(ctx context.Context, in *cloudformation.DescribeStacksInput, optFns ...func(*cloudformation.Options)) (*cloudformation.DescribeStacksOutput, error) {
	return s.stackAPI.DescribeStacks(ctx, in, optFns...)
}

func (s synthTemplate) ListStackResources(ctx context.Context, in *cloudformation.ListStackResourcesInput, optFns ...func(*cloudformation.Options)) (*cloudformation.ListStackResourcesOutput, error) {
	return s.stackAPI.ListStackResources(ctx, in, optFns...)
}

func (s synthTemplate) ListExports(ctx context.Context, in *cloudformation.ListExportsInput, optFns ...func(*cloudformation.Options)) (*cloudformation.ListExportsOutput, error) {
	return s.stackAPI.ListExports(ctx, in, optFns...)
}

func (s synthTemplate) ListImports(ctx context.Context, in *cloudformation.ListImportsInput, optFns ...func(*cloudformation.Options)) (*cloudformation.ListImportsOutput, error) {
	return s.stackAPI.ListImports(ctx, in, optFns...)
}

func (s synthTemplate) DescribeType(ctx context.Context, in *cloudformation.DescribeTypeInput, optFns ...func(*cloudformation.Options)) (*cloudformation.DescribeTypeOutput, error) {
	return s.stackAPI.DescribeType(ctx, in, optFns...)
}

// GetTemplate returns the synthesized template. A template with a
// Transform cannot be expanded locally, so its processed stage is an error
// rather than the deployed one passed off as the synthesized one.
func (s synthTemplate) GetTemplate(ctx context.Context, in *cloudformation.GetTemplateInput, optFns ...func(*cloudformation.Options)) (*cloudformation.GetTemplateOutput, error) {
	if in.StackName == nil || *in.StackName != s.stack {
		return s.stackAPI.GetTemplate(ctx, in, optFns...)
	}
	if in.TemplateStage == cfntypes.TemplateStageProcessed {
		return nil, fmt.Errorf("--pre-deploy: the synthesized template of %s has a Transform, which realdrift cannot expand locally", s.stack)
	}
	body := s.body
	return &cloudformation.GetTemplateOutput{TemplateBody: &body}, nil
}

var _ cfnAPI = synthTemplate{}
var _ cfnAPI = (*cloudformation.Client)(nil)
