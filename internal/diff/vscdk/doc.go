// Package vscdk compares realdrift's diff text with the AWS CDK CLI's
// `cdk diff` text for one template pair: both are read into facts (per
// resource its action — create, update, replace, may-replace, destroy,
// orphan —, per output its change, per nested stack its own facts, and
// the count of added and removed rows of each security table) and the
// facts are compared. A pair agrees when both tools state the same facts;
// otherwise its note (note.md beside the pair, first line "verdict:
// realdrift-right" or "verdict: cdk-right") says which tool is right and
// why, citing CloudFormation's documented behaviour.
//
// Rules:
//
//   - a resource is named by its logical id: cdk writes the construct path
//     before it, realdrift the physical id after it.
//   - what one tool shows and the other has no line for is a difference:
//     realdrift's undecided lines ([?]) and its export keys ([export]) are
//     not facts, as cdk has no such lines; cdk's Parameters and Conditions
//     sections are not facts either (realdrift reports their effect on
//     resources and outputs).
//   - attribute-only changes are updates: both tools list the resource.
package vscdk
