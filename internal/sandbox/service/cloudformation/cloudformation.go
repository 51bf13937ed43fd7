package cloudformation

import (
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
	"github.com/realdrift/realdrift/internal/schema"
)

// stackARN is the stack a call is authorized against: the one StackName
// names (its ARN, else the ARN a stack of that name would have). It takes
// the state's read lock.
func stackARN(st *world.State, c *wire.Call) string {
	name := c.Str("StackName")
	if name == "" || strings.HasPrefix(name, "arn:") {
		return name
	}
	st.RLock()
	stack := st.FindStack(c.Account, c.Region, name)
	st.RUnlock()
	if stack != nil {
		return stack.ID
	}
	return world.StackID(c.Region, c.Account, name)
}

// types answers DescribeType from the world's schema facts, then fallback.
type types struct {
	fallback func(typeName string) (*schema.Facts, bool)
}

func stackCreated(s *world.Stack) time.Time {
	if s.CreationTime != nil {
		return *s.CreationTime
	}
	return world.DefaultTime
}

func stackUpdated(s *world.Stack) time.Time {
	if s.LastUpdatedTime != nil {
		return *s.LastUpdatedTime
	}
	return stackCreated(s)
}

func notFoundStack(name string) error {
	return wire.Validation("Stack with id %s does not exist", name)
}

// lookupStack finds the named stack or answers CloudFormation's error.
// The caller holds the lock.
func lookupStack(st *world.State, c *wire.Call, name string) (*world.Stack, error) {
	if name == "" {
		return nil, wire.Validation("1 validation error detected: Value null at 'stackName' failed to satisfy constraint: Member must not be null")
	}
	stack := st.FindStack(c.Account, c.Region, name)
	if stack == nil {
		return nil, notFoundStack(name)
	}
	return stack, nil
}

func stackNode(st *world.Stack) *wire.Node {
	var params, outputs, tags []*wire.Node
	for _, p := range st.Parameters {
		v := p.Value
		if p.NoEcho {
			v = "****"
		}
		params = append(params, wire.El("", wire.Tx("ParameterKey", p.Key), wire.Tx("ParameterValue", v), wire.Opt("ResolvedValue", p.ResolvedValue)))
	}
	for _, o := range st.Outputs {
		outputs = append(outputs, wire.El("", wire.Tx("OutputKey", o.Key), wire.Tx("OutputValue", o.Value), wire.Opt("Description", o.Description), wire.Opt("ExportName", o.ExportName)))
	}
	for _, t := range st.Tags {
		tags = append(tags, wire.El("", wire.Tx("Key", t.Key), wire.Tx("Value", t.Value)))
	}
	var caps []*wire.Node
	for _, cp := range st.Capabilities {
		caps = append(caps, wire.Tx("", cp))
	}
	n := wire.El("",
		wire.Tx("StackId", st.ID), wire.Tx("StackName", st.Name), wire.Opt("Description", st.Description),
		wire.Members("Parameters", params), wire.Time("CreationTime", stackCreated(st)),
		wire.Opt("ParentId", st.ParentID), wire.Opt("RootId", st.RootID),
		wire.Tx("StackStatus", st.Status), wire.Bool("DisableRollback", false),
		wire.Members("NotificationARNs", nil), wire.Members("Capabilities", caps),
		wire.Members("Outputs", outputs), wire.Members("Tags", tags),
		wire.Bool("EnableTerminationProtection", st.TerminationProtection),
		wire.El("DriftInformation", wire.Tx("StackDriftStatus", "NOT_CHECKED")),
	)
	if st.LastUpdatedTime != nil {
		n.Kids = append(n.Kids, wire.Time("LastUpdatedTime", *st.LastUpdatedTime))
	}
	return n
}

func cfnDescribeStacks(ws *world.State, c *wire.Call) (any, error) {
	ws.RLock()
	defer ws.RUnlock()
	if name := c.Str("StackName"); name != "" {
		st, err := lookupStack(ws, c, name)
		if err != nil {
			return nil, err
		}
		return wire.El("", wire.Members("Stacks", []*wire.Node{stackNode(st)})), nil
	}
	var items []*wire.Node
	for _, st := range standing(ws, c) {
		items = append(items, stackNode(st))
	}
	return cfnPage(c, "stacks", "Stacks", items)
}

