package scan

import (
	"encoding/json"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
)

// Desired is the declared side of one stack: what LoadDesired returns and
// every later step takes. Its JSON form is lossless for the pipeline
// (Unknown values survive; secrets are withheld and read back as Unknown).
type Desired struct {
	Stack drift.StackRef `json:"stack"`
	// StackID is the stack's ARN.
	StackID string `json:"stackId"`
	// LastUpdated is when the stack was last updated (else created), as
	// DescribeStacks says: check --who looks for the writes since then.
	LastUpdated time.Time `json:"lastUpdated,omitzero"`
	// StackTags are the stack-level tags (DescribeStacks), which
	// CloudFormation propagates to the resources.
	StackTags map[string]string `json:"stackTags,omitempty"`
	// TemplateBody is the deployed template as GetTemplate returned it.
	TemplateBody string `json:"templateBody"`
	// Parameters are the stack's parameter values as DescribeStacks shows
	// them (NoEcho values masked).
	Parameters map[string]string `json:"parameters,omitempty"`
	// PhysicalIDs maps logical id → physical id (ListStackResources).
	PhysicalIDs map[string]string `json:"physicalIds"`
	// Exports are the account-region exports, listed only when the
	// template uses Fn::ImportValue.
	Exports map[string]string `json:"exports,omitempty"`
	// StackOutputs are the prefetched Fn::GetStackOutput answers, keyed
	// "region|stack|output".
	StackOutputs map[string]string `json:"stackOutputs,omitempty"`
	// KMSAliasTargets maps the managed KMS aliases (alias/aws/*) to their key
	// ids, looked up only when a declared value uses one.
	KMSAliasTargets map[string]string `json:"kmsAliasTargets,omitempty"`
	// DefaultSecurityGroups are the account-region's default security
	// groups, asked only when a read resource may be attached to one
	// (Clients.DefaultSecurityGroups); nil when not asked.
	DefaultSecurityGroups []string `json:"defaultSecurityGroups,omitempty"`
	// NestedParameters are the parameter declarations of the nested
	// templates of the stack's nested stacks, keyed by the nested stack's
	// ARN, read only for a stack resource that echoes something of them
	// (Clients.NestedParameters); nil when none was needed.
	NestedParameters map[string]map[string]NestedParameter `json:"nestedParameters,omitempty"`
	// OutsideClusters are the live models of the DB clusters member
	// instances of the stack name that are no resource of it, keyed by
	// the lower-cased cluster identifier (Clients.OutsideClusters); nil
	// when none was needed.
	OutsideClusters map[string]map[string]any `json:"outsideClusters,omitempty"`
	// Resources are the template's resources after condition pruning, with
	// their declared properties resolved, sorted by logical id.
	Resources []Resource `json:"resources"`
}

// Resource is one declared resource of the stack.
type Resource struct {
	LogicalID     string `json:"logicalId"`
	Type          string `json:"resourceType"`
	PhysicalID    string `json:"physicalId"`
	ConstructPath string `json:"constructPath,omitempty"`
	// Declared holds the resolved properties; drift.Unknown marks what the
	// resolver could not know.
	Declared map[string]any `json:"-"`
	// Unresolved is set (with the reason) when the property bag as a whole
	// could not be resolved; Declared is then empty and the resource is
	// reported unresolved, not compared.
	Unresolved string `json:"unresolved,omitempty"`
	// GetAttTargets are the logical ids the properties reference through
	// Fn::GetAtt (they resolve only once those resources are read).
	GetAttTargets []string `json:"getAttTargets,omitempty"`
}

// Ref returns the resource's reference.
func (r Resource) Ref() drift.ResourceRef {
	return drift.ResourceRef{LogicalID: r.LogicalID, Type: r.Type, PhysicalID: r.PhysicalID, ConstructPath: r.ConstructPath}
}

type resourceJSON struct {
	resourceAlias
	Declared declaredJSON `json:"declared,omitempty"`
}

type resourceAlias Resource

// MarshalJSON writes the resource with its declared values in wire form.
func (r Resource) MarshalJSON() ([]byte, error) {
	return json.Marshal(resourceJSON{resourceAlias: resourceAlias(r), Declared: declaredJSON(r.Declared)})
}

// UnmarshalJSON reads a resource written by MarshalJSON.
func (r *Resource) UnmarshalJSON(b []byte) error {
	var w resourceJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*r = Resource(w.resourceAlias)
	r.Declared = map[string]any(w.Declared)
	return nil
}

// resource returns the desired resource with logical id id.
func (d *Desired) resource(id string) (Resource, bool) {
	for _, r := range d.Resources {
		if r.LogicalID == id {
			return r, true
		}
	}
	return Resource{}, false
}
