// Package worldgen builds sandbox worlds: one from golden-corpus cases, so
// a check against the sandbox reproduces the corpus findings on real AWS
// data, and a deterministic demo organisation.
//
// Corpus world layout (FromCorpus):
//   - One stack per case, named "corpus-" plus the case file name with "__"
//     and other non-name characters turned into "-"; the stack carries the
//     tag realdrift:corpus-case = the case file name, and its description
//     names the file too.
//   - All stacks live in account 111111111111 (the corpus's sanitised
//     account) in the case's opts.region (default us-east-1). A case whose
//     Cloud Control address (type + identifier, per region or global)
//     collides with an earlier case's goes to the next overflow account,
//     111111111112, 111111111113, ... Each account maps the access key
//     AKIACORPUS<account id> (user "corpus").
//   - The template holds the case's resource with its declared properties
//     as literal values, and the construct path as aws:cdk:path metadata. A
//     declared value the corpus recorded as unresolved (drift.Unknown, whole
//     or partly) is written as {"Fn::GetAZs": ""}: environment-dependent, so
//     a fail-closed resolver leaves it unresolved.
//   - The stack resource's physical id is the case's; its Cloud Control
//     identifier is what live.Identifier derives (the physical id unless the
//     type needs an adapter); its live model is the case's liveRaw bytes.
//   - An AWS::IAM::Role case's siblingPolicyNames become AWS::IAM::Policy
//     resources of the same stack (logical id = policy name) whose declared
//     and live documents are the role's live inline policy of that name, so
//     they add no finding; the case's resource is the one whose logical id
//     is the case's.
//   - The types the readers serve through service APIs because Cloud
//     Control cannot read them on AWS (bucket, queue and topic policies, IAM
//     inline policies, Lambda permissions) are world Cloud Control gaps.
//   - The world's schemas hold each type's facts from its first case.
//
// Rules: output is deterministic for a given input; nothing is fetched.
package worldgen
