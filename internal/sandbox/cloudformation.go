package sandbox

import (
	"github.com/realdrift/realdrift/internal/sandbox/world"
	"strings"
	"time"
)

func cloudFormationService(s *Server) *service {
	return &service{
		name:     "cloudformation",
		protocol: protoQuery,
		xmlns:    "http://cloudformation.amazonaws.com/doc/2010-05-15/",
		throttle: apiError{Status: 400, Code: "Throttling"},
		deny:     apiError{Status: 403, Code: "AccessDenied"},
		ops: map[string]handler{
			"DescribeStacks":         serverOp(s.cfnDescribeStacks),
			"ListStacks":             serverOp(s.cfnListStacks),
			"GetTemplate":            serverOp(s.cfnGetTemplate),
			"ListStackResources":     serverOp(s.cfnListStackResources),
			"DescribeStackResources": serverOp(s.cfnDescribeStackResources),
			"ListExports":            serverOp(s.cfnListExports),
			"ListImports":            serverOp(s.cfnListImports),
			"DescribeType":           serverOp(s.cfnDescribeType),
		},
	}
}

// defaultStackTime stands in for a stack time the world leaves out.
var defaultStackTime = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func stackCreated(s *world.Stack) time.Time {
	if s.CreationTime != nil {
		return *s.CreationTime
	}
	return defaultStackTime
}

func stackUpdated(s *world.Stack) time.Time {
	if s.LastUpdatedTime != nil {
		return *s.LastUpdatedTime
	}
	return stackCreated(s)
}

func notFoundStack(name string) error {
	return validation("Stack with id %s does not exist", name)
}

// lookupStack finds the named stack or answers CloudFormation's error.
func (s *Server) lookupStack(c *call, name string) (*world.Stack, error) {
	if name == "" {
		return nil, validation("1 validation error detected: Value null at 'stackName' failed to satisfy constraint: Member must not be null")
	}
	st := s.st.FindStack(c.account, c.region, name)
	if st == nil {
		return nil, notFoundStack(name)
	}
	return st, nil
}

func stackNode(st *world.Stack) *xnode {
	var params, outputs, tags []*xnode
	for _, p := range st.Parameters {
		v := p.Value
		if p.NoEcho {
			v = "****"
		}
		params = append(params, el("", tx("ParameterKey", p.Key), tx("ParameterValue", v), opt("ResolvedValue", p.ResolvedValue)))
	}
	for _, o := range st.Outputs {
		outputs = append(outputs, el("", tx("OutputKey", o.Key), tx("OutputValue", o.Value), opt("Description", o.Description), opt("ExportName", o.ExportName)))
	}
	for _, t := range st.Tags {
		tags = append(tags, el("", tx("Key", t.Key), tx("Value", t.Value)))
	}
	var caps []*xnode
	for _, cp := range st.Capabilities {
		caps = append(caps, tx("", cp))
	}
	n := el("",
		tx("StackId", st.ID), tx("StackName", st.Name), opt("Description", st.Description),
		members("Parameters", params), xtime("CreationTime", stackCreated(st)),
		opt("ParentId", st.ParentID), opt("RootId", st.RootID),
		tx("StackStatus", st.Status), xbool("DisableRollback", false),
		members("NotificationARNs", nil), members("Capabilities", caps),
		members("Outputs", outputs), members("Tags", tags),
		xbool("EnableTerminationProtection", st.TerminationProtection),
		el("DriftInformation", tx("StackDriftStatus", "NOT_CHECKED")),
	)
	if st.LastUpdatedTime != nil {
		n.kids = append(n.kids, xtime("LastUpdatedTime", *st.LastUpdatedTime))
	}
	return n
}

func (s *Server) cfnDescribeStacks(c *call) (any, error) {
	s.st.RLock()
	defer s.st.RUnlock()
	if name := c.str("StackName"); name != "" {
		st, err := s.lookupStack(c, name)
		if err != nil {
			return nil, err
		}
		return el("", members("Stacks", []*xnode{stackNode(st)})), nil
	}
	var live []*world.Stack
	for _, st := range s.st.Stacks(c.account, c.region) {
		if st.Status != "DELETE_COMPLETE" {
			live = append(live, st)
		}
	}
	off, ok := pageOffset("stacks", c.str("NextToken"))
	if !ok {
		return nil, validation("Invalid NextToken")
	}
	lo, hi, next := page(len(live), off, s.opts.PageSize)
	var items []*xnode
	for _, st := range live[lo:hi] {
		items = append(items, stackNode(st))
	}
	res := el("", members("Stacks", items))
	if next >= 0 {
		res.kids = append(res.kids, tx("NextToken", pageToken("stacks", next)))
	}
	return res, nil
}

