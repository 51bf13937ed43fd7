// Package iamauth is the sandbox's IAM authorization: a call's principal,
// its IAM action and resource (each service's own facts,
// wire.Service.IAM), the global condition keys (ConditionKeys) and the
// principal's identity policies (PoliciesOf) give the decision with AWS's
// AccessDenied message (Authorize, DenyMessage). The
// policy language itself (compiling documents, evaluating a
// world.Request) is world's (world/iampolicy.go), since the world file's
// loader compiles every document it reads.
//
// The server runs Authorize on every call it serves, before the handler;
// Cloud Control's handler checks are HandlerRefused's; the
// server's guard of stand-in services (DynamoDB Local and test doubles)
// maps their requests to Asks (an Asker: DynamoDBAsks for DynamoDB, with
// DynamoDBKeyAsks for the table's KMS key, tablekey.go) and
// decides each with Refuse, answering in the stand-in's shape (StandIn).
// The organisation's policies are org.go's: SCPs, trust policies (Trusts,
// which STS is handed at registration), an Ask's resource policy and a
// KMS key's policy.
//
// Rules:
//   - A principal its account declares no policies for, and every
//     account root, may do anything; a declared one only what its
//     documents allow (an explicit Deny wins, else an Allow is needed).
//   - Evaluated: identity policies; the organization's SCPs of the
//     caller's account on every call, before them (a member account's
//     principals, its root included; never the management account's); a
//     role's trust policy on sts:AssumeRole (Trusts); a resource's own
//     policy when an Ask carries it, or the service names it for a served
//     call (wire.IAM.Policy: a topic's; Refuse: both across accounts,
//     either within one); a KMS key policy (Ask.KeyPolicy, keyRefusal:
//     the key policy must allow, its account-root statements delegating
//     to identity policies); a served call's further Asks (wire.IAM.Asks),
//     each answered in its own error when it names one. Not evaluated:
//     other resource policies, permission boundaries, session policies. internal/sandbox/doc.go's IAM section
//     says the same and is kept true with this package.
//   - Which action and resource a service's calls are authorized as are
//     that service's facts (wire.IAM: its action prefix, the operations
//     named otherwise, the public ones, its Resource; else "*", as AWS
//     authorizes actions without resource-level permissions), never a
//     table here.
//   - Functions that read the world take st's read lock themselves: call
//     them without holding its write lock.
//   - The package imports wire and world only; never the server or a
//     service. It never panics on input, prints or exits.
package iamauth
