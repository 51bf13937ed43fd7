// Package diff computes what the next deploy of a stack changes: per
// resource CREATE / UPDATE / REPLACE / DELETE (or no change), the changed
// sub-properties, and the changed outputs. It is pure: Compute takes the
// deployed template, the new (synthesized) template and the deployed
// stack's resolver context (parameters, physical ids, live attributes) and
// does no I/O.
//
// The rules follow the sibling tool's diff (shared seed 000, "How the diff
// compares state with a template", and seed 003, "cdkd diff"); each has one
// case in diff_test.go that fails when the rule is broken.
//
//   - resolved, not raw (000 "Intrinsic function handling"): both templates
//     are resolved with package intrinsic against the deployed stack, so a
//     change buried in an intrinsic (a literal inside Fn::Join) is a change,
//     and a rewritten intrinsic that resolves to the same value is not.
//   - unknown is not a change (000 "Intrinsic function handling"): a leaf
//     either side cannot resolve (drift.Unknown, a secret dynamic reference
//     included) is never reported as changed. A top-level property whose
//     template text changed and that holds such a leaf is listed as
//     Undecided, not counted.
//   - undecided per leaf (issue 31): an unknown leaf is undecided at its
//     own path, also when a sibling in the same property has a known
//     change; it is listed only when its template text changed.
//   - a reference to a created resource (000 "Intrinsic function
//     handling", the CREATE-time case): an undecided value that reads a
//     resource this deploy creates is a change, its new value known after
//     the deploy.
//   - only changed sub-properties (000 "Diff display"): maps are compared
//     key by key and equal-length lists element by element; unchanged
//     siblings are not listed. Scalars compare by their CloudFormation text
//     (80 and "80" are one value).
//   - removed keys count (a deliberate difference from 000 "AWS default key
//     filtering"): our old side is the deployed template, not a bag of
//     values AWS returned, so a key only the old template has was removed by
//     the user and the deploy removes it.
//   - condition pruning (000 "Resource-level Condition: exclusion"): a
//     resource or output whose Condition is false in either template is
//     absent from that side (a flip true → false is a DELETE); an unknown
//     condition keeps the resource, and a resource absent from the deployed
//     side only because of the same unknown condition is Undecided.
//   - replacement (000 "Replacement detection"): a change at or inside a
//     schema create-only path replaces the resource (Always); a
//     conditionally create-only path, or a container replaced whole that
//     holds a create-only path, may (Conditional), unless
//     resolvedConditional settles that path from the service's update API
//     (cited per row: DynamoDB's UpdateTable has no KeySchema, so a key
//     schema change always replaces). A changed Type replaces. A
//     propagated change keeps the property's verdict: a conditionally
//     create-only property may replace also when its new value comes from
//     a replaced dependency.
//   - attributes (issue 31): DependsOn, Metadata, DeletionPolicy and
//     UpdateReplacePolicy changes are listed as attribute changes; a
//     resource with only those is AttributesOnly (CloudFormation updates
//     no resource for them) and counted apart. A removed resource whose
//     DeletionPolicy retains it is Orphaned, not counted as a delete.
//     hiddenTypes (AWS::CDK::Metadata) are left out unless Strict.
//   - stateful replacement (000 "Replacement detection", the guard): a
//     replaced, may-be-replaced or deleted type in statefulTypes is
//     flagged Stateful;
//     UpdateReplacePolicy / DeletionPolicy Retain sets Retained.
//   - replacement propagation (000 "Replacement propagation to
//     dependents"): a resource reading a replaced one through Ref,
//     Fn::GetAtt or Fn::Sub gets that property as a [replacement
//     propagated] change; only a whole top-level create-only property
//     makes the dependent a replacement in turn, which propagates further.
//   - children inside a replaced parent (000, same section): a dependent
//     AWS stores inside the replaced resource (insideParent: a function's
//     permissions, a topic's subscriptions, a bucket policy, …) is
//     replaced with it.
//   - in-place attribute propagation (000 "In-place attribute propagation
//     to dependents"): an UPDATE promotes a reader of an attribute the
//     update can move: one named after a changed property, a derived
//     attribute (derivedAttributes), a nested stack's Outputs.<Key>, or any
//     attribute or Ref of a custom resource. Other Ref readers are not
//     promoted. Both passes run until nothing more is promoted.
//   - outputs (000 "The Outputs diff"): the new template's outputs are
//     compared bag key by bag key with the deployed stack's (DescribeStacks),
//     an Export.Name being a second key with the same value; an
//     outputs-only change is a change. A key whose new value is unresolved,
//     or reads a resource being created or replaced (or an attribute an
//     update can move), is not compared: it is an UndecidedOutput with its
//     reason, or, when the deployed stack lacks the key, an ADD known
//     after the deploy. A changed Description is a MODIFY.
//   - secrets (000 "The Outputs diff", 003 "cdkd diff"): a drift.Secret is
//     compared inside but writes only as redacted; an old output value is
//     withheld (OldRedacted) when the new one is secret-bearing.
//   - nested stacks (003 "cdkd diff"): a child diffs with Old nil (a new
//     nested stack: all CREATE) or New nil (a removed one: all DELETE); the
//     parent passes the child's parameters in NewParameters, a secret
//     dynamic reference carried as its {{resolve:…}} expression, never as
//     plaintext, and typed by the child parameter's Type by the resolver.
package diff