func (s *Server) cfnListStacks(c *call) (any, error) {
	filter := map[string]bool{}
	for _, f := range c.list("StackStatusFilter") {
		filter[f] = true
	}
	s.st.RLock()
	defer s.st.RUnlock()
	var sel []*world.Stack
	for _, st := range s.st.Stacks(c.account, c.region) {
		if len(filter) == 0 || filter[st.Status] {
			sel = append(sel, st)
		}
	}
	off, ok := pageOffset("liststacks", c.str("NextToken"))
	if !ok {
		return nil, validation("Invalid NextToken")
	}
	lo, hi, next := page(len(sel), off, s.opts.PageSize)
	var items []*xnode
	for _, st := range sel[lo:hi] {
		n := el("", tx("StackId", st.ID), tx("StackName", st.Name), opt("TemplateDescription", st.Description),
			xtime("CreationTime", stackCreated(st)), tx("StackStatus", st.Status),
			opt("ParentId", st.ParentID), opt("RootId", st.RootID),
			el("DriftInformation", tx("StackDriftStatus", "NOT_CHECKED")))
		if st.LastUpdatedTime != nil {
			n.kids = append(n.kids, xtime("LastUpdatedTime", *st.LastUpdatedTime))
		}
		items = append(items, n)
	}
	res := el("", members("StackSummaries", items))
	if next >= 0 {
		res.kids = append(res.kids, tx("NextToken", pageToken("liststacks", next)))
	}
	return res, nil
}

func (s *Server) cfnGetTemplate(c *call) (any, error) {
	stage := c.str("TemplateStage")
	if stage != "" && stage != "Original" && stage != "Processed" {
		return nil, validation("1 validation error detected: Value '%s' at 'templateStage' failed to satisfy constraint: Member must satisfy enum value set: [Original, Processed]", stage)
	}
	s.st.RLock()
	defer s.st.RUnlock()
	st, err := s.lookupStack(c, c.str("StackName"))
	if err != nil {
		return nil, err
	}
	body := st.TemplateBody
	if stage == "Processed" && st.ProcessedTemplateBody != "" {
		body = st.ProcessedTemplateBody
	}
	stages := []*xnode{tx("", "Original"), tx("", "Processed")}
	return el("", tx("TemplateBody", body), members("StagesAvailable", stages)), nil
}

func (s *Server) cfnListStackResources(c *call) (any, error) {
	s.st.RLock()
	defer s.st.RUnlock()
	st, err := s.lookupStack(c, c.str("StackName"))
	if err != nil {
		return nil, err
	}
	off, ok := pageOffset("resources", c.str("NextToken"))
	if !ok {
		return nil, validation("Invalid NextToken")
	}
	lo, hi, next := page(len(st.Resources), off, s.opts.PageSize)
	var items []*xnode
	for _, r := range st.Resources[lo:hi] {
		items = append(items, el("",
			tx("LogicalResourceId", r.LogicalID), opt("PhysicalResourceId", r.PhysicalID),
			tx("ResourceType", r.Type), xtime("LastUpdatedTimestamp", stackUpdated(st)),
			tx("ResourceStatus", r.Status),
			el("DriftInformation", tx("StackResourceDriftStatus", "NOT_CHECKED"))))
	}
	res := el("", members("StackResourceSummaries", items))
	if next >= 0 {
		res.kids = append(res.kids, tx("NextToken", pageToken("resources", next)))
	}
	return res, nil
}

