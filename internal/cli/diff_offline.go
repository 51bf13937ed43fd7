package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/cloudformation"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/cfn/intrinsic"
	"github.com/realdrift/realdrift/internal/diff"
	"github.com/realdrift/realdrift/internal/schema"
)

// diffTemplateFile is diff --template: one stack of the app against a
// template file, with no AWS call. The deployed stack is known only by its
// template, so templateContext stands in for its physical ids.
func diffTemplateFile(ctx context.Context, s IO, f *diffFlags, args []string) (*stackDiff, error) {
	app, err := loadApp(ctx, s, f.app)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(app.stacks))
	byName := map[string]*appStack{}
	for i := range app.stacks {
		names = append(names, app.stacks[i].name)
		byName[app.stacks[i].name] = &app.stacks[i]
	}
	sort.Strings(names)
	var patterns []string
	if !f.all {
		patterns = args
	}
	picked, err := matchStacks(names, patterns)
	if err != nil {
		return nil, fmt.Errorf("--app %s: %w", f.app, err)
	}
	if len(picked) != 1 {
		return nil, fmt.Errorf("--template diffs one stack; the app has %s: name one", strings.Join(names, ", "))
	}
	st := byName[picked[0]]
	region := firstNonEmpty(st.region, f.region, getenv(s, "AWS_REGION"), getenv(s, "AWS_DEFAULT_REGION")) // a pinned environment wins, as in a deploy
	old, err := readTemplateFile(f.template)
	if err != nil {
		return nil, err
	}
	body, err := st.template()
	if err != nil {
		return nil, err
	}
	tmpl, err := cfn.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("synthesized template of %s: %w", st.name, err)
	}
	sess := &session{flags: &f.stackFlags, io: s, app: app, offline: true, strict: f.strict}
	dep := &deployedStack{tmpl: old, ctx: templateContext(old, region, st.name), templateFile: f.template}
	sd := newStackDiff(st.name, region)
	sd.Offline = true
	sess.diffWith(ctx, sd, target{name: st.name, region: region, app: st}, dep, tmpl, nil, f.recursive, 0)
	return sd, nil
}

func readTemplateFile(path string) (*cfn.Template, error) {
	body, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--template: %w", err)
	}
	t, err := cfn.Parse(body)
	if err != nil {
		return nil, fmt.Errorf("--template %s: %w", path, err)
	}
	return t, nil
}

// templateContext stands for a deployed stack known only by its template:
// each resource's physical id is the token ${LogicalId}, each attribute
// the templates read ${LogicalId.Attr}, the account ${AWS::AccountId} and,
// for an environment-agnostic stack, the region ${AWS::Region}. A token is the same on both sides,
// so an unchanged reference compares equal; one to a resource the deploy
// replaces or updates is propagated as with a deployed stack. The tokens
// are never shown as physical ids.
func templateContext(t *cfn.Template, region, stack string) intrinsic.Context {
	if region == "" {
		region = "${AWS::Region}"
	}
	c := intrinsic.Context{AccountID: "${AWS::AccountId}", Region: region, StackName: stack, PhysicalIDs: map[string]string{}, LiveAttrs: map[string]map[string]any{}}
	for _, id := range t.ResourceIDs() {
		c.PhysicalIDs[id] = "${" + id + "}"
		if t.Resources[id].Type == "AWS::CloudFormation::Stack" {
			continue // its Outputs.X are read from the nested stack
		}
		attrs := map[string]any{}
		for _, name := range attributesRead(t, id) {
			attrs[name] = "${" + id + "." + name + "}"
		}
		c.LiveAttrs[id] = attrs
	}
	return c
}

