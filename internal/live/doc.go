// Package live reads the real state of deployed resources: the full live
// model of one resource, and the live child resources of a declared parent
// that the template does not have.
//
// A resource is read by exactly one route, chosen in this order:
//
//  1. Custom resources (Custom::* and AWS::CloudFormation::CustomResource)
//     are NothingToRead without any call: they have no live resource of
//     their own, so nothing is missing from the check (not Skipped).
//  2. An SDK override reader, when one is registered for the type in
//     overrides (overrides.go). Overrides exist for types Cloud Control
//     cannot read (policies, permissions); each projects the service API's
//     answer into the CloudFormation property shape, so the classifier
//     compares like with like.
//  3. Cloud Control GetResource, with the identifier built by the type's
//     entry in identifierAdapters (identifier.go) when the CloudFormation
//     physical id is not the Cloud Control primary identifier: compound
//     identifiers are data (compoundIdentifiers: the schema's
//     primaryIdentifier parts in order, joined with "|"), ARN identifiers
//     take the clients' region and account (STS, asked once). A type with
//     an SDK supplement (supplement.go) then gets the properties its Cloud
//     Control model lacks; a failed supplement leaves them unread and
//     names them, with why, on Result.Unread (the scan shows each as a
//     readGap, so an unread synthetic hash is never silent).
//
// Readers and enumerators live in one file per service family (ec2.go,
// logs.go, events.go, kms.go, ecs.go, cognito.go, ssm.go, autoscaling.go,
// codedeploy.go, secretsmanager.go, ...), registered in the tables above.
// Tables() exports the tables' coverage (scripts/coverage.sh prints it).
// Most overrides project the SDK's output structures (sdkModel); a reader
// whose template shape is the API's own JSON (Glue tables, SageMaker,
// Cognito identity pools, MediaConvert job settings) reads the answer's
// body as sent (rawbody.go), since an SDK structure cannot tell an absent
// member from its zero value. An identifier with a part no template holds
// (an EIP's allocation id) fails closed in Identifier and IdentifierIn and
// is asked of the service by (*Clients).Identifier (identifier_eip.go).
//
// Child enumerators (children.go) list, per declared parent type, the live
// children a template could have declared (subscriptions, function URLs,
// out-of-band policies). A child the stack does not declare and no other
// CloudFormation stack owns is returned for the added tier, read in full.
// A child whose Cloud Control identifier is compound carries its physical
// id apart: the ownership check (DescribeStackResources) asks for that.
// Where Cloud Control lists a parent's children by a ResourceModel naming
// it (a REST API's resources, a load balancer's listeners, a detector's
// filters, ...), one generic enumerator serves a data table of parent →
// child type and key (cc_children.go); children AWS creates by itself are
// never added (a REST API's root resource and default models, a hosted
// zone's apex NS and SOA records and ACM's DNS-validation CNAMEs; kinds AWS
// may create, such as a deployment's implicit stage or a transit gateway's
// default route table, are not enumerated at all).
//
// Writers (writers.go, write_*.go) are revert's write path: Cloud Control
// UpdateResource and DeleteResource polled to their end; SDK writers for
// the types Cloud Control cannot write (writers: bucket, queue and topic
// policies, inline and managed IAM policies, Lambda permissions, network
// ACL entries, Route 53 record sets and groups); property writers for a
// property a whole-list Cloud Control write would damage (propWriters: an
// IAM role's inline Policies and an identity's ManagedPolicyArns per
// entry, the ELBv2 attribute bags per key); and deleters of added
// children (deleters). Every writer reads first and writes only what still
// differs, so a repeated write is a no-op; WriteActions lists the IAM
// actions they call (the revert role's permissions).
//
// Rules and invariants:
//   - One registration table each for override readers, identifier adapters
//     and child enumerators; nothing else switches on a resource type.
//   - Reading never fails a run: every outcome is a Result with a Status.
//     Not found (ResourceNotFoundException, NoSuchEntity, NotFound, …) is
//     NotFound; anything else that stops a read (unsupported type, access
//     denied, a throttle the SDK's retryer gave up on, a declared target that
//     is not resolvable yet) is Skipped with the reason. A call whose
//     attempts were all answered with errors (RetriedError, made by the
//     scan package's call middleware) is named by those answers
//     ("ServiceUnavailable ×10"), not by the deadline that ended it.
//   - Fail closed: a value that cannot be read is never filled in; a reader
//     that needs a declared value which is unresolved skips and says so
//     (Result.Waiting), so the pipeline can retry it once GetAtt targets are
//     known (pass 1.5).
//   - No package-level clients or mutable state; every call takes ctx first.
//     Concurrency is the caller's business: a read makes its calls one after
//     another, so the caller's limit bounds the calls in flight.
package live