func cfnListStacks(ws *world.State, c *wire.Call) (any, error) {
	filter := map[string]bool{}
	for _, f := range c.List("StackStatusFilter") {
		filter[f] = true
	}
	ws.RLock()
	defer ws.RUnlock()
	var items []*wire.Node
	for _, st := range ws.Stacks(c.Account, c.Region) {
		if len(filter) > 0 && !filter[st.Status] {
			continue
		}
		n := wire.El("", wire.Tx("StackId", st.ID), wire.Tx("StackName", st.Name), wire.Opt("TemplateDescription", st.Description),
			wire.Time("CreationTime", stackCreated(st)), wire.Tx("StackStatus", st.Status),
			wire.Opt("ParentId", st.ParentID), wire.Opt("RootId", st.RootID),
			wire.El("DriftInformation", wire.Tx("StackDriftStatus", "NOT_CHECKED")))
		if st.LastUpdatedTime != nil {
			n.Kids = append(n.Kids, wire.Time("LastUpdatedTime", *st.LastUpdatedTime))
		}
		items = append(items, n)
	}
	return cfnPage(c, "liststacks", "StackSummaries", items)
}

func cfnGetTemplate(ws *world.State, c *wire.Call) (any, error) {
	stage := c.Str("TemplateStage")
	if stage != "" && stage != "Original" && stage != "Processed" {
		return nil, wire.Validation("1 validation error detected: Value '%s' at 'templateStage' failed to satisfy constraint: Member must satisfy enum value set: [Original, Processed]", stage)
	}
	ws.RLock()
	defer ws.RUnlock()
	st, err := lookupStack(ws, c, c.Str("StackName"))
	if err != nil {
		return nil, err
	}
	body := st.TemplateBody
	if stage == "Processed" && st.ProcessedTemplateBody != "" {
		body = st.ProcessedTemplateBody
	}
	stages := []*wire.Node{wire.Tx("", "Original"), wire.Tx("", "Processed")}
	return wire.El("", wire.Tx("TemplateBody", body), wire.Members("StagesAvailable", stages)), nil
}

func cfnListStackResources(ws *world.State, c *wire.Call) (any, error) {
	ws.RLock()
	defer ws.RUnlock()
	st, err := lookupStack(ws, c, c.Str("StackName"))
	if err != nil {
		return nil, err
	}
	var items []*wire.Node
	for _, r := range st.Resources {
		items = append(items, wire.El("",
			wire.Tx("LogicalResourceId", r.LogicalID), wire.Opt("PhysicalResourceId", r.PhysicalID),
			wire.Tx("ResourceType", r.Type), wire.Time("LastUpdatedTimestamp", stackUpdated(st)),
			wire.Tx("ResourceStatus", r.Status),
			wire.El("DriftInformation", wire.Tx("StackResourceDriftStatus", "NOT_CHECKED"))))
	}
	return cfnPage(c, "resources", "StackResourceSummaries", items)
}

func cfnDescribeStackResources(ws *world.State, c *wire.Call) (any, error) {
	name, phys, logical := c.Str("StackName"), c.Str("PhysicalResourceId"), c.Str("LogicalResourceId")
	ws.RLock()
	defer ws.RUnlock()
	var st *world.Stack
	switch {
	case name != "":
		var err error
		if st, err = lookupStack(ws, c, name); err != nil {
			return nil, err
		}
	case phys != "":
		for _, cand := range ws.Stacks(c.Account, c.Region) {
			if cand.Status == "DELETE_COMPLETE" {
				continue
			}
			for _, r := range cand.Resources {
				if r.PhysicalID == phys {
					st = cand
				}
			}
		}
		if st == nil {
			return nil, wire.Validation("Stack for %s does not exist", phys)
		}
	default:
		return nil, wire.Validation("Either StackName or PhysicalResourceId must be specified.")
	}
	var items []*wire.Node
	for _, r := range st.Resources {
		if logical != "" && r.LogicalID != logical {
			continue
		}
		items = append(items, wire.El("",
			wire.Tx("StackName", st.Name), wire.Tx("StackId", st.ID),
			wire.Tx("LogicalResourceId", r.LogicalID), wire.Opt("PhysicalResourceId", r.PhysicalID),
			wire.Tx("ResourceType", r.Type), wire.Time("Timestamp", stackUpdated(st)),
			wire.Tx("ResourceStatus", r.Status),
			wire.El("DriftInformation", wire.Tx("StackResourceDriftStatus", "NOT_CHECKED"))))
	}
	return wire.El("", wire.Members("StackResources", items)), nil
}

