// Package ignore reads, applies and appends ignore rules: the hand-edited
// policy file <state-dir>/ignore.yaml that tells realdrift to stop reporting
// chosen properties (seed 002 §9).
//
// File format (the same as cdk-real-drift's .cdkrd/ignore.yaml):
//
//	ignore:
//	  # DesiredCount is managed by Application Auto Scaling
//	  - path: '*.DesiredCount'
//	  - path: Fn*.ReservedConcurrentExecutions
//	    stack: Prod*
//	    account: '111111111111'
//	    region: ap-northeast-1
//
// Rules:
//   - Every rule is a mapping {path, stack?, account?, region?} of strings;
//     path is required. Absent scopes match anything. The only top-level key
//     is ignore. Bad YAML, wrong types, unknown or repeated keys, several
//     documents: Parse fails with file:line and the problem, never an empty
//     rule set that silently disables every rule.
//   - Patterns are globs: * matches any run of characters (dots and slashes
//     included), ? one character; everything else is literal. path is
//     matched against <logicalId>.<path>, the within-stack
//     <constructPath>.<path> (what the report prints) and the full
//     <stack>/<constructPath>.<path>. A rule for a parent path covers its
//     children (X.Policies covers X.Policies.0.PolicyName and X.Policies[a]).
//     A finding on one attribute key or attachment member is matched by
//     its keyed path (X.ManagedPolicyArns[arn], drift.Finding.KeyedPath),
//     so a rule names one member and the list path covers them all.
//   - Apply re-tags matching declared, undeclared and added findings as
//     drift.Ignored (Reason names the rule). It never deletes a finding and
//     never touches deleted or informational findings.
//   - AppendBytes keeps the file's comments and order, appends new rules at
//     the end, skips rules already present and verifies the result parses
//     to the old rules plus the new ones.
//   - Rules are read and written through a versioned store, never through
//     files of this package's own: LoadStored parses each scope's document
//     (a store.File names the file in errors), AppendStored writes
//     AppendBytes' result conditionally on the version read and merges
//     again after a conflict, so the CLI (store.File: its one lock and one
//     atomic writer) and the service (store.Dynamo) share one path.
package ignore
