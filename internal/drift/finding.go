package drift

// Redacted replaces a secret-bearing value wherever a value would be written.
const Redacted = "****REDACTED****"

// ResourceRef names one resource of a stack.
type ResourceRef struct {
	LogicalID     string `json:"logicalId"`
	Type          string `json:"resourceType"`
	PhysicalID    string `json:"physicalId"`
	ConstructPath string `json:"constructPath,omitempty"`
}

// StackRef names one deployed stack.
type StackRef struct {
	Account string `json:"account"`
	Region  string `json:"region"`
	Name    string `json:"stack"`
}

// String renders the stack as name (account/region).
func (s StackRef) String() string {
	return s.Name + " (" + s.Account + "/" + s.Region + ")"
}

// WholeArrayRevert tells revert to write a whole array back when an element
// inside it drifted.
type WholeArrayRevert struct {
	Path  string `json:"path"`
	Value any    `json:"value"`
}

// Finding is one difference between a resource's template and its live model.
// Its JSON form is the corpus finding shape; the pipeline adds the optional
// fields after Reason.
type Finding struct {
	Tier          Tier   `json:"tier"`
	LogicalID     string `json:"logicalId"`
	ResourceType  string `json:"resourceType"`
	PhysicalID    string `json:"physicalId"`
	ConstructPath string `json:"constructPath,omitempty"`
	// Path is dotted (A.B.C), with index segments (A.1.B) and identity-keyed
	// elements (A[key].B). Empty for whole-resource findings.
	Path string `json:"path"`
	// Actual is the live value; nil means absent.
	Actual any `json:"actual,omitempty"`
	// Desired is the declared value (declared tier); nil means absent.
	Desired          any               `json:"desired,omitempty"`
	Nested           bool              `json:"nested,omitempty"`
	Note             string            `json:"note,omitempty"`
	WriteOnly        bool              `json:"writeOnly,omitempty"`
	AttributeKey     string            `json:"attributeKey,omitempty"`
	FreeFormKey      bool              `json:"freeFormKey,omitempty"`
	WholeArrayRevert *WholeArrayRevert `json:"wholeArrayRevert,omitempty"`

	// Reason explains a skipped finding.
	Reason string `json:"reason,omitempty"`
	// Unrecorded marks an undeclared or added finding the baseline has not
	// recorded yet (Potential Drift).
	Unrecorded bool `json:"unrecorded,omitempty"`
	// ChangedBy is who last wrote the resource (check --who, the service's
	// alerts): never part of the comparison, never a change of verdict.
	ChangedBy *ChangedBy `json:"changedBy,omitempty"`
}

// Ref returns the resource the finding is about.
func (f Finding) Ref() ResourceRef {
	return ResourceRef{LogicalID: f.LogicalID, Type: f.ResourceType, PhysicalID: f.PhysicalID, ConstructPath: f.ConstructPath}
}

// KeyedPath is the path a finding is named by (the report, ignore rules,
// revert items): Path, with an attribute-bag key or an attachment list's
// member in brackets (Path[AttributeKey], the form a live-only key or
// member has), so a rule or an --only glob names one member.
func (f Finding) KeyedPath() string {
	if f.AttributeKey != "" {
		return f.Path + "[" + f.AttributeKey + "]"
	}
	return f.Path
}

// Key identifies a finding within one resource: tier and path.
func (f Finding) Key() string { return f.Tier.String() + " " + f.Path }
