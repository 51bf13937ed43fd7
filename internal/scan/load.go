package scan

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	cfntypes "github.com/aws/aws-sdk-go-v2/service/cloudformation/types"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/cfn/intrinsic"
	"github.com/realdrift/realdrift/internal/drift"
)

// LoadDesired loads the declared side of one stack: DescribeStacks
// (parameters, tags, stack id; the description ListStacks listed when it
// did), GetTemplate (the deployed template; the processed one when the
// template has a Transform) and ListStackResources (all pages: physical
// ids) side by side, and, only when the template uses Fn::ImportValue, the
// account-region's exports (and, only when a declared value names a managed
// KMS alias, the alias targets). It resolves every resource's properties
// (conditions pruned, GetAtt not yet resolvable). stack.Account may be
// empty: it is then taken from the stack id.
func LoadDesired(ctx context.Context, c *Clients, stack drift.StackRef) (*Desired, error) {
	d, err := loadDesired(ctx, c, stack, newWork(1))
	if err != nil {
		return nil, err
	}
	d.KMSAliasTargets = c.KMSAliasTargets(ctx, d, nil)
	return d, nil
}

// loadDesired is LoadDesired without the KMS alias targets (Check looks
// them up while the reads run), its calls each in a slot of w.
func loadDesired(ctx context.Context, c *Clients, stack drift.StackRef, w *work) (*Desired, error) {
	name := stack.Name
	// The template and the resource list do not depend on each other or
	// on the description: all three are asked at once.
	var physical map[string]string
	var listErr error
	listed := make(chan struct{})
	lctx, cancel := context.WithCancel(ctx)
	defer func() { cancel(); <-listed }()
	go func() {
		defer close(listed)
		if !w.do(lctx, func() { physical, listErr = listResources(lctx, c, name) }) {
			listErr = fmt.Errorf("list resources of stack %s: %w", name, lctx.Err())
		}
	}()
	type tmplResult struct {
		body string
		tmpl *cfn.Template
		err  error
	}
	tc := make(chan tmplResult, 1)
	go func() {
		var r tmplResult
		if !w.do(lctx, func() { r.body, r.tmpl, r.err = loadTemplate(lctx, c, name) }) {
			r.err = fmt.Errorf("get template of stack %s: %w", name, lctx.Err())
		}
		tc <- r
	}()
	var st cfntypes.Stack
	var err error
	if !w.do(ctx, func() { st, err = c.describeStack(ctx, name) }) {
		err = fmt.Errorf("describe stack %s: %w", name, ctx.Err())
	}
	if err != nil {
		cancel()
		<-tc
		return nil, err
	}
	d := &Desired{
		Stack:       stack,
		StackID:     deref(st.StackId),
		Parameters:  map[string]string{},
		PhysicalIDs: map[string]string{},
	}
	if d.Stack.Account == "" {
		d.Stack.Account = arnAccount(d.StackID)
	}
	if st.LastUpdatedTime != nil {
		d.LastUpdated = st.LastUpdatedTime.UTC()
	} else if st.CreationTime != nil {
		d.LastUpdated = st.CreationTime.UTC()
	}
	for _, p := range st.Parameters {
		v := deref(p.ParameterValue)
		if p.ResolvedValue != nil {
			v = *p.ResolvedValue
		}
		d.Parameters[deref(p.ParameterKey)] = v
	}
	for _, t := range st.Tags {
		if d.StackTags == nil {
			d.StackTags = map[string]string{}
		}
		d.StackTags[deref(t.Key)] = deref(t.Value)
	}

	tr := <-tc
	if tr.err != nil {
		cancel()
		return nil, tr.err
	}
	tmpl := tr.tmpl
	d.TemplateBody = tr.body
	<-listed
	if listErr != nil {
		return nil, listErr
	}
	d.PhysicalIDs = physical

	if err := prefetchStackOutputs(ctx, c, tmpl, d); err != nil {
		return nil, err
	}
	if intrinsic.UsesImportValue(tmpl) {
		if d.Exports, err = c.Exports(ctx); err != nil {
			return nil, fmt.Errorf("list exports for stack %s: %w", name, err)
		}
	}
	if d.Resources, err = resolveResources(tmpl, d, nil); err != nil {
		return nil, fmt.Errorf("resolve stack %s: %w", name, err)
	}
	return d, nil
}