func cfnListExports(ws *world.State, c *wire.Call) (any, error) {
	ws.RLock()
	defer ws.RUnlock()
	var items []*wire.Node
	for _, st := range standing(ws, c) {
		for _, o := range st.Outputs {
			if o.ExportName != "" {
				items = append(items, wire.El("", wire.Tx("ExportingStackId", st.ID), wire.Tx("Name", o.ExportName), wire.Tx("Value", o.Value)))
			}
		}
	}
	return cfnPage(c, "exports", "Exports", items)
}

// standing is the account region's stacks that are not deleted, which
// every list but ListStacks leaves out. The caller holds the lock.
func standing(ws *world.State, c *wire.Call) []*world.Stack {
	var out []*world.Stack
	for _, st := range ws.Stacks(c.Account, c.Region) {
		if st.Status != "DELETE_COMPLETE" {
			out = append(out, st)
		}
	}
	return out
}

// cfnPage answers one page (c.PageSize) of a built member list under
// NextToken, as CloudFormation's lists page.
func cfnPage(c *wire.Call, kind, list string, items []*wire.Node) (any, error) {
	cur, err := wire.Paging{Prefix: kind, Default: c.PageSize,
		BadToken: wire.Validation("Invalid NextToken")}.Start(c, 0, c.Str("NextToken"))
	if err != nil {
		return nil, err
	}
	lo, hi, next := cur.Cut(len(items))
	res := wire.El("", wire.Members(list, items[lo:hi]))
	if next != "" {
		res.Kids = append(res.Kids, wire.Tx("NextToken", next))
	}
	return res, nil
}

// cfnListImports lists the stacks importing an export, by name, as
// CloudFormation does; an export no stack imports (or no such export) is
// a ValidationError, not an empty list.
func cfnListImports(ws *world.State, c *wire.Call) (any, error) {
	name := c.Str("ExportName")
	if name == "" {
		return nil, wire.Validation("1 validation error detected: Value null at 'exportName' failed to satisfy constraint: Member must not be null")
	}
	ws.RLock()
	defer ws.RUnlock()
	var items []*wire.Node
	for _, st := range standing(ws, c) {
		for _, imp := range st.Imports {
			if imp == name {
				items = append(items, wire.Tx("", st.Name))
				break
			}
		}
	}
	if len(items) == 0 {
		return nil, wire.Validation("Export '%s' is not imported by any stack.", name)
	}
	return cfnPage(c, "imports", "Imports", items)
}

func (t types) describeType(ws *world.State, c *wire.Call) (any, error) {
	typ, name := c.Str("Type"), c.Str("TypeName")
	if arn := c.Str("Arn"); name == "" && arn != "" {
		// arn:aws:cloudformation:REGION::type/resource/AWS-S3-Bucket
		if i := strings.LastIndex(arn, "/"); i >= 0 {
			name = strings.ReplaceAll(arn[i+1:], "-", "::")
		}
		typ = "RESOURCE"
	}
	if typ != "" && typ != "RESOURCE" {
		return nil, wire.Errf(404, "TypeNotFoundException", "The type %s of kind %s cannot be found.", name, typ)
	}
	if name == "" {
		return nil, wire.Validation("TypeName or Arn must be specified.")
	}
	schemas := world.Schemas{State: ws, Fallback: t.fallback}
	f, ok := schemas.Facts(c.Account, c.Region, name)
	if !ok {
		return nil, wire.Errf(404, "TypeNotFoundException", "The type '%s' cannot be found.", name)
	}
	doc, err := registrySchema(name, f, schemas.Readable(c.Account, c.Region, name))
	if err != nil {
		return nil, err
	}
	return wire.El("",
		wire.Tx("Arn", "arn:aws:cloudformation:"+c.Region+"::type/resource/"+strings.ReplaceAll(name, "::", "-")),
		wire.Tx("Type", "RESOURCE"), wire.Tx("TypeName", name), wire.Tx("Schema", string(doc)),
		wire.Tx("ProvisioningType", provisioningType(f)), wire.Tx("DeprecatedStatus", "LIVE"),
		wire.Tx("Visibility", "PUBLIC"), wire.Bool("IsDefaultVersion", true), wire.Tx("DefaultVersionId", "00000001"),
	), nil
}