func (s *Server) cfnDescribeStackResources(c *call) (any, error) {
	name, phys, logical := c.str("StackName"), c.str("PhysicalResourceId"), c.str("LogicalResourceId")
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
		for _, cand := range s.st.Stacks(c.account, c.region) {
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
			return nil, validation("Stack for %s does not exist", phys)
		}
	default:
		return nil, validation("Either StackName or PhysicalResourceId must be specified.")
	}
	var items []*xnode
	for _, r := range st.Resources {
		if logical != "" && r.LogicalID != logical {
			continue
		}
		items = append(items, el("",
			tx("StackName", st.Name), tx("StackId", st.ID),
			tx("LogicalResourceId", r.LogicalID), opt("PhysicalResourceId", r.PhysicalID),
			tx("ResourceType", r.Type), xtime("Timestamp", stackUpdated(st)),
			tx("ResourceStatus", r.Status),
			el("DriftInformation", tx("StackResourceDriftStatus", "NOT_CHECKED"))))
	}
	return el("", members("StackResources", items)), nil
}

func (s *Server) cfnListExports(c *call) (any, error) {
	s.st.RLock()
	defer s.st.RUnlock()
	var items []*xnode
	for _, st := range s.st.Stacks(c.account, c.region) {
		if st.Status == "DELETE_COMPLETE" {
			continue
		}
		for _, o := range st.Outputs {
			if o.ExportName != "" {
				items = append(items, el("", tx("ExportingStackId", st.ID), tx("Name", o.ExportName), tx("Value", o.Value)))
			}
		}
	}
	return s.cfnPage(c, "exports", "Exports", items)
}

// cfnPage answers one page of a built member list under NextToken, as
// ListExports and ListImports page.
func (s *Server) cfnPage(c *call, kind, list string, items []*xnode) (any, error) {
	off, ok := pageOffset(kind, c.str("NextToken"))
	if !ok {
		return nil, validation("Invalid NextToken")
	}
	lo, hi, next := page(len(items), off, s.opts.PageSize)
	res := el("", members(list, items[lo:hi]))
	if next >= 0 {
		res.kids = append(res.kids, tx("NextToken", pageToken(kind, next)))
	}
	return res, nil
}

// cfnListImports lists the stacks importing an export, by name, as
// CloudFormation does; an export no stack imports (or no such export) is
// a ValidationError, not an empty list.
func (s *Server) cfnListImports(c *call) (any, error) {
	name := c.str("ExportName")
	if name == "" {
		return nil, validation("1 validation error detected: Value null at 'exportName' failed to satisfy constraint: Member must not be null")
	}
	s.st.RLock()
	defer s.st.RUnlock()
	var items []*xnode
	for _, st := range s.st.Stacks(c.account, c.region) {
		if st.Status == "DELETE_COMPLETE" {
			continue
		}
		for _, imp := range st.Imports {
			if imp == name {
				items = append(items, tx("", st.Name))
				break
			}
		}
	}
	if len(items) == 0 {
		return nil, validation("Export '%s' is not imported by any stack.", name)
	}
	return s.cfnPage(c, "imports", "Imports", items)
}

func (s *Server) cfnDescribeType(c *call) (any, error) {
	typ, name := c.str("Type"), c.str("TypeName")
	if arn := c.str("Arn"); name == "" && arn != "" {
		// arn:aws:cloudformation:REGION::type/resource/AWS-S3-Bucket
		if i := strings.LastIndex(arn, "/"); i >= 0 {
			name = strings.ReplaceAll(arn[i+1:], "-", "::")
		}
		typ = "RESOURCE"
	}
	if typ != "" && typ != "RESOURCE" {
		return nil, errf(404, "TypeNotFoundException", "The type %s of kind %s cannot be found.", name, typ)
	}
	if name == "" {
		return nil, validation("TypeName or Arn must be specified.")
	}
	f, ok := s.facts(c.account, c.region, name)
	if !ok {
		return nil, errf(404, "TypeNotFoundException", "The type '%s' cannot be found.", name)
	}
	doc, err := registrySchema(name, f, s.readable(c.account, c.region, name))
	if err != nil {
		return nil, err
	}
	return el("",
		tx("Arn", "arn:aws:cloudformation:"+c.region+"::type/resource/"+strings.ReplaceAll(name, "::", "-")),
		tx("Type", "RESOURCE"), tx("TypeName", name), tx("Schema", string(doc)),
		tx("ProvisioningType", provisioningType(f)), tx("DeprecatedStatus", "LIVE"),
		tx("Visibility", "PUBLIC"), xbool("IsDefaultVersion", true), tx("DefaultVersionId", "00000001"),
	), nil
}
