// Command infra is realdrift's CDK app: it synthesizes the central service
// stack (table, Lambdas, state machines, schedule, trigger rules, alert
// topic, Slack secret, event bus and the member-account StackSet) into
// cdk.out, offline, with only node on PATH.
//
// Rules and invariants:
//
//   - It is its own Go module so the CDK never reaches the root module or
//     the Lambda binaries.
//   - The state machines are the ASL files in ../statemachine, inlined with
//     DefinitionBody_FromString and given every ${XFunctionArn} through
//     DefinitionSubstitutions; the app never rewrites them.
//   - Lambda code comes from <lambda dir>/<name>/bootstrap, built by
//     `make lambdas` (provided.al2023, arm64). A missing function is an
//     error, unless missing functions are explicitly allowed, in which case
//     a clearly labelled placeholder asset stands in and main warns.
//   - Least privilege: no IAM action with a wildcard except read verbs, no
//     write action on "*" resources, the member role reads only, and no
//     revert (Cloud Control or SDK write) permission exists in this stack.
//     The tests parse the synthesized policies and hold these rules.
//   - Table key names mirror internal/store's layout constants.
//   - Configuration comes from Config (main reads it from the environment);
//     deploy-time choices (organisation id, member OUs and regions) are
//     CloudFormation parameters so synth needs no AWS account.
package main
