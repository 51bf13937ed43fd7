package intrinsic

// Context is what the caller knows about the deployed stack. Every field may
// be empty; whatever depends on an empty field resolves to drift.Unknown.
type Context struct {
	AccountID string
	// Region is folded to lower case before use.
	Region    string
	StackName string
	StackID   string

	// Parameters are the stack's parameter values as DescribeStacks returns
	// them: list parameters comma-separated; SSM-typed parameters must carry
	// the ResolvedValue (leave them out otherwise: their Default is an SSM
	// parameter name, never the value). A NoEcho parameter's masked value
	// "****" counts as not supplied. Missing parameters take their Default.
	Parameters map[string]string

	// PhysicalIDs maps logical id → physical id (ListStackResources).
	PhysicalIDs map[string]string

	// LiveAttrs maps logical id → the resource's live model (JSON-shaped),
	// filled in pass 2; Fn::GetAtt reads it.
	LiveAttrs map[string]map[string]any

	// Exports maps export name → value (ListExports); Fn::ImportValue reads it.
	Exports map[string]string

	// StackOutputs answers Fn::GetStackOutput; nil means no answers. It must
	// not do I/O: prefetch with StackOutputRefs.
	StackOutputs func(StackOutputRef) (string, bool)
}

// StackOutputRef is the target of one Fn::GetStackOutput.
type StackOutputRef struct {
	StackName  string
	OutputName string
	// Region is the referenced stack's region; the current stack's region
	// when the template leaves it out.
	Region string
	// RoleArn is the role CloudFormation assumes to read the output, for a
	// stack in another account; "" when the template leaves it out.
	RoleArn string
}
