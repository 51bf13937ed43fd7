package sandbox

import (
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

func cloudFormationService(s *Server) *wire.Service {
	return wire.Query("cloudformation", "http://cloudformation.amazonaws.com/doc/2010-05-15/", wire.Ops{
		"DescribeStacks":         wire.Bound(s.cfnDescribeStacks),
		"ListStacks":             wire.Bound(s.cfnListStacks),
		"GetTemplate":            wire.Bound(s.cfnGetTemplate),
		"ListStackResources":     wire.Bound(s.cfnListStackResources),
		"DescribeStackResources": wire.Bound(s.cfnDescribeStackResources),
		"ListExports":            wire.Bound(s.cfnListExports),
		"ListImports":            wire.Bound(s.cfnListImports),
		"DescribeType":           wire.Bound(s.cfnDescribeType),
	})
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
func (s *Server) lookupStack(c *wire.Call, name string) (*world.Stack, error) {
	if name == "" {
		return nil, wire.Validation("1 validation error detected: Value null at 'stackName' failed to satisfy constraint: Member must not be null")
	}
	st := s.st.FindStack(c.Account, c.Region, name)
	if st == nil {
		return nil, notFoundStack(name)
	}
	return st, nil
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

func (s *Server) cfnDescribeStacks(c *wire.Call) (any, error) {
	s.st.RLock()
	defer s.st.RUnlock()
	if name := c.Str("StackName"); name != "" {
		st, err := s.lookupStack(c, name)
		if err != nil {
			return nil, err
		}
		return wire.El("", wire.Members("Stacks", []*wire.Node{stackNode(st)})), nil
	}
	var live []*world.Stack
	for _, st := range s.st.Stacks(c.Account, c.Region) {
		if st.Status != "DELETE_COMPLETE" {
			live = append(live, st)
		}
	}
	off, ok := wire.PageOffset("stacks", c.Str("NextToken"))
	if !ok {
		return nil, wire.Validation("Invalid NextToken")
	}
	lo, hi, next := wire.Page(len(live), off, s.opts.PageSize)
	var items []*wire.Node
	for _, st := range live[lo:hi] {
		items = append(items, stackNode(st))
	}
	res := wire.El("", wire.Members("Stacks", items))
	if next >= 0 {
		res.Kids = append(res.Kids, wire.Tx("NextToken", wire.PageToken("stacks", next)))
	}
	return res, nil
}

func (s *Server) cfnListStacks(c *wire.Call) (any, error) {
	filter := map[string]bool{}
	for _, f := range c.List("StackStatusFilter") {
		filter[f] = true
	}
	s.st.RLock()
	defer s.st.RUnlock()
	var sel []*world.Stack
	for _, st := range s.st.Stacks(c.Account, c.Region) {
		if len(filter) == 0 || filter[st.Status] {
			sel = append(sel, st)
		}
	}
	off, ok := wire.PageOffset("liststacks", c.Str("NextToken"))
	if !ok {
		return nil, wire.Validation("Invalid NextToken")
	}
	lo, hi, next := wire.Page(len(sel), off, s.opts.PageSize)
	var items []*wire.Node
	for _, st := range sel[lo:hi] {
		n := wire.El("", wire.Tx("StackId", st.ID), wire.Tx("StackName", st.Name), wire.Opt("TemplateDescription", st.Description),
			wire.Time("CreationTime", stackCreated(st)), wire.Tx("StackStatus", st.Status),
			wire.Opt("ParentId", st.ParentID), wire.Opt("RootId", st.RootID),
			wire.El("DriftInformation", wire.Tx("StackDriftStatus", "NOT_CHECKED")))
		if st.LastUpdatedTime != nil {
			n.Kids = append(n.Kids, wire.Time("LastUpdatedTime", *st.LastUpdatedTime))
		}
		items = append(items, n)
	}
	res := wire.El("", wire.Members("StackSummaries", items))
	if next >= 0 {
		res.Kids = append(res.Kids, wire.Tx("NextToken", wire.PageToken("liststacks", next)))
	}
	return res, nil
}

func (s *Server) cfnGetTemplate(c *wire.Call) (any, error) {
	stage := c.Str("TemplateStage")
	if stage != "" && stage != "Original" && stage != "Processed" {
		return nil, wire.Validation("1 validation error detected: Value '%s' at 'templateStage' failed to satisfy constraint: Member must satisfy enum value set: [Original, Processed]", stage)
	}
	s.st.RLock()
	defer s.st.RUnlock()
	st, err := s.lookupStack(c, c.Str("StackName"))
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

func (s *Server) cfnListStackResources(c *wire.Call) (any, error) {
	s.st.RLock()
	defer s.st.RUnlock()
	st, err := s.lookupStack(c, c.Str("StackName"))
	if err != nil {
		return nil, err
	}
	off, ok := wire.PageOffset("resources", c.Str("NextToken"))
	if !ok {
		return nil, wire.Validation("Invalid NextToken")
	}
	lo, hi, next := wire.Page(len(st.Resources), off, s.opts.PageSize)
	var items []*wire.Node
	for _, r := range st.Resources[lo:hi] {
		items = append(items, wire.El("",
			wire.Tx("LogicalResourceId", r.LogicalID), wire.Opt("PhysicalResourceId", r.PhysicalID),
			wire.Tx("ResourceType", r.Type), wire.Time("LastUpdatedTimestamp", stackUpdated(st)),
			wire.Tx("ResourceStatus", r.Status),
			wire.El("DriftInformation", wire.Tx("StackResourceDriftStatus", "NOT_CHECKED"))))
	}
	res := wire.El("", wire.Members("StackResourceSummaries", items))
	if next >= 0 {
		res.Kids = append(res.Kids, wire.Tx("NextToken", wire.PageToken("resources", next)))
	}
	return res, nil
}

func (s *Server) cfnDescribeStackResources(c *wire.Call) (any, error) {
	name, phys, logical := c.Str("StackName"), c.Str("PhysicalResourceId"), c.Str("LogicalResourceId")
	s.st.RLock()
	defer s.st.RUnlock()
	var st *world.Stack
	switch {
	case name != "":
		var err error
		if st, err = s.lookupStack(c, name); err != nil {
			return nil, err
		}
	case phys != "":
		for _, cand := range s.st.Stacks(c.Account, c.Region) {
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

func (s *Server) cfnListExports(c *wire.Call) (any, error) {
	s.st.RLock()
	defer s.st.RUnlock()
	var items []*wire.Node
	for _, st := range s.st.Stacks(c.Account, c.Region) {
		if st.Status == "DELETE_COMPLETE" {
			continue
		}
		for _, o := range st.Outputs {
			if o.ExportName != "" {
				items = append(items, wire.El("", wire.Tx("ExportingStackId", st.ID), wire.Tx("Name", o.ExportName), wire.Tx("Value", o.Value)))
			}
		}
	}
	return s.cfnPage(c, "exports", "Exports", items)
}

// cfnPage answers one page of a built member list under NextToken, as
// ListExports and ListImports page.
func (s *Server) cfnPage(c *wire.Call, kind, list string, items []*wire.Node) (any, error) {
	off, ok := wire.PageOffset(kind, c.Str("NextToken"))
	if !ok {
		return nil, wire.Validation("Invalid NextToken")
	}
	lo, hi, next := wire.Page(len(items), off, s.opts.PageSize)
	res := wire.El("", wire.Members(list, items[lo:hi]))
	if next >= 0 {
		res.Kids = append(res.Kids, wire.Tx("NextToken", wire.PageToken(kind, next)))
	}
	return res, nil
}

// cfnListImports lists the stacks importing an export, by name, as
// CloudFormation does; an export no stack imports (or no such export) is
// a ValidationError, not an empty list.
func (s *Server) cfnListImports(c *wire.Call) (any, error) {
	name := c.Str("ExportName")
	if name == "" {
		return nil, wire.Validation("1 validation error detected: Value null at 'exportName' failed to satisfy constraint: Member must not be null")
	}
	s.st.RLock()
	defer s.st.RUnlock()
	var items []*wire.Node
	for _, st := range s.st.Stacks(c.Account, c.Region) {
		if st.Status == "DELETE_COMPLETE" {
			continue
		}
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
	return s.cfnPage(c, "imports", "Imports", items)
}

func (s *Server) cfnDescribeType(c *wire.Call) (any, error) {
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
	f, ok := s.facts(c.Account, c.Region, name)
	if !ok {
		return nil, wire.Errf(404, "TypeNotFoundException", "The type '%s' cannot be found.", name)
	}
	doc, err := registrySchema(name, f, s.readable(c.Account, c.Region, name))
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
