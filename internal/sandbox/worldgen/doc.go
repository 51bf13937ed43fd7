// Package worldgen builds sandbox worlds: one from golden-corpus cases, so
// a check against the sandbox reproduces the corpus findings on real AWS
// data, and a deterministic demo organisation.
//
// The demo's nested stack tree (DemoNested, demo_nested.go) is added to
// the demo world by the demo for its diff step, with the app's next
// version (DemoNext); the nested world (Nested) is a tree of its own for
// the nested-stack tests.
//
// Corpus world layout (FromCorpus):
//   - Cases are grouped into their original stacks: the stack name is the
//     first segment of the case's construct path (CDK's stack id, the
//     recorded stack name); a case without one gets a stack of its own
//     named "corpus-" plus its file name ("__" and other non-name
//     characters turned into "-"). Each template resource carries the
//     metadata realdrift:corpus-case = its case's file name (CorpusCases
//     and Placements read it back) and its construct path as aws:cdk:path.
//   - A stack's tags are its cases' opts.stackTags; a region's KMS aliases
//     (kmsAliases, served by ListAliases) are opts.kmsAliasTargets of the
//     cases whose declared values use an AWS managed alias or whose live
//     models hold an undeclared KMS key (scan.UsesManagedAlias,
//     scan.HoldsUndeclaredKMSKey: the tests a check makes before listing
//     them); a region's default security groups are the one undeclared
//     group its cases' live models hold (classify.DefaultSecurityGroupCandidate).
//   - Schema facts: the world serves each type's richest recorded version
//     (the most facts named; the first on a tie). A case whose own facts
//     classify it differently from what its region serves needs its own:
//     the region serves them (region schemas) if it holds no case of the
//     type yet. DescribeType answers per account region, as the regional
//     registry does.
//   - Cases go to account 111111111111 (the corpus's sanitised account) in
//     the case's opts.region (default us-east-1), unless something there
//     conflicts: another case's Cloud Control address (type + identifier,
//     per region or global), a stack of the same name with other tags or
//     the same logical id, another KMS alias map, or schema facts the case
//     cannot use. Then the next overflow account, 111111111112, ... Each
//     account maps the access key AKIACORPUS<account id> (user "corpus").
//   - The template holds the case's resource with its declared properties
//     as literal values. A declared value the corpus recorded as unresolved
//     (drift.Unknown, whole or partly) is written as {"Fn::GetAZs": ""}:
//     environment-dependent, so a fail-closed resolver leaves it unresolved.
//   - The stack resource's physical id is the case's; its Cloud Control
//     identifier is what live.Identifier derives (the physical id unless the
//     type needs an adapter); its live model is the case's liveRaw bytes.
//   - Recorded sibling facts become sibling resources (no case) when the
//     stack has none already: an AWS::IAM::Role case's siblingPolicyNames
//     become AWS::IAM::Policy resources whose declared and live documents
//     are the role's live inline policy of that name; clusterEchoModel the
//     instance's cluster (its live model the recorded one);
//     siblingEipAssociations an AWS::EC2::EIPAssociation;
//     siblingSubnetCidrBlocks an AWS::EC2::SubnetCidrBlock. The pipeline
//     derives the facts from them as it would on AWS.
//   - The types the readers serve through service APIs because Cloud
//     Control cannot read them on AWS (bucket, queue and topic policies, IAM
//     inline policies, Lambda permissions, network ACL entries, log metric
//     filters) are world
//     Cloud Control gaps.
//   - A compound-identifier type (or one with an identifier adapter) is
//     stored under the identifier AWS knows it by: its recorded model's
//     primaryIdentifier values (pinned schema) joined with "|"; asked by
//     its bare physical id it is not found, as on AWS.
//
// Rules: output is deterministic for a given input; nothing is fetched.
package worldgen
