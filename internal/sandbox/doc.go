// Package sandbox is an emulated AWS organisation that speaks the real wire
// protocols, so production code runs against it unchanged through
// aws-sdk-go-v2 clients with a custom endpoint (and the AWS CLI parses its
// answers). It is not AWS: it serves the APIs realdrift reads and writes,
// over one in-memory world.
//
// # Serving
//
// One endpoint (New returns an http.Handler). A request is routed by its
// SigV4 credential scope (Authorization header, or X-Amz-Credential of a
// presigned URL): the service picks the protocol and operation, the region
// the part of the world. The signature is parsed, not verified. The access
// key picks the account: keys the world maps (accounts[].accessKeys) act as
// that account's IAM user, or, with a role, as a session of that role (the
// credentials a Lambda gets from its execution role); session keys from
// STS AssumeRole act as the assumed role in the role's account (a role
// name in a world account can be assumed as its trust policy allows — any
// caller when the world declares none — unless a fault rule denies it; a
// role outside the world's accounts is AccessDenied). Any other key is
// refused as AWS refuses a key it does not know, before the operation is
// read, in the service's protocol (wire.Service.UnknownKey):
// InvalidClientTokenId (403) for query/XML and REST-XML services,
// AuthFailure (401) for EC2, InvalidAccessKeyId (403) for S3,
// UnrecognizedClientException for JSON and CBOR (400) and REST-JSON (403)
// services; Guard refuses it at a stand-in the same way. sandbox serve and
// sandbox world print each account's keys. S3 is addressed path-style
// (UsePathStyle).
// Global types (IAM, CloudFront, Route 53, Organizations) are visible from
// every region of their account; IAM, Organizations and STS ignore the
// region as AWS does.
//
// Services and operations (one folder each under service/, or still one
// file each in this package; see Layout):
//
//	cloudformation (query/XML)  DescribeStacks ListStacks GetTemplate ListStackResources
//	                            DescribeStackResources ListExports DescribeType
//	cloudcontrolapi (JSON 1.0)  GetResource ListResources UpdateResource DeleteResource
//	                            GetResourceRequestStatus CancelResourceRequest
//	sts (query/XML)             GetCallerIdentity AssumeRole
//	organizations (JSON 1.1)    DescribeOrganization ListAccounts
//	s3 (REST-XML)               GetBucketPolicy PutBucketPolicy DeleteBucketPolicy
//	sqs (JSON 1.0; query too)   GetQueueAttributes SetQueueAttributes
//	sns (query/XML)             GetTopicAttributes SetTopicAttributes ListSubscriptionsByTopic
//	                            Unsubscribe Publish (to a topic; Server.Published reads
//	                            what was accepted)
//	iam (query/XML)             ListRolePolicies GetRolePolicy PutRolePolicy DeleteRolePolicy
//	                            GetUserPolicy GetGroupPolicy GetPolicy GetPolicyVersion
//	                            ListPolicyVersions CreatePolicyVersion DeletePolicyVersion
//	                            ListEntitiesForPolicy PutUserPolicy DeleteUserPolicy
//	                            PutGroupPolicy DeleteGroupPolicy ListAccessKeys
//	                            Attach/Detach{Role,User,Group}Policy
//	                            ListAttached{Role,User,Group}Policies
//	lambda (REST-JSON)          GetPolicy AddPermission RemovePermission ListFunctionUrlConfigs
//	                            ListAliases ListEventSourceMappings ListVersionsByFunction
//	                            GetFunctionConfiguration
//	kms (JSON 1.1)              ListAliases
//	ec2 (EC2 query)             DescribeNetworkAcls DescribeSubnets DescribeSecurityGroups
//	                            DescribeRouteTables DescribeAddresses ReplaceNetworkAclEntry
//	                            DescribeLaunchTemplateVersions DescribeClientVpnEndpoints
//	                            DescribeClientVpnTargetNetworks DescribeClientVpnAuthorizationRules
//	logs (JSON 1.1)             DescribeMetricFilters DescribeSubscriptionFilters
//	events (JSON 1.1)           ListRules
//	secretsmanager (JSON 1.1)   GetResourcePolicy
//	ecs (JSON 1.1)              ListServices DescribeServices
//	cognito-idp (JSON 1.1)      ListUserPoolClients ListGroups
//	ssm (JSON 1.1)              DescribeMaintenanceWindowTargets DescribeMaintenanceWindowTasks
//	                            DescribeParameters
//	autoscaling (query)         DescribeLifecycleHooks DescribeScheduledActions
//	codedeploy (JSON 1.1)       ListDeploymentGroups
//	route53 (REST-XML)          ListResourceRecordSets ListHostedZonesByName
//	                            ChangeResourceRecordSets GetChange
//	acm (JSON 1.1)              DescribeCertificate ListTagsForCertificate
//	codebuild (JSON 1.1)        BatchGetProjects BatchGetReportGroups
//	scheduler (REST-JSON)       GetSchedule
//	config (JSON 1.1)           DescribeConfigurationRecorders DescribeDeliveryChannels
//	servicediscovery (JSON 1.1) GetNamespace GetService ListTagsForResource
//	elasticloadbalancing (query) DescribeListenerCertificates ModifyLoadBalancerAttributes
//	                            ModifyTargetGroupAttributes ModifyListenerAttributes
//	elasticache (query)         DescribeCacheParameterGroups DescribeCacheParameters ListTagsForResource
//	                            DescribeReplicationGroups DescribeCacheClusters DescribeUsers
//	dax (JSON 1.1)              DescribeClusters DescribeSubnetGroups DescribeParameterGroups DescribeParameters
//	                            ListTags
//	ses (query)                 ListReceiptFilters DescribeReceiptRuleSet DescribeReceiptRule
//	                            DescribeConfigurationSet
//	glue (JSON 1.1)             GetClassifier GetWorkflow GetTags GetConnection
//	                            GetSecurityConfiguration GetTable
//	appsync (REST-JSON)         ListApiKeys
//	lakeformation (REST-JSON)   DescribeResource
//	mediaconvert (REST-JSON)    GetQueue GetJobTemplate ListTagsForResource
//	rds (query, DocumentDB)     DescribeDBClusters DescribeDBInstances ListTagsForResource
//	dms (JSON 1.1)              DescribeEndpoints DescribeReplicationInstances
//	                            DescribeReplicationSubnetGroups DescribeReplicationTasks
//	                            ListTagsForResource
//	budgets (JSON 1.1)          DescribeBudget
//	dlm (REST-JSON)             GetLifecyclePolicy
//	sagemaker (JSON 1.1)        DescribeEndpointConfig DescribeMonitoringSchedule ListTags
//	cognito-identity (JSON 1.1) DescribeIdentityPool
//	monitoring (RPCv2 CBOR;     DescribeAnomalyDetectors
//	  query too)
//	memorydb (JSON 1.1)         DescribeUsers DescribeParameters
//	kafka (REST-JSON)           DescribeConfiguration DescribeConfigurationRevision
//	lex (REST-JSON; Lex V2      ListBotLocales DescribeBotLocale ListSlotTypes DescribeSlotType
//	  models, DRAFT)            ListIntents DescribeIntent ListSlots DescribeSlot
//	cloudtrail (JSON 1.1)       LookupEvents (the sandbox's own trail, below)
//
// Errors carry AWS's codes in each protocol's shape (query ErrorResponse,
// JSON __type + X-Amzn-ErrorType, S3 <Error>, Lambda X-Amzn-ErrorType, EC2
// <Response><Errors>, CBOR __type + x-amzn-query-error), so the SDKs map them to their typed errors. Each
// service's Service (service/N) says which world models its answers are
// built from: the same models Cloud Control serves.
// A service or operation not listed answers NotEmulated in the protocol the
// request speaks (read from it: X-Amz-Target is JSON, a form with Action
// query, else REST), after the injected latency and in the call log like
// every served call (notserved.go). Queues are named as AWS names them
// (https://sqs.REGION.amazonaws.com/ACCOUNT/NAME); with
// Options.LocalQueueURLs every answer names them at the sandbox instead,
// for clients that send SQS calls to a queue's URL, and requests may use
// either form (queueurl.go).
//
// Nested stacks are stacks of their region like any other (DescribeStacks
// and ListStacks list them, with ParentId and RootId): a parent's
// AWS::CloudFormation::Stack resource has the child stack's ARN as its
// physical id, which DescribeStacks, GetTemplate and ListStackResources
// accept as a stack name, and its live model is NestedStackModel of the
// child (StackId, Outputs, Parameters). A world links them by that
// physical id alone; parentId and rootId are derived (nested.go).
//
// # Layout
//
// One room per service, shared packages beneath them, one registration
// table above them:
//
//	internal/sandbox            Server: routing (router.go), call log, latency,
//	                            throttling, faults, admin API, the guard of
//	                            stand-in services (guard.go); services.go,
//	                            the one table of services; aliases.go keeps the
//	                            world's types under this package's names
//	internal/sandbox/iamauth    IAM authorization: each operation's IAM action
//	                            and resource, the condition keys, the identity
//	                            policies of a principal, the decision and its
//	                            AccessDenied; the stand-ins' Asks (DynamoDB's)
//	internal/sandbox/wire       the protocols, Service and its constructors,
//	                            REST path routing, Call, Handler, Error,
//	                            replies (*Node, Raw, JSON values, models as
//	                            XML or camelCase JSON), paging
//	internal/sandbox/world      the world file, State (indexes + lock), principals,
//	                            identity policies (compiled, evaluated),
//	                            live-model field helpers
//	internal/sandbox/service/N  one service: its Service() in service.go (wire
//	                            facts, REST routing, operations), handlers and
//	                            the state accessors only it uses; N is its SigV4
//	                            signing name
//	internal/sandbox/worldgen   world generation (demo, corpus), apart
//
// A service package imports wire and world (and leaf packages of the
// project's own, such as schema) only: never this package, iamauth or
// another service. What two services share moves down into wire (protocol)
// or world (models). Every service lives in its folder. A service with
// state of its own beside the world gets it from the server at
// registration (S3's Objects, Security Hub's Findings, Cloud Control's
// Requests: the server holds them so that it can answer from them, or
// stop them, too), as does a service that needs one thing of the server
// (STS: the fault rules that deny assuming a role; CloudFormation and
// Cloud Control: the schema facts the options give; Cloud Control: IAM's
// check of a type's handlers, iamauth.HandlerRefused). What a
// change through one API means for another service's view of a model is
// world's (world.SyncPolicyVersions: a managed policy's document changed
// through Cloud Control or the admin API is IAM's new default version).
// The server answers a service's own admin paths where it holds the state
// they read (the ELBv2 trust store bundle URLs: truststore.go).
//
// # How to add a service
//
//  1. Create internal/sandbox/service/N (N = the SigV4 signing name) with a
//     doc.go saying what it serves from which world models.
//  2. Write func Service() *wire.Service in N/service.go, the file that
//     holds the service's registration and nothing else (its doc comment
//     says what it serves), with the protocol's constructor:
//     wire.JSON(name, version, target prefix, ops), wire.Query(name, XML
//     namespace, ops), wire.RESTJSON(name, route, ops) or wire.RESTXML(name,
//     XML namespace, route, ops), where ops (wire.Ops) maps each operation
//     name to a wire.Handler and a REST route is wire.Paths({"GET
//     /path/{param}": "Operation"}). The constructor gives the protocol's
//     usual throttling, denial and invalid-input errors; chain
//     .Throttles(status, code), .Denies(status, code) or .Refuses(status,
//     code) where the service's model names others, and
//     .ThrottlesOp(op, status, code) for an operation whose model names
//     its own throttling error (the conformance test
//     TestThrottleErrorsFromModels holds every operation's to botocore's
//     model).
//  3. Write each handler as func(st *world.State, c *wire.Call) (any, error):
//     take st.RLock (reads) or st.Lock (writes) for the whole operation, find
//     models with st.Resource / st.OfType and world.FieldString etc., answer
//     errors with wire.Errf in the service's codes, return a *wire.Node
//     (query/REST-XML), wire.Raw, or a value encoded as JSON. A JSON
//     handler that reads its body into a struct and locks for the whole
//     operation is func(st, c, in In) (any, error) registered as
//     wire.Read(h) or wire.Write(h), which decode and lock for it.
//  4. Add one line to services.go: N.Service(), (and its import). Nothing
//     else outside the folder names the service unless the server keeps
//     state of its own for it (S3's objects, SNS's outbox):
//     scripts/sandbox-service-footprint.sh N removes the folder and those
//     lines in a scratch tree, builds, and prints the diff stat.
//  5. Give the service's IAM facts (wire.IAM) where they are not the
//     common case: an action prefix or an operation's action that is not
//     signing-name:Operation, operations no policy governs, the resource
//     its calls are authorized against (Service.Scoped; else "*"), the
//     resource's own policy (IAM.Policy) and the further questions a call
//     puts (IAM.Asks: a KMS key's use). List the operations in this
//     file's table.
//  6. Test through aws-sdk-go-v2 against sandboxtest.Serve (services_test.go
//     shows the pattern); give each operation its entry in the conformance
//     table (internal/sandbox/conformance/ops_test.go: the typed SDK call,
//     driven against the demo, dev-corpus and fixture worlds; the test
//     fails for a served operation without one); run go generate
//     ./internal/sandbox/conformance to list it in
//     scripts/sandbox-awscli-ops.txt and in the tables taken from AWS's
//     models (botocore's: the output members each operation requires,
//     which the conformance test checks every answer for, and a write's
//     input constraints, internal/sandbox/awsmodel/inputs.json.gz), and
//     add a section calling it to scripts/sandbox-awscli-check.sh (the
//     check fails for a listed operation no section runs).
//  7. Where one of the service's writes carries a live model of its types
//     (a Route 53 record set, an inline policy), say so in
//     Service.Models (type -> write, input shape, property; Entries when
//     the write carries the properties as a map's entries, as SQS's
//     SetQueueAttributes does; a document the model holds as an object
//     is checked as the JSON text the write carries): the admin API
//     checks every out-of-band change of such a model against that write's
//     input constraints, so what the service's API would refuse is refused
//     (TestModelInputsNameTheTable holds every entry to the table).
//
// Every write is checked against its input constraints in AWS's model
// (required members, types, enumerations, lengths, ranges, patterns:
// awsmodel.Table.Check, validate.go) before its handler runs, and refused
// with the service's invalid-input error (wire.Service.InvalidError:
// ValidationException for JSON and REST-JSON, ValidationError for query,
// InvalidParameterValue for EC2, InvalidArgument for REST-XML (S3),
// unless the service says otherwise: Route 53's InvalidInput), as AWS's
// front end refuses it; handlers need not repeat those checks. Every
// member is read where its protocol carries it: body, form, XML
// elements, URI path, headers, query string. A JSON service that accepts
// the query protocol too (SQS) has its query-form writes checked by the
// names of the last model that spoke query (the AWS CLI v2's own,
// awsmodel.Table.Query) and refused in the query shape (SQS:
// InvalidParameterValue).
//
// # One resource model
//
// A live resource is a type, a Cloud Control identifier and a live model
// (Properties, the JSON object Cloud Control returns). The service APIs read
// and write those same models: SQS queue attributes are AWS::SQS::Queue
// properties and a queue's Policy is the AWS::SQS::QueuePolicy naming it;
// SNS topic attributes are AWS::SNS::Topic properties (a topic no
// TopicPolicy governs has SNS's default policy); subscriptions are
// AWS::SNS::Subscription resources plus the topic's inline Subscription
// entries; a bucket policy is the AWS::S3::BucketPolicy of the bucket; a
// role's inline policies are its Policies list, the AWS::IAM::Policy
// resources naming it and AWS::IAM::RolePolicy resources (PutRolePolicy
// writes the role's list and the resource that declared the policy); a
// managed-policy attachment is read from both sides, whichever declared
// it (world.AttachmentView): Cloud Control's model of a role, user or group
// lists in ManagedPolicyArns every managed policy whose Roles / Users /
// Groups name it, and a managed policy's lists every identity whose
// ManagedPolicyArns hold its ARN, as ListAttachedRolePolicies and
// ListEntitiesForPolicy do; a
// managed policy's versions live beside its model and its default
// version's document is its PolicyDocument (a Cloud Control or out-of-band
// change of PolicyDocument adds a version); a function's resource policy is
// built from the AWS::Lambda::Permission resources naming it (Sid = the
// permission's identifier); URL configs, aliases and event source mappings
// are the AWS::Lambda::Url, Alias and EventSourceMapping resources naming
// the function, and its versions $LATEST (from the function's model) plus
// the AWS::Lambda::Version resources naming it. KMS aliases are the
// region's kmsAliases map plus the AWS::KMS::Alias models. A write through
// one API shows through the other.
//
// Identifiers are as strict as AWS: a resource is found by its Cloud Control
// identifier only (for a compound type the primaryIdentifier values joined
// with "|"), so a compound type asked by its bare physical id answers
// ResourceNotFoundException.
//
// Cloud Control: a type is unreadable (UnsupportedActionException) when the
// world lists it in ccGaps, when its schema facts list handlers without
// "read", or when it is a custom type. Facts come from the world's schemas
// first, then Options.Facts; facts without handlers mean the sandbox's own
// read/update/delete/list; a region's own schemas win over the world's, so
// DescribeType (and the handler checks) answer per account region, as the
// regional registry does. UpdateResource validates the RFC 6902 patch at
// once (InvalidRequestException when it touches a read-only path, changes a
// create-only value or does not apply), answers IN_PROGRESS and applies it
// after Options.OperationDelay to the model as it is then (FAILED if that
// no longer works); read-only values are kept, write-only top-level
// properties dropped (reads never return them). One request per resource
// at a time (ResourceConflictException); ClientToken makes a request
// idempotent; CancelResourceRequest cancels one in progress.
// DescribeType synthesises a registry schema document from the facts only.
//
// # World file
//
// JSON; unknown keys are errors. Shape:
//
//	{
//	  "defaultAccount": "111111111111",          // default: the first account
//	  "organization": {"id": "o-...", "managementAccountId": "...", "featureSet": "ALL",
//	    "serviceControlPolicies": [{"name": "...", "accounts": ["<member id>"], "document": {<policy>}}]},
//	  "ccGaps": ["AWS::IAM::Policy", ...],        // types Cloud Control cannot read
//	  "schemas": {"AWS::SQS::Queue": {...}},      // schema.Facts JSON per type
//	  "accounts": [{
//	    "id": "111111111111", "name": "...", "email": "...",
//	    "accessKeys": [{"id": "AKIA...", "userName": "alice"}],
//	    "policies": [{"role": "...", "documents": [{<identity policy>}], "complete": false}],
//	    "trustPolicies": [{"role": "...", "document": {<AssumeRolePolicyDocument>}}],
//	    "regions": [{
//	      "name": "us-east-1",
//	      "stacks": [{
//	        "name": "App", "id": "arn:aws:cloudformation:...:stack/App/<uuid>", // id derived when absent
//	        "status": "CREATE_COMPLETE",                                       // the default
//	        "description": "...", "creationTime": "2024-...Z", "lastUpdatedTime": "...",
//	        "parameters": [{"key": "K", "value": "V", "resolvedValue": "...", "noEcho": false}],
//	        "outputs": [{"key": "K", "value": "V", "description": "...", "exportName": "E"}],
//	        "tags": [{"key": "K", "value": "V"}], "capabilities": ["CAPABILITY_IAM"],
//	        "templateBody": "<JSON or YAML text>", "processedTemplateBody": "<after transforms>",
//	        "resources": [{
//	          "logicalId": "Queue", "type": "AWS::SQS::Queue", "physicalId": "https://...",
//	          "identifier": "<Cloud Control id when not the physical id; composites joined by |>",
//	          "status": "CREATE_COMPLETE", "properties": {<live model>},
//	          "deleted": false,                    // deleted out of band: still listed, never read
//	          "policyVersions": [...]              // AWS::IAM::ManagedPolicy only
//	        }]
//	      }],
//	      "resources": [{<live-only resource: no logicalId; type, identifier, properties>}],
//	      "schemas": {"AWS::SQS::Queue": {...}},  // this account region's facts, over the world's
//	      "kmsAliases": {"alias/aws/s3": "<key id>"} // what KMS ListAliases lists here
//	    }]
//	  }]
//	}
//
// The loader (ParseWorld, LoadWorld) validates and names every problem by
// its place (accounts[0].regions[1].stacks[2]...): account ids, region
// names, stack names and ARNs, statuses, duplicate logical ids, live models
// that are not JSON objects, two live resources sharing a type and
// identifier in one account scope.
//
// # IAM
//
// An account may declare identity policies for its roles and users
// (accounts[].policies: {role or user, documents}). A principal with
// declared policies may make only the calls they allow, evaluated as AWS
// does for every call served (package iamauth): an explicit Deny wins, else an
// Allow is needed; Action/NotAction and Resource/NotResource with * and ?
// wildcards; String*, Arn* and Bool conditions (IfExists too, and the set
// qualifiers ForAllValues/ForAnyValue over multivalued keys) on the global
// keys aws:PrincipalAccount, aws:PrincipalArn, aws:PrincipalOrgID,
// aws:PrincipalType, aws:RequestedRegion, aws:ResourceOrgID (when the
// resource's account is in the organization), aws:SecureTransport,
// aws:userid (a key the request lacks fails a positive operator). Each
// operation is authorized as its real IAM action (its service's wire.IAM:
// Cloud Control's GetResource is cloudformation:GetResource) against the
// stack, queue, topic, role, bucket or object it names, else "*". A denial is the service's AccessDenied
// in its own shape with AWS's message ("... because no identity-based policy
// allows ..." / "... with an explicit deny in an identity-based policy").
// A principal without declared policies, and every account root, may do
// anything the organization's SCPs allow.
//
// The organization (world/orgpolicy.go, iamauth/org.go) is enforced too:
//   - Service control policies (organization.serviceControlPolicies, each
//     attached to member accounts) restrict every principal of an account
//     they are attached to, its root and undeclared principals included,
//     before its identity policies: an explicit Deny in one, or no Allow in
//     any, refuses the call ("... with an explicit deny in a service
//     control policy" / "... because no service control policy allows
//     ..."). The management account is never restricted; an account with
//     none attached is not (as with FullAWSAccess alone); the hierarchy is
//     flat (one level, no OUs). The guard and Allows apply them too.
//   - A role's trust policy (accounts[].trustPolicies) decides every
//     sts:AssumeRole of it besides the caller's identity policies (both
//     must allow): Principal AWS (account id or root: any principal of the
//     account; a role ARN: its sessions; a user or session ARN) or Service,
//     NotPrincipal, and the conditions above with sts:ExternalId,
//     sts:RoleSessionName and sts:SourceIdentity from the request; refused,
//     AWS's AccessDenied without a reason. A role with none declared may be
//     assumed by any principal of a world account.
//   - A topic's access policy (its AWS::SNS::TopicPolicy, else the default
//     policy SNS gives a topic) decides sns:Publish beside the caller's
//     identity policies, as a resource-based policy (below; a service
//     names its resources' policy with wire.IAM.Policy).
//   - A KMS key's policy (the AWS::KMS::Key model's KeyPolicy, else KMS's
//     default) decides a use of the key (wire.Ask.KeyPolicy): it must
//     allow the call itself — a statement naming the caller allows it; one
//     naming the key's account (its root or id) delegates to the account's
//     identity policies, which must then allow it — and an explicit Deny
//     in either refuses it; another account's caller needs both. A publish
//     to an encrypted topic asks kms:GenerateDataKey and kms:Decrypt on
//     the topic's key with kms:ViaService sns.REGION.amazonaws.com
//     (wire.IAM.Asks), refused with KMSAccessDenied.
//
// Not evaluated: resource policies other than trust policies, topics',
// keys' and an Ask's (the guard's), permission boundaries, session
// policies.
//
// Services the sandbox does not serve are guarded instead (guard.go,
// with iamauth's Asks):
// Server.Guard puts the same evaluation in front of a stand-in — DynamoDB
// Local (DynamoDBAsks: dynamodb:Op on the table or index ARN with
// dynamodb:LeadingKeys from the request's keys, per table of a batch, per
// item of a transaction; DynamoDBKeyAsks adds kms:Decrypt on the table's
// key, under its key policy with kms:ViaService dynamodb.REGION.amazonaws.com,
// to every item read and write, AWSManagedKeyPolicy giving the policy AWS
// writes for the AWS managed key aws/dynamodb), or a test double of Secrets Manager, Step
// Functions or EventBridge — and answers AccessDenied in that service's
// shape; denials land in the call log, allowed calls pass on untouched.
// An Ask may carry the resource's own policy (Ask.Policy: the central
// event bus's): then the call is decided as AWS decides it with a
// resource-based policy — an explicit Deny in either refuses it; across
// accounts both the caller's identity policies and the resource policy
// must allow it, within the resource's account either may ("... because no
// resource-based policy allows ...").
// Server.Allows gives the same evaluation to a stand-in that answers its
// own refusals: the e2e's AWS_IAM function URL (lambdarouter.FunctionURL)
// asks it lambda:InvokeFunctionUrl on the function with
// lambda:FunctionUrlAuthType AWS_IAM, as Lambda asks IAM, and answers a
// refusal 403.
//
// # Admin
//
// The Go API and HTTP under /_sandbox/ (AdminRoutes; GET /_sandbox/ lists them): out-of-band changes
// (set or remove a property path, add a live-only resource, delete a
// resource), snapshot and restore, latency, throttling (token bucket per
// account and API, first matching rule, refilled by Options.Now; a
// throttled call answers its operation's throttling error,
// wire.Service.ThrottleFor: EC2 RequestLimitExceeded 503, S3 SlowDown 503,
// Lambda TooManyRequestsException 429, Route 53's ChangeResourceRecordSets
// PriorRequestNotComplete, query services Throttling, JSON services
// ThrottlingException unless their model names another), fault injection (an error code at
// a rate, AccessDenied for a role's sessions or for assuming it, a hang that
// never answers until the client gives up; a rule's match string narrows it
// to calls naming one resource) and the call log (counts per API, errors per code, maximum calls in flight;
// each call is one attempt, kept with the attempt number the SDK's amz-sdk-request header carries, so
// requests (first attempts) and retries are counted apart).
// An out-of-band change is refused (400 over HTTP, the message naming the
// write, the property and the constraint) when the model it leaves breaks
// the input constraints of a write that carries that type's models
// (wire.Service.Models; awsmodel.Table.CheckModel reads the model's
// properties as that write's members of the same names), as the
// service's own API would refuse it, with that service's invalid-input
// error: a Route 53 TTL "300-oob", a policy name off IAM's pattern.
// Admin requests are not logged, throttled or faulted. A service's own
// quotas (wire.Service.Quotas: CloudTrail's LookupEvents, 2 a second) are
// enforced besides the throttle rules and answered with its throttling
// error.
//
// # Paging
//
// Every list that pages with an opaque token pages through wire.Paging
// (its bounds and AWS's errors for a bad size or token are the
// operation's). A token is bound to the listing that issued it — the
// operation, account, region and every input member but the token and the
// page size (wire.Listing, derived from the call, never listed by a
// handler) — so sent with other parameters it is refused with the
// operation's invalid-token error, as AWS refuses it, while the page size
// may change from page to page. A token also carries its issue time on
// Options.Now: where AWS's model documents how long tokens hold
// (wire.Service.TokensExpire; CloudWatch Logs, 24 hours), an older token
// is refused the same way; where nothing is documented, none expires.
// Each page's token is issued anew. Lists that resume at a named item
// rather than a token (Route 53's record sets and zones, CloudTrail's
// LookupEvents, which binds its own token) page as their service does.
//
// # Eventual consistency
//
// Off by default: every read sees every write at once. With
// Options.StaleReads = N (consistency.go), a write AWS documents as
// eventually consistent (wire.Service.Eventual, marked with
// Service.Eventually: IAM's writes, EC2's ReplaceNetworkAclEntry, SQS
// SetQueueAttributes, S3 Put/DeleteBucketPolicy) is not seen by the
// writing account's next N reads of that service (operations CloudTrail
// marks readOnly), which are served from the world as it was before it;
// a further such write while stale keeps that older world and restarts
// the count. Only the service written goes stale, with Cloud Control's
// reads of its types (wire.Service.ReadsThrough: an AWS::IAM::Role is
// read through IAM); other services see the write at once. It counts reads, not time, so
// tests need no clock. Route 53's changes are PENDING for
// Options.OperationDelay and INSYNC after (GetChange), as Route 53
// answers; Cloud Control requests are IN_PROGRESS for the same delay.
//
// # Trail
//
// The sandbox records its own CloudTrail (trail.go, world.Trail): every
// write it serves — an operation CloudTrail marks readOnly=false, derived
// from the operation's name (Get*, List*, Describe*, Head*, Lookup*,
// Search*, BatchGet*, Query*, Scan*, Select* read; a short table names
// the reads whose name does not say so, as sts:AssumeRole), recorded once
// in the shared dispatch whatever service serves it, refused calls with
// their error code — and every admin change (Apply, /_sandbox/change) is a
// management event: userIdentity of the calling principal (IAMUser, Root
// or AssumedRole with its session issuer and source identity; the access
// key it signed with), event name and source, eventTime from the injected
// clock, requestParameters (sensitive values hidden, as CloudTrail hides
// them), source IP and user agent, readOnly=false, and the resources its
// parameters name (LookupEvents' ResourceName: a queue URL, topic ARN,
// role name, Cloud Control identifier). An admin change is made by its
// Change.Principal (a user name or an IAM user, root or assumed-role ARN;
// default the principal of its access key, else the account's root) with
// its UserAgent and SourceIP, as the API call it names (default Cloud
// Control's UpdateResource, CreateResource or DeleteResource). The
// cloudtrail service serves the events (service/cloudtrail: 90 days,
// paging, one attribute, 2 calls/s per account and region); BusEvents
// and GET /_sandbox/events deliver each to the sandbox's EventBridge
// as "AWS API Call via CloudTrail" events, the shape the service's trigger
// reads. A Restore keeps the trail.
//
// # Invariants
//
//   - The world is guarded by one RWMutex; every handler locks it; the
//     server is safe for concurrent use.
//   - Live models keep their bytes (key order, number forms) until a write
//     changes them; the corpus world serves each case's liveRaw verbatim.
//   - Only loopback listeners (the CLI refuses other addresses).
//   - The package never panics on input, prints or exits.
package sandbox