// attributesRead lists the attributes of id that t's Fn::GetAtt calls
// name with a literal, single-segment attribute.
func attributesRead(t *cfn.Template, id string) []string {
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if g, ok := x["Fn::GetAtt"]; ok && len(x) == 1 {
				switch a := g.(type) {
				case []any:
					if len(a) == 2 && a[0] == id {
						if name, ok := a[1].(string); ok && !strings.Contains(name, ".") {
							seen[name] = true
						}
					}
				case string:
					if target, name, ok := strings.Cut(a, "."); ok && target == id && !strings.Contains(name, ".") {
						seen[name] = true
					}
				}
			}
			if sub, ok := x["Fn::Sub"]; ok && len(x) == 1 {
				text, _ := sub.(string)
				if l, ok := sub.([]any); ok && len(l) > 0 {
					text, _ = l[0].(string)
				}
				for _, part := range strings.Split(text, "${"+id+".")[1:] {
					if name, _, ok := strings.Cut(part, "}"); ok && !strings.Contains(name, ".") {
						seen[name] = true
					}
				}
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	for _, r := range t.Resources {
		walk(r.Properties)
	}
	for _, o := range t.Outputs {
		walk(o.Value)
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// oldChild is the deployed side of nested stack id when diffing offline:
// the template beside the parent's file at the old parent resource's
// aws:asset:path, with the parameters the old parent passed.
func oldChild(pdep *deployedStack, id string) (*deployedStack, error) {
	dep := &deployedStack{ctx: intrinsic.Context{Region: pdep.ctx.Region}, templateFile: pdep.templateFile}
	if pdep.tmpl == nil || pdep.tmpl.Resources[id] == nil {
		return dep, nil // a nested stack the deploy adds
	}
	rel, _ := pdep.tmpl.Resources[id].Metadata["aws:asset:path"].(string)
	if rel == "" {
		return nil, fmt.Errorf("nested stack %s: the old template's resource has no aws:asset:path metadata (the old child template)", id)
	}
	file := filepath.Join(filepath.Dir(pdep.templateFile), filepath.Clean(rel))
	t, err := readTemplateFile(file)
	if err != nil {
		return nil, fmt.Errorf("nested stack %s: %w", id, err)
	}
	dep.tmpl, dep.templateFile = t, file
	dep.ctx = templateContext(t, pdep.ctx.Region, pdep.ctx.StackName+"-"+id)
	dep.ctx.Parameters = childParameters(pdep, pdep.tmpl, id, nil)
	return dep, nil
}

// snapshotSource answers schema facts from the embedded snapshot alone
// (diff --template makes no AWS call).
type snapshotSource struct{ snap *schema.Snapshot }

func (s snapshotSource) Lookup(_ context.Context, typeName string) (*schema.Facts, error) {
	if f, ok := s.snap.Lookup(typeName); ok {
		return f, nil
	}
	return nil, fmt.Errorf("schema facts: %s is not in the embedded snapshot", typeName)
}

// notImported is how CloudFormation's ListImports answers an export no
// stack imports (a ValidationError, not an empty list).
const notImported = "is not imported by any stack"

// importers asks ListImports, for each export the deploy changes or
// removes, which stacks import it: CloudFormation refuses to change or
// delete an export in use, so the diff says so before the deploy does.
// An export whose value may change (it reads a replaced resource) is
// asked too.
func (sess *session) importers(ctx context.Context, region string, res *diff.Result) {
	c, err := sess.clientsFor(ctx, region)
	if err != nil {
		return
	}
	list := func(name string) ([]string, string) {
		var out []string
		in := &cloudformation.ListImportsInput{ExportName: &name}
		for {
			page, err := c.CloudFormation.ListImports(ctx, in)
			if err != nil {
				if strings.Contains(err.Error(), notImported) {
					return nil, ""
				}
				return nil, err.Error()
			}
			out = append(out, page.Imports...)
			if page.NextToken == nil || *page.NextToken == "" {
				sort.Strings(out)
				return out, ""
			}
			in.NextToken = page.NextToken
		}
	}
	for i := range res.Outputs {
		o := &res.Outputs[i]
		if o.Export && (o.Action == diff.OutputModify || o.Action == diff.OutputRemove) {
			o.Importers, o.ImportersUnknown = list(o.Name)
		}
	}
	for i := range res.UndecidedOutputs {
		u := &res.UndecidedOutputs[i]
		if u.Export && u.Via != "" {
			u.Importers, u.ImportersUnknown = list(u.Name)
		}
	}
}
