// Package intrinsic is realdrift's fail-closed resolver of CloudFormation
// intrinsic functions: it turns a parsed template (package cfn) plus what is
// known about the deployed stack into the values CloudFormation gave each
// resource property, and marks everything it cannot know.
//
// # API for the check pipeline
//
//	r := intrinsic.New(tpl, intrinsic.Context{...})  // pass 1: no live attributes
//	for _, res := range r.Resources() { ... }       // pruned, resolved resources
//	intrinsic.GetAttTargets(tpl.Resources[id].Properties) // pass 1.5: whose live model is needed
//	r2 := r.WithLiveAttrs(live)                      // pass 2: Fn::GetAtt now resolves
//	res, ok := r2.Resource(id)
//	outs := r2.Outputs()
//	intrinsic.UsesImportValue(tpl)   // fetch exports only then
//	intrinsic.StackOutputRefs(tpl)   // literal Fn::GetStackOutput targets to prefetch
//	intrinsic.CountUnknown(res.Properties)
//
// Context carries the account, region, stack name and id, the parameter
// values as DescribeStacks returns them (list parameters comma-separated;
// for SSM-typed parameters the ResolvedValue), physical ids, live models,
// exports and a Fn::GetStackOutput lookup. The resolver does no I/O: the
// caller fetches everything first.
//
// # Rules and invariants
//
//   - Fail closed. Anything that cannot be known exactly becomes a
//     drift.Unknown with a short reason; a value is never guessed. A string
//     built from an Unknown part (Fn::Join, Fn::Sub, …) is Unknown as a
//     whole; a list keeps its known elements. Fn::GetAZs, Fn::Transform,
//     AWS::NotificationARNs, an IPv6 Fn::Cidr and any intrinsic this package
//     does not implement are always Unknown.
//   - Secrets. A dynamic reference {{resolve:…}} is always Unknown; it is
//     secret-bearing (Unknown.Secret) unless its service is plain "ssm". A
//     NoEcho parameter's supplied value is a drift.Secret; unsupplied or
//     masked ("****") it is Unknown{Secret: true}. Any value computed from a
//     Secret is a Secret (or a secret Unknown) too. Reasons never quote a
//     secret-bearing reference.
//   - Values are JSON-shaped: map[string]any, []any, string, float64, bool,
//     plus drift.Unknown and drift.Secret. A Ref to a Number parameter is a
//     string (as in CloudFormation); a Ref to a list parameter (any
//     List<…>, CommaDelimitedList, or an SSM type over them) is a []any of
//     strings with spaces trimmed.
//   - Pseudo parameters: AWS::Region is folded to lower case;
//     AWS::Partition and AWS::URLSuffix come from the region (table in
//     pseudo.go); an empty Context field is Unknown, never a placeholder.
//   - AWS::NoValue removes the map key or list element holding it; used as
//     an operand anywhere else it is Unknown.
//   - Conditions are evaluated once, in New, with three-valued logic
//     (true, false, unknown). Fn::If on an unknown condition picks no
//     branch: it is Unknown. A resource or output whose Condition is false
//     is pruned; unknown keeps it (with ConditionUnknown set).
//   - Fn::GetAtt X.A.B reads path A.B of X's live model (Context.LiveAttrs),
//     trying the whole "A.B" as one key first; a list step takes an index or
//     a keyed element (a nested stack's Outputs.Name). Absent → Unknown.
//   - Results never alias the template, the mappings or the live models.
//   - A Resolver is immutable after New and safe for concurrent use.
package intrinsic
