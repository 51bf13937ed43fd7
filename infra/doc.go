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
//     write action on "*" resources, the member read role reads only (its
//     Cloud Control read handlers' read verbs granted through AWS services
//     only, for the common types: readHandlerActions), and
//     the only revert (Cloud Control or SDK write) permissions are the
//     member revert role's. That role is opt-in (the EnableRevert
//     parameter of the central stack and the StackSet, default "false": the
//     role exists only when it is "true"), is assumable only by the central
//     revert-write function, holds exactly the writers' actions
//     (revertActions, kept equal to internal/live WriteActions through the
//     committed testdata/iam/member-revert-role.json), the Cloud Control
//     handler permissions of its revert types through AWS services only
//     (revert_grants.go: from the embedded registry schema snapshot,
//     REALDRIFT_REVERT_TYPES at synth time), and may never write or pass
//     realdrift's own roles. The tests parse the synthesized policies and
//     hold these rules.
//   - What the service's e2e enforces in the sandbox is a committed copy
//     of the synthesized policies under ../testdata/iam, references
//     resolved to {{placeholders}}, each held equal by a *PolicyCopy test
//     (-update rewrites it): the function roles (central-roles.json), the
//     state machines' and the Scheduler's (service-roles.json), the member
//     read and revert roles (member-read-role.json, member-revert-role.json),
//     the member roles' trust policies (member-trust.json), the central
//     bus's resource policy with the grants of the member forwarding roles,
//     regional and global (central-bus-policy.json), and the alert topic's
//     access policy with its key's policy (alert-topic.json; the topic
//     policy's EnforceSSL deny is why the e2e publishes over TLS), and the
//     table's encryption (table-key.json: its SSESpecification and, for a
//     customer managed key, the key's policy; every item call of the e2e
//     asks that key's policy, for the AWS managed key the policy AWS
//     writes for aws/dynamodb). A policy wrong here fails the e2e. A role's ARN in a copy is by its RoleName,
//     or by its logical id where CloudFormation generates the name.
//   - Handler grants are conditioned on aws:ViaAWSService, so by default
//     any AWS service acting for the role (forward access sessions) may
//     use them, secretsmanager:GetSecretValue, kms:Decrypt, s3:GetObject
//     and dynamodb:Scan among the revert types' handler permissions. The
//     parameter HandlerCalledVia (central stack, passed to the member
//     StackSet; condition HandlersNarrowed) narrows the revert role's
//     handler grants to calls whose aws:CalledVia holds its value
//     (ForAnyValue:StringEquals, under Fn::If so the key is absent when
//     the parameter is empty). It is empty by default because the value
//     Cloud Control's handler calls carry is not confirmed offline.
//     Searched: botocore 1.43.11's data (the cloudcontrol model included),
//     cfn-lint 1.51.0's data, the pinned registry schema package 0.1.71
//     (handler permissions only), aws-sdk-go-v2 service/cloudcontrol
//     v1.30.2 and aws-cdk-lib 2.276.0 (its package docs): none names
//     cloudcontrolapi.amazonaws.com or says what Cloud Control's forward
//     access sessions carry; aws-cdk-lib's aws-servicecatalog README
//     conditions a launch role on ForAnyValue:StringEquals aws:CalledVia
//     cloudformation.amazonaws.com for the calls CloudFormation makes.
//     moto 5.2.1's copy of AWS's 1,485 managed policies
//     (moto/iam/aws_managed_policies.py) uses aws:CalledVia(First/Last)
//     with cloudformation.amazonaws.com 87 times, always for calls made by
//     CloudFormation stacks, and never with cloudcontrolapi.amazonaws.com;
//     its only Cloud Control grants (AmazonQDeveloperAccess,
//     AmazonQFullAccess: cloudformation:GetResource, ListResources) carry
//     no aws:CalledVia. So CloudFormation's own value is documented by
//     AWS's policies, Cloud Control's is not. A wrong value would fail every
//     Cloud Control revert with AccessDenied, so scripts/aws-acceptance.sh's
//     "aws:CalledVia" step settles it in a real account: a probe role
//     granted a queue's handler permissions under one candidate value at a
//     time (cloudformation.amazonaws.com, cloudcontrolapi.amazonaws.com);
//     the Cloud Control update that succeeds names the value, the probe's
//     direct SetQueueAttributes and GetSecretValue are refused, the
//     deployed revert role is simulated (iam simulate-principal-policy) to
//     allow none of the four data reads to its own calls, and the step
//     prints the HandlerCalledVia to deploy with. The sandbox gives handler
//     calls sandbox.CloudControlCalledVia (cloudformation.amazonaws.com):
//     TestCloudControlWriteHandlerPermissions holds that a grant narrowed
//     to it lets the Cloud Control write succeed while the role's direct
//     call is refused, and the service's TestRevertHandlersNarrowed runs
//     the synthesized grants (member-revert-role.json, Fn::If resolved):
//     narrowed to that value the revert is applied, narrowed to another
//     service's it fails on AccessDenied. The read role's ReadHandlers
//     grants (read permissions only; its NeverReadData deny refuses the
//     data reads to its own calls) are not narrowed.
//   - Table access is per function and per key prefix (functions.go,
//     table.go): each function's role gets exactly the DynamoDB actions its
//     handlers call, on the table only (no function queries gsi1), each
//     statement under a ForAllValues:StringLike dynamodb:LeadingKeys
//     condition on the partition-key prefixes it touches. No role may
//     Scan (a Scan has no leading keys, so no condition could scope it).
//   - Change events are filtered at the rules (events.go: an allow-list of
//     event sources, quiet calls and CloudFormation's own calls out);
//     member accounts forward regional sources from every swept region and
//     global ones (IAM, CloudFront, Route 53) from the partition's global
//     region (a second StackSet). The trigger's concurrency is reserved and
//     a scheduled rule sends its debounce flush.
//   - Table key names and key prefixes mirror internal/store's layout
//     constants (and the service's debounce prefix); a test reads those
//     files to keep them in step.
//   - Durability: the table has deletion protection and point-in-time
//     recovery and is retained. Every asynchronous delivery (EventBridge
//     rule targets, the Scheduler schedule, the trigger's asynchronous
//     invocations) has a bounded retry policy and an encrypted SQS
//     dead-letter queue or on-failure destination (delivery.go).
//   - Encryption: customer-managed keys with rotation encrypt the log
//     groups (LogsKey) and the alert topic and dead-letter queues
//     (MessagesKey). Key policies, not identity policies, say who may use
//     a key (encryption.go). The table uses the AWS managed key
//     aws/dynamodb: its policy lets every principal of the account use it
//     through DynamoDB, so the table grants (per function, per key prefix)
//     alone decide who reads or writes findings, baselines and audits; a
//     customer key would say the same a second time. The e2e asks the
//     key's policy on every item call (table-key.json), so a customer key
//     that did not admit the functions fails it
//     (TestSweepEndToEndTableKeyDenied).
//   - The state machines log ALL events into encrypted log groups that mask
//     credentials; sweep and check-stack with execution data, as their
//     payloads are references (logging.go gives the reasoning; a test holds
//     the fields the definitions pass to a list of references). The revert
//     state machine (Standard: it waits for approval) logs without
//     execution data: its approval step's input carries the task token.
//   - Approval is an IAM-authenticated call: the approve-link function's
//     URL has AuthType AWS_IAM and no resource policy, so Lambda invokes it
//     only for requests SigV4-signed by a principal whose identity policy
//     allows lambda:InvokeFunctionUrl on it; the realdrift-approver managed
//     policy (output ApproverPolicyArn) grants exactly that, under
//     lambda:FunctionUrlAuthType AWS_IAM, to whoever it is attached to.
//     The function records the principal Lambda names
//     (requestContext.authorizer.iam.userArn) as the approver. The approval
//     message carries the `realdrift approve --url` command, never a link
//     that decides.
//   - Configuration comes from Config (main reads it from the environment);
//     deploy-time choices (organisation id, member OUs and regions) are
//     CloudFormation parameters so synth needs no AWS account.
package main