// describeStack returns the stack's description: the one ListStacks listed
// (taken, so a later load asks again), else DescribeStacks.
func (c *Clients) describeStack(ctx context.Context, name string) (cfntypes.Stack, error) {
	if st, ok := c.listed.take(name); ok {
		return st, nil
	}
	ds, err := c.CloudFormation.DescribeStacks(ctx, &cloudformation.DescribeStacksInput{StackName: &name})
	if err != nil {
		return cfntypes.Stack{}, fmt.Errorf("describe stack %s: %w", name, err)
	}
	if len(ds.Stacks) == 0 {
		return cfntypes.Stack{}, fmt.Errorf("describe stack %s: no such stack", name)
	}
	return ds.Stacks[0], nil
}

// loadTemplate gets the deployed template of the stack, the processed one
// when it has a Transform, and parses it.
func loadTemplate(ctx context.Context, c *Clients, name string) (string, *cfn.Template, error) {
	body, err := getTemplate(ctx, c, name, cfntypes.TemplateStageOriginal)
	if err != nil {
		return "", nil, err
	}
	tmpl, err := cfn.Parse([]byte(body))
	if err != nil {
		return "", nil, fmt.Errorf("template of stack %s: %w", name, err)
	}
	if len(tmpl.Transform) > 0 {
		if body, err = getTemplate(ctx, c, name, cfntypes.TemplateStageProcessed); err != nil {
			return "", nil, err
		}
		if tmpl, err = cfn.Parse([]byte(body)); err != nil {
			return "", nil, fmt.Errorf("processed template of stack %s: %w", name, err)
		}
	}
	return body, tmpl, nil
}

// listResources lists the stack's resources (all pages): logical id →
// physical id.
func listResources(ctx context.Context, c *Clients, name string) (map[string]string, error) {
	ids := map[string]string{}
	p := cloudformation.NewListStackResourcesPaginator(c.CloudFormation, &cloudformation.ListStackResourcesInput{StackName: &name})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, fmt.Errorf("list resources of stack %s: %w", name, err)
		}
		for _, r := range page.StackResourceSummaries {
			if id := deref(r.PhysicalResourceId); id != "" {
				ids[deref(r.LogicalResourceId)] = id
			}
		}
	}
	return ids, nil
}

func getTemplate(ctx context.Context, c *Clients, name string, stage cfntypes.TemplateStage) (string, error) {
	out, err := c.CloudFormation.GetTemplate(ctx, &cloudformation.GetTemplateInput{StackName: &name, TemplateStage: stage})
	if err != nil {
		return "", fmt.Errorf("get %s template of stack %s: %w", stage, name, err)
	}
	if deref(out.TemplateBody) == "" {
		return "", fmt.Errorf("get %s template of stack %s: empty template", stage, name)
	}
	return *out.TemplateBody, nil
}

// prefetchStackOutputs reads the outputs that Fn::GetStackOutput targets
// name literally, for stacks in the same region read with the same
// credentials. Others (another region or a role to assume) stay unanswered,
// so they resolve Unknown. A stack that cannot be described leaves its
// outputs unanswered too.
func prefetchStackOutputs(ctx context.Context, c *Clients, t *cfn.Template, d *Desired) error {
	for _, ref := range intrinsic.StackOutputRefs(t) {
		if (ref.Region != "" && ref.Region != d.Stack.Region) || ref.RoleArn != "" {
			continue
		}
		name := ref.StackName
		if st, ok := c.listed.peek(name); ok {
			addStackOutputs(d, name, st)
			continue
		}
		out, err := c.CloudFormation.DescribeStacks(ctx, &cloudformation.DescribeStacksInput{StackName: &name})
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("describe stack %s: %w", name, err)
			}
			continue
		}
		for _, s := range out.Stacks {
			addStackOutputs(d, name, s)
		}
	}
	return nil
}

// addStackOutputs adds the outputs of stack name (described as s) to d.
func addStackOutputs(d *Desired, name string, s cfntypes.Stack) {
	for _, o := range s.Outputs {
		if d.StackOutputs == nil {
			d.StackOutputs = map[string]string{}
		}
		key := stackOutputKey(intrinsic.StackOutputRef{StackName: name, OutputName: deref(o.OutputKey), Region: d.Stack.Region}, d.Stack.Region)
		d.StackOutputs[key] = deref(o.OutputValue)
	}
}

// arnAccount returns the account field of an ARN ("" when not an ARN).
func arnAccount(arn string) string {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) < 6 {
		return ""
	}
	return parts[4]
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// sortResources orders resources by logical id.
func sortResources(rs []Resource) {
	sort.Slice(rs, func(i, j int) bool { return rs[i].LogicalID < rs[j].LogicalID })
}
