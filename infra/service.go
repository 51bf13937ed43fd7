package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudformation"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsdynamodb"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsevents"
	"github.com/aws/aws-cdk-go/awscdk/v2/awseventstargets"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslogs"
	"github.com/aws/aws-cdk-go/awscdk/v2/awss3"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsscheduler"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssecretsmanager"
	"github.com/aws/aws-cdk-go/awscdk/v2/awssns"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsstepfunctions"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// Fixed names other parts of the system rely on.
const (
	SweepStateMachineName      = "realdrift-sweep"
	CheckStackStateMachineName = "realdrift-check-stack"
	RevertStateMachineName     = "realdrift-revert"
	AcceptStateMachineName     = "realdrift-accept"
	EventBusName               = "realdrift"
	MemberStackSetName         = "realdrift-member"
	// The rules starting the trigger, on the default bus (this account's
	// changes) and on the realdrift bus (forwarded member changes).
	LocalTriggerRuleName  = "realdrift-trigger-local"
	MemberTriggerRuleName = "realdrift-trigger-member"

	// Table layout, mirroring internal/store/layout.go.
	attrPK     = "pk"
	attrSK     = "sk"
	attrTTL    = "ttl"
	gsi1       = "gsi1"
	attrGSI1PK = "gsi1pk"
	attrGSI1SK = "gsi1sk"
)

// gsi1NonKey mirrors store.GSI1NonKeyAttributes.
func gsi1NonKey() *[]*string { return jsii.Strings("record", attrTTL) }

// Service is the central stack and the parts tests look at.
type Service struct {
	Stack   awscdk.Stack
	Missing []string // functions synthesized with the placeholder asset
}

// NewService defines the central stack.
func NewService(scope constructs.Construct, id string, cfg Config, props *awscdk.StackProps) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	assets, missing, err := cfg.assetDirs()
	if err != nil {
		return nil, err
	}
	definitions := map[string]string{}
	for _, name := range []string{"sweep", "check-stack", "revert", "accept"} {
		b, err := os.ReadFile(filepath.Join(cfg.StateMachineDir, name+".asl.json"))
		if err != nil {
			return nil, fmt.Errorf("state machine definition: %w", err)
		}
		definitions[name] = string(b)
	}
	member, err := memberTemplate(cfg.revertTypes())
	if err != nil {
		return nil, err
	}
	memberGlobal, err := memberGlobalTemplate()
	if err != nil {
		return nil, err
	}

	stack := awscdk.NewStack(scope, jsii.String(id), props)
	s := &Service{Stack: stack, Missing: missing}

	orgID := awscdk.NewCfnParameter(stack, jsii.String("OrganizationId"), &awscdk.CfnParameterProps{
		Type:           jsii.String("String"),
		AllowedPattern: jsii.String(`^o-[a-z0-9]{10,32}$`),
		Description:    jsii.String("The AWS Organization whose accounts realdrift sweeps."),
	})
	memberOUs := awscdk.NewCfnParameter(stack, jsii.String("MemberOrganizationalUnitIds"), &awscdk.CfnParameterProps{
		Type:        jsii.String("CommaDelimitedList"),
		Description: jsii.String("Organizational units (or the root id) that receive the member StackSet."),
	})
	memberRegions := awscdk.NewCfnParameter(stack, jsii.String("MemberRegions"), &awscdk.CfnParameterProps{
		Type:        jsii.String("CommaDelimitedList"),
		Description: jsii.String("Regions swept, and where the member StackSet forwards CloudTrail events from."),
	})

	readRate := awscdk.NewCfnParameter(stack, jsii.String(ReadRateParameter), &awscdk.CfnParameterProps{
		Type: jsii.String("Number"), Default: jsii.String("10"), MinValue: jsii.Number(0.1),
		Description: jsii.String("API calls per second a sweep makes into one member account and region, shared by all its functions (REALDRIFT_READ_RATE)."),
	})
	enableRevert := awscdk.NewCfnParameter(stack, jsii.String(EnableRevertParameter), &awscdk.CfnParameterProps{
		Type: jsii.String("String"), AllowedValues: jsii.Strings("true", "false"), Default: jsii.String("false"),
		Description: jsii.String("Create the member accounts' revert role and let approved revert executions write with it. Off: reverts plan and dry-run only."),
	})
	revertEnabled := awscdk.NewCfnCondition(stack, jsii.String(RevertEnabledCondition), &awscdk.CfnConditionProps{
		Expression: awscdk.Fn_ConditionEquals(enableRevert.ValueAsString(), jsii.String("true")),
	})
	handlerVia := newHandlerCalledVia(stack, "Passed to the member accounts' stacks: the aws:CalledVia value the calls of Cloud Control's handlers carry, as scripts/aws-acceptance.sh confirms it in an account; the revert role's handler grants then hold for those calls only. Empty (the default): for any AWS service acting for the role (aws:ViaAWSService).")
	enableHub := awscdk.NewCfnParameter(stack, jsii.String(EnableSecurityHubParameter), &awscdk.CfnParameterProps{
		Type: jsii.String("String"), AllowedValues: jsii.Strings("true", "false"), Default: jsii.String("false"),
		Description: jsii.String("Import confirmed drift into each member account's Security Hub (REALDRIFT_SECURITY_HUB; the member read role gets the two Security Hub calls). Off by default."),
	})

	// Store.
	table := awsdynamodb.NewTable(stack, jsii.String("Table"), &awsdynamodb.TableProps{
		PartitionKey:        &awsdynamodb.Attribute{Name: jsii.String(attrPK), Type: awsdynamodb.AttributeType_STRING},
		SortKey:             &awsdynamodb.Attribute{Name: jsii.String(attrSK), Type: awsdynamodb.AttributeType_STRING},
		BillingMode:         awsdynamodb.BillingMode_PAY_PER_REQUEST,
		TimeToLiveAttribute: jsii.String(attrTTL),
		PointInTimeRecoverySpecification: &awsdynamodb.PointInTimeRecoverySpecification{
			PointInTimeRecoveryEnabled: jsii.Bool(true),
		},
		Encryption:         awsdynamodb.TableEncryption_AWS_MANAGED,
		DeletionProtection: jsii.Bool(true),
		RemovalPolicy:      awscdk.RemovalPolicy_RETAIN,
	})
	table.AddGlobalSecondaryIndex(&awsdynamodb.GlobalSecondaryIndexProps{
		IndexName:        jsii.String(gsi1),
		PartitionKey:     &awsdynamodb.Attribute{Name: jsii.String(attrGSI1PK), Type: awsdynamodb.AttributeType_STRING},
		SortKey:          &awsdynamodb.Attribute{Name: jsii.String(attrGSI1SK), Type: awsdynamodb.AttributeType_STRING},
		ProjectionType:   awsdynamodb.ProjectionType_INCLUDE,
		NonKeyAttributes: gsi1NonKey(),
	})

	// Keys: log groups; alert topic and dead-letter queues.
	logsKey := newLogsKey(stack)
	messagesKey := newKey(stack, "MessagesKey", "realdrift alert topic and dead-letter queues")

	// Alerts.
	topic := awssns.NewTopic(stack, jsii.String("Alerts"), &awssns.TopicProps{
		DisplayName: jsii.String("realdrift alerts"),
		EnforceSSL:  jsii.Bool(true),
		MasterKey:   messagesKey,
	})
	slack := awssecretsmanager.NewSecret(stack, jsii.String("SlackWebhook"), &awssecretsmanager.SecretProps{
		Description: jsii.String("Slack incoming-webhook URL for realdrift alerts (the URL, or {\"url\": \"...\"}). Until it holds one, Slack alerts are off: the notify function logs one warning and the other channels still alert."),
	})
	bus := awsevents.NewEventBus(stack, jsii.String("Bus"), &awsevents.EventBusProps{EventBusName: jsii.String(EventBusName)})
	bus.AddToResourcePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:        jsii.String("OrganizationMembersPutEvents"),
		Principals: &[]awsiam.IPrincipal{awsiam.NewAnyPrincipal()},
		Actions:    jsii.Strings("events:PutEvents"),
		Resources:  jsii.Strings(*bus.EventBusArn()),
		Conditions: &map[string]any{"StringEquals": map[string]any{"aws:PrincipalOrgID": orgID.ValueAsString()}},
	}))

	// The sweep's per-account-region stack lists (discover writes them; the
	// Stacks Distributed Map's ItemReader reads them) and the per-stack
	// children's results (its ResultWriter): run data, expired after a week.
	targets := awss3.NewBucket(stack, jsii.String("SweepTargets"), &awss3.BucketProps{
		Encryption:        awss3.BucketEncryption_S3_MANAGED,
		BlockPublicAccess: awss3.BlockPublicAccess_BLOCK_ALL(),
		EnforceSSL:        jsii.Bool(true),
		Versioned:         jsii.Bool(false),
		LifecycleRules:    &[]*awss3.LifecycleRule{{Expiration: awscdk.Duration_Days(jsii.Number(7)), AbortIncompleteMultipartUploadAfter: awscdk.Duration_Days(jsii.Number(1))}},
		RemovalPolicy:     awscdk.RemovalPolicy_RETAIN,
	})
	runObjects := jsii.String(*targets.BucketArn() + "/runs/*")

	// Lambdas, each with its own role.
	memberRole := stack.FormatArn(&awscdk.ArnComponents{
		Service: jsii.String("iam"), Region: jsii.String(""), Account: jsii.String("*"),
		Resource: jsii.String("role"), ResourceName: jsii.String(ReadRoleName),
	})
	memberRevertRole := stack.FormatArn(&awscdk.ArnComponents{
		Service: jsii.String("iam"), Region: jsii.String(""), Account: jsii.String("*"),
		Resource: jsii.String("role"), ResourceName: jsii.String(RevertRoleName),
	})
	revertArn := stack.FormatArn(&awscdk.ArnComponents{
		Service: jsii.String("states"), Resource: jsii.String("stateMachine"),
		ResourceName: jsii.String(RevertStateMachineName), ArnFormat: awscdk.ArnFormat_COLON_RESOURCE_NAME,
	})
	checkStackArn := stack.FormatArn(&awscdk.ArnComponents{
		Service: jsii.String("states"), Resource: jsii.String("stateMachine"),
		ResourceName: jsii.String(CheckStackStateMachineName), ArnFormat: awscdk.ArnFormat_COLON_RESOURCE_NAME,
	})
	fns := map[string]awslambda.Function{}
	for _, f := range functions() {
		logs := awslogs.NewLogGroup(stack, jsii.String("Logs"+pascal(f.Name)), &awslogs.LogGroupProps{
			Retention:     awslogs.RetentionDays_ONE_MONTH,
			RemovalPolicy: awscdk.RemovalPolicy_DESTROY,
			EncryptionKey: logsKey,
		})
		role := awsiam.NewRole(stack, jsii.String("Role"+pascal(f.Name)), &awsiam.RoleProps{
			RoleName:    jsii.String("realdrift-" + f.Name),
			AssumedBy:   awsiam.NewServicePrincipal(jsii.String("lambda.amazonaws.com"), nil),
			Description: jsii.String("realdrift " + f.Name + " function"),
		})
		role.AddToPrincipalPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
			Actions:   jsii.Strings("logs:CreateLogStream", "logs:PutLogEvents"),
			Resources: jsii.Strings(*logs.LogGroupArn()),
		}))
		desc := f.Description
		for _, m := range missing {
			if m == f.Name {
				desc = "PLACEHOLDER (functions/" + f.Name + " not built): " + desc
			}
		}
		fn := awslambda.NewFunction(stack, jsii.String("Fn"+pascal(f.Name)), &awslambda.FunctionProps{
			Runtime:      awslambda.Runtime_PROVIDED_AL2023(),
			Architecture: awslambda.Architecture_ARM_64(),
			Handler:      jsii.String("bootstrap"),
			Code:         awslambda.Code_FromAsset(jsii.String(assets[f.Name]), nil),
			Role:         role,
			LogGroup:     logs,
			MemorySize:   jsii.Number(f.memory()),
			Timeout:      awscdk.Duration_Seconds(jsii.Number(f.TimeoutSeconds)),
			Description:  jsii.String(desc),
			Environment: &map[string]*string{
				"REALDRIFT_TABLE":          table.TableName(),
				"REALDRIFT_READ_ROLE_NAME": jsii.String(ReadRoleName),
				"REALDRIFT_REGIONS":        awscdk.Fn_Join(jsii.String(","), memberRegions.ValueAsList()),
			},
		})
		grants := f.Table
		if f.Reader {
			// Readers pace their member-account calls on the shared
			// schedule items (internal/pace).
			grants = append(append([]tableGrant(nil), grants...), paceGrant())
			fn.AddEnvironment(jsii.String("REALDRIFT_READ_RATE"), readRate.ValueAsString(), nil)
		}
		for _, st := range tableStatements(table.TableArn(), grants) {
			role.AddToPrincipalPolicy(st)
		}
		if f.Reader {
			role.AddToPrincipalPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
				Sid:        jsii.String("AssumeMemberReadRole"),
				Actions:    jsii.Strings("sts:AssumeRole"),
				Resources:  jsii.Strings(*memberRole),
				Conditions: &map[string]any{"StringEquals": map[string]any{"aws:ResourceOrgID": orgID.ValueAsString()}},
			}))
		}
		if f.Reverter {
			// The role name only when reverts are on: off, the write step
			// refuses (service.ErrRevertOff) and the role does not exist.
			fn.AddEnvironment(jsii.String("REALDRIFT_REVERT_ROLE_NAME"), awscdk.Fn_ConditionIf(revertEnabled.LogicalId(), RevertRoleName, "").ToString(), nil)
			role.AddToPrincipalPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
				Sid:        jsii.String("AssumeMemberRevertRole"),
				Actions:    jsii.Strings("sts:AssumeRole"),
				Resources:  jsii.Strings(*memberRevertRole),
				Conditions: &map[string]any{"StringEquals": map[string]any{"aws:ResourceOrgID": orgID.ValueAsString()}},
			}))
		}
		fns[f.Name] = fn
	}
	// The planner marks a Cloud Control write of a type the revert role
	// is not granted not revertable ("ungranted"), never a write that
	// fails in the member account.
	fns["revert-plan"].AddEnvironment(jsii.String("REALDRIFT_REVERT_TYPES"), jsii.String(revertTypesEnv(cfg.revertTypes())), nil)
	fns["discover"].Role().AddToPrincipalPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String("ListOrganizationAccounts"),
		Actions:   jsii.Strings("organizations:ListAccounts", "organizations:DescribeOrganization"),
		Resources: jsii.Strings("*"),
	}))
	fns["discover"].AddEnvironment(jsii.String("REALDRIFT_TARGETS_BUCKET"), targets.BucketName(), nil)
	// discover writes the stack lists and reads the Stacks Map's results
	// (its ResultWriter's manifest and files) to list the large stacks.
	fns["discover"].Role().AddToPrincipalPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String("WriteStackLists"),
		Actions:   jsii.Strings("s3:PutObject", "s3:GetObject"),
		Resources: &[]*string{runObjects},
	}))
	notify := fns["notify"]
	notify.AddEnvironment(jsii.String("REALDRIFT_TOPIC_ARN"), topic.TopicArn(), nil)
	notify.AddEnvironment(jsii.String("REALDRIFT_SLACK_SECRET_ARN"), slack.SecretArn(), nil)
	notify.AddEnvironment(jsii.String("REALDRIFT_EVENT_BUS"), bus.EventBusArn(), nil)
	// Security Hub: on, the notify function imports findings through the
	// member accounts' findings role (member.go); off, neither exists.
	hubEnabled := awscdk.NewCfnCondition(stack, jsii.String(SecurityHubEnabledCondition), &awscdk.CfnConditionProps{
		Expression: awscdk.Fn_ConditionEquals(enableHub.ValueAsString(), jsii.String("true")),
	})
	notify.AddEnvironment(jsii.String("REALDRIFT_SECURITY_HUB"), enableHub.ValueAsString(), nil)
	notify.AddEnvironment(jsii.String("REALDRIFT_FINDINGS_ROLE_NAME"), awscdk.Fn_ConditionIf(hubEnabled.LogicalId(), FindingsRoleName, "").ToString(), nil)
	notify.Role().AddToPrincipalPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:     jsii.String("AssumeMemberFindingsRole"),
		Actions: jsii.Strings("sts:AssumeRole"),
		Resources: jsii.Strings(*stack.FormatArn(&awscdk.ArnComponents{
			Service: jsii.String("iam"), Region: jsii.String(""), Account: jsii.String("*"),
			Resource: jsii.String("role"), ResourceName: jsii.String(FindingsRoleName),
		})),
		Conditions: &map[string]any{"StringEquals": map[string]any{"aws:ResourceOrgID": orgID.ValueAsString()}},
	}))
	// Drift alerts link to the revert state machine (by name: it invokes
	// notify, so a reference would be circular).
	notify.AddEnvironment(jsii.String("REALDRIFT_REVERT_STATE_MACHINE_ARN"), revertArn, nil)
	// Not topic.GrantPublish: it grants KMS actions by wildcard; the key
	// policy lets notify use the key through SNS instead.
	notify.Role().AddToPrincipalPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String("PublishAlerts"),
		Actions:   jsii.Strings("sns:Publish"),
		Resources: jsii.Strings(*topic.TopicArn()),
	}))
	allowVia(stack, messagesKey, "AlertPublishers", "sns", notify.Role())
	slack.GrantRead(notify, nil)
	bus.GrantPutEventsTo(notify, nil)
	// Revert messages: the approval request and the outcome (notify).
	approve := fns["approve-link"]
	// AuthType AWS_IAM: Lambda invokes the function only for requests
	// SigV4-signed by a principal IAM allows lambda:InvokeFunctionUrl on
	// it (the approver policy below; no resource policy grants anyone),
	// and names that principal to the function, which records it as the
	// approver. Holding the URL (it is in the approval message) is not
	// enough.
	approveURL := approve.AddFunctionUrl(&awslambda.FunctionUrlOptions{AuthType: awslambda.FunctionUrlAuthType_AWS_IAM})
	approverPolicy := awsiam.NewManagedPolicy(stack, jsii.String("ApproverPolicy"), &awsiam.ManagedPolicyProps{
		ManagedPolicyName: jsii.String("realdrift-approver"),
		Description:       jsii.String("Attach to the people or roles who may approve or reject realdrift reverts: an IAM-signed call to the approval function URL."),
		Statements: &[]awsiam.PolicyStatement{awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
			Sid:        jsii.String("DecideReverts"),
			Actions:    jsii.Strings("lambda:InvokeFunctionUrl"),
			Resources:  jsii.Strings(*approve.FunctionArn()),
			Conditions: &map[string]any{"StringEquals": map[string]any{"lambda:FunctionUrlAuthType": "AWS_IAM"}},
		})},
	})
	approve.Role().AddToPrincipalPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String("AnswerRevertApprovals"),
		Actions:   jsii.Strings("states:SendTaskSuccess", "states:SendTaskFailure"),
		Resources: jsii.Strings(*revertArn),
	}))
	request := fns["request-approval"]
	request.AddEnvironment(jsii.String("REALDRIFT_TOPIC_ARN"), topic.TopicArn(), nil)
	request.AddEnvironment(jsii.String("REALDRIFT_SLACK_SECRET_ARN"), slack.SecretArn(), nil)
	request.AddEnvironment(jsii.String("REALDRIFT_APPROVAL_URL"), approveURL.Url(), nil)
	request.Role().AddToPrincipalPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String("PublishApprovals"),
		Actions:   jsii.Strings("sns:Publish"),
		Resources: jsii.Strings(*topic.TopicArn()),
	}))
	allowVia(stack, messagesKey, "ApprovalPublishers", "sns", request.Role())
	slack.GrantRead(request, nil)

	trigger := fns["trigger"]
	trigger.AddEnvironment(jsii.String("REALDRIFT_CHECK_STACK_ARN"), checkStackArn, nil)
	trigger.Role().AddToPrincipalPolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String("StartCheckStack"),
		Actions:   jsii.Strings("states:StartExecution"),
		Resources: jsii.Strings(*checkStackArn),
	}))

	// State machines.
	substitutions := map[string]*string{}
	for name, fn := range fns {
		substitutions[substitutionName(name)] = fn.FunctionArn()
	}
	checkStack := awsstepfunctions.NewStateMachine(stack, jsii.String("CheckStack"), &awsstepfunctions.StateMachineProps{
		StateMachineName:        jsii.String(CheckStackStateMachineName),
		StateMachineType:        awsstepfunctions.StateMachineType_EXPRESS,
		DefinitionBody:          awsstepfunctions.DefinitionBody_FromString(jsii.String(definitions["check-stack"])),
		DefinitionSubstitutions: &substitutions,
		Logs:                    stateMachineLogs(stack, "CheckStackLogs", logsKey),
		TracingEnabled:          jsii.Bool(true),
	})
	sweep := awsstepfunctions.NewStateMachine(stack, jsii.String("Sweep"), &awsstepfunctions.StateMachineProps{
		StateMachineName:        jsii.String(SweepStateMachineName),
		StateMachineType:        awsstepfunctions.StateMachineType_STANDARD,
		DefinitionBody:          awsstepfunctions.DefinitionBody_FromString(jsii.String(definitions["sweep"])),
		DefinitionSubstitutions: &substitutions,
		Logs:                    stateMachineLogs(stack, "SweepLogs", logsKey),
		TracingEnabled:          jsii.Bool(true),
	})
	// Standard: it waits for approval. Its execution data is not logged:
	// the approval step's input carries the task token.
	revertLogs := stateMachineLogs(stack, "RevertLogs", logsKey)
	revertLogs.IncludeExecutionData = jsii.Bool(false)
	revertSM := awsstepfunctions.NewStateMachine(stack, jsii.String("Revert"), &awsstepfunctions.StateMachineProps{
		StateMachineName:        jsii.String(RevertStateMachineName),
		StateMachineType:        awsstepfunctions.StateMachineType_STANDARD,
		DefinitionBody:          awsstepfunctions.DefinitionBody_FromString(jsii.String(definitions["revert"])),
		DefinitionSubstitutions: &substitutions,
		Logs:                    revertLogs,
	})
	for _, name := range []string{"revert-plan", "request-approval", "revert-write", "revert-converge", "revert-audit", "notify"} {
		fns[name].GrantInvoke(revertSM)
	}
	// Standard: a person starts an accept (the console, or a drift alert's
	// Accept… link); its payloads are references, logged with execution
	// data. It gets only its own function's ARN, so notify can name it
	// without a dependency cycle.
	acceptSM := awsstepfunctions.NewStateMachine(stack, jsii.String("Accept"), &awsstepfunctions.StateMachineProps{
		StateMachineName:        jsii.String(AcceptStateMachineName),
		StateMachineType:        awsstepfunctions.StateMachineType_STANDARD,
		DefinitionBody:          awsstepfunctions.DefinitionBody_FromString(jsii.String(definitions["accept"])),
		DefinitionSubstitutions: &map[string]*string{substitutionName("accept"): fns["accept"].FunctionArn()},
		Logs:                    stateMachineLogs(stack, "AcceptLogs", logsKey),
	})
	fns["accept"].GrantInvoke(acceptSM)
	// Drift alerts with live-only drift link to it.
	notify.AddEnvironment(jsii.String("REALDRIFT_ACCEPT_STATE_MACHINE_ARN"), acceptSM.StateMachineArn(), nil)
	for _, name := range []string{"load-desired", "read-resources", "resolve", "enumerate-children", "classify", "persist", "notify"} {
		fns[name].GrantInvoke(checkStack)
	}
	for _, name := range []string{"discover", "load-desired", "read-resources", "resolve", "enumerate-children", "classify", "persist", "notify"} {
		fns[name].GrantInvoke(sweep)
	}
	// The sweep's Distributed Maps start child executions of the sweep
	// itself (by name: referencing the resource would be circular).
	sweepArn := stack.FormatArn(&awscdk.ArnComponents{
		Service: jsii.String("states"), Resource: jsii.String("stateMachine"),
		ResourceName: jsii.String(SweepStateMachineName), ArnFormat: awscdk.ArnFormat_COLON_RESOURCE_NAME,
	})
	sweepExecutions := stack.FormatArn(&awscdk.ArnComponents{
		Service: jsii.String("states"), Resource: jsii.String("execution"),
		ResourceName: jsii.String(SweepStateMachineName + "/*"), ArnFormat: awscdk.ArnFormat_COLON_RESOURCE_NAME,
	})
	sweep.AddToRolePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String("DistributedMapChildren"),
		Actions:   jsii.Strings("states:StartExecution"),
		Resources: jsii.Strings(*sweepArn),
	}))
	// The Stacks and LargeStacks Maps read each account-region's stack
	// lists (ItemReader) and write their children's results (ResultWriter)
	// under runs/.
	sweep.AddToRolePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String("DistributedMapItems"),
		Actions:   jsii.Strings("s3:GetObject", "s3:PutObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"),
		Resources: &[]*string{runObjects},
	}))
	sweep.AddToRolePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:     jsii.String("DistributedMapChildExecutions"),
		Actions: jsii.Strings("states:DescribeExecution", "states:StopExecution"),
		// The account children and the LargeStacks Map's are Standard
		// executions; the Stacks Map's Express children are not described
		// or stopped by ARN (statemachine/doc.go).
		Resources: jsii.Strings(*sweepExecutions),
	}))

	// Schedule.
	schedulerRole := awsiam.NewRole(stack, jsii.String("SchedulerRole"), &awsiam.RoleProps{
		AssumedBy: awsiam.NewServicePrincipal(jsii.String("scheduler.amazonaws.com"), &awsiam.ServicePrincipalOpts{
			Conditions: &map[string]any{"StringEquals": map[string]any{"aws:SourceAccount": stack.Account()}},
		}),
		Description: jsii.String("EventBridge Scheduler starts realdrift sweeps"),
	})
	sweep.GrantStartExecution(schedulerRole)
	scheduleDLQ := newDeadLetters(stack, "ScheduleDeadLetters", messagesKey)
	sendDeadLetters(schedulerRole, scheduleDLQ)
	allowVia(stack, messagesKey, "ScheduleDeadLetterWriters", "sqs", schedulerRole)
	awsscheduler.NewCfnSchedule(stack, jsii.String("SweepSchedule"), &awsscheduler.CfnScheduleProps{
		Description:        jsii.String("Start an organisation-wide realdrift sweep."),
		ScheduleExpression: jsii.String(cfg.SweepSchedule),
		FlexibleTimeWindow: &awsscheduler.CfnSchedule_FlexibleTimeWindowProperty{Mode: jsii.String("OFF")},
		State:              jsii.String("ENABLED"),
		Target: &awsscheduler.CfnSchedule_TargetProperty{
			Arn:     sweep.StateMachineArn(),
			RoleArn: schedulerRole.RoleArn(),
			Input:   jsii.String("{}"),
			RetryPolicy: &awsscheduler.CfnSchedule_RetryPolicyProperty{
				MaximumRetryAttempts:     jsii.Number(ScheduleRetryAttempts),
				MaximumEventAgeInSeconds: jsii.Number(ScheduleMaxEventAge),
			},
			DeadLetterConfig: &awsscheduler.CfnSchedule_DeadLetterConfigProperty{Arn: scheduleDLQ.QueueArn()},
		},
	})

	// CloudTrail changes → trigger, from this account (default bus) and
	// from member accounts (forwarded to the realdrift bus). What neither
	// EventBridge nor the trigger's asynchronous invocation delivers after
	// their retries lands in one dead-letter queue.
	triggerDLQ := newDeadLetters(stack, "TriggerDeadLetters", messagesKey)
	asyncInvoke(stack, trigger, triggerDLQ)
	allowVia(stack, messagesKey, "TriggerDeadLetterWriters", "sqs", trigger.Role())
	var ruleArns []*string
	for _, r := range []struct {
		id, name string
		bus      awsevents.IEventBus
	}{
		{"TriggerOnLocalChange", LocalTriggerRuleName, nil},
		{"TriggerOnMemberChange", MemberTriggerRuleName, bus},
	} {
		awsevents.NewRule(stack, jsii.String(r.id), &awsevents.RuleProps{
			RuleName:     jsii.String(r.name),
			Description:  jsii.String("CloudTrail management events that change resources start the realdrift trigger."),
			EventBus:     r.bus,
			EventPattern: cloudTrailChange(triggerSources()),
			Targets: &[]awsevents.IRuleTarget{awseventstargets.NewLambdaFunction(trigger, &awseventstargets.LambdaFunctionProps{
				RetryAttempts:   jsii.Number(TargetRetryAttempts),
				MaxEventAge:     awscdk.Duration_Seconds(jsii.Number(TargetMaxEventAge)),
				DeadLetterQueue: triggerDLQ,
			})},
		})
		name := r.name
		if r.bus != nil {
			name = EventBusName + "/" + r.name
		}
		ruleArns = append(ruleArns, stack.FormatArn(&awscdk.ArnComponents{
			Service: jsii.String("events"), Resource: jsii.String("rule"), ResourceName: jsii.String(name),
		}))
	}
	// The flush: every minute the trigger starts the checks whose debounce
	// windows closed (trailing edge). A flush EventBridge could not deliver
	// within a minute is made up by the next one; its dead letters say so.
	awsevents.NewRule(stack, jsii.String("TriggerFlush"), &awsevents.RuleProps{
		RuleName:    jsii.String(FlushRuleName),
		Description: jsii.String("Start the realdrift checks whose change-event debounce windows closed."),
		Schedule:    awsevents.Schedule_Expression(jsii.String(FlushSchedule)),
		Targets: &[]awsevents.IRuleTarget{awseventstargets.NewLambdaFunction(trigger, &awseventstargets.LambdaFunctionProps{
			Event:           awsevents.RuleTargetInput_FromObject(flushInput()),
			RetryAttempts:   jsii.Number(1),
			MaxEventAge:     awscdk.Duration_Seconds(jsii.Number(60)),
			DeadLetterQueue: triggerDLQ,
		})},
	})
	ruleArns = append(ruleArns, stack.FormatArn(&awscdk.ArnComponents{
		Service: jsii.String("events"), Resource: jsii.String("rule"), ResourceName: jsii.String(FlushRuleName),
	}))
	trigger.Node().DefaultChild().(awslambda.CfnFunction).SetReservedConcurrentExecutions(jsii.Number(TriggerReservedConcurrency))
	allowEventBridge(stack, messagesKey, ruleArns...)

	// Member accounts: read role and event forwarding, as a StackSet.
	awscloudformation.NewCfnStackSet(stack, jsii.String("Member"), &awscloudformation.CfnStackSetProps{
		StackSetName:    jsii.String(MemberStackSetName),
		Description:     jsii.String("realdrift member account: read-only role for the central sweep, CloudTrail change forwarding."),
		PermissionModel: jsii.String("SERVICE_MANAGED"),
		AutoDeployment: &awscloudformation.CfnStackSet_AutoDeploymentProperty{
			Enabled:                      jsii.Bool(true),
			RetainStacksOnAccountRemoval: jsii.Bool(false),
		},
		Capabilities: jsii.Strings("CAPABILITY_NAMED_IAM"),
		// ManagedExecution is untyped JSON in the L1: spell the key as CloudFormation does.
		ManagedExecution: map[string]any{"Active": true},
		OperationPreferences: &awscloudformation.CfnStackSet_OperationPreferencesProperty{
			FailureTolerancePercentage: jsii.Number(10),
			MaxConcurrentPercentage:    jsii.Number(25),
			RegionConcurrencyType:      jsii.String("PARALLEL"),
		},
		Parameters: &[]any{
			&awscloudformation.CfnStackSet_ParameterProperty{ParameterKey: jsii.String("CentralAccountId"), ParameterValue: stack.Account()},
			&awscloudformation.CfnStackSet_ParameterProperty{ParameterKey: jsii.String("CentralEventBusArn"), ParameterValue: bus.EventBusArn()},
			&awscloudformation.CfnStackSet_ParameterProperty{ParameterKey: jsii.String("OrganizationId"), ParameterValue: orgID.ValueAsString()},
			&awscloudformation.CfnStackSet_ParameterProperty{ParameterKey: jsii.String("RoleRegion"), ParameterValue: awscdk.Fn_Select(jsii.Number(0), memberRegions.ValueAsList())},
			&awscloudformation.CfnStackSet_ParameterProperty{ParameterKey: jsii.String(EnableRevertParameter), ParameterValue: enableRevert.ValueAsString()},
			&awscloudformation.CfnStackSet_ParameterProperty{ParameterKey: jsii.String(HandlerCalledViaParameter), ParameterValue: handlerVia},
			&awscloudformation.CfnStackSet_ParameterProperty{ParameterKey: jsii.String(EnableSecurityHubParameter), ParameterValue: enableHub.ValueAsString()},
		},
		StackInstancesGroup: &[]any{&awscloudformation.CfnStackSet_StackInstancesProperty{
			DeploymentTargets: &awscloudformation.CfnStackSet_DeploymentTargetsProperty{OrganizationalUnitIds: memberOUs.ValueAsList()},
			Regions:           memberRegions.ValueAsList(),
		}},
		TemplateBody: jsii.String(member),
	})
	// Global services' events (IAM, CloudFront, Route 53) are recorded in
	// the partition's global region only: each member account forwards
	// them from there, whatever MemberRegions holds (the member template's
	// rule passes regional sources only, so nothing is forwarded twice).
	globalRegion := awscdk.NewCfnMapping(stack, jsii.String("GlobalEventsRegion"), &awscdk.CfnMappingProps{Mapping: globalRegionMapping()})
	awscloudformation.NewCfnStackSet(stack, jsii.String("MemberGlobal"), &awscloudformation.CfnStackSetProps{
		StackSetName:    jsii.String(MemberGlobalStackSetName),
		Description:     jsii.String("realdrift member account: forwards global-service CloudTrail changes from the global region."),
		PermissionModel: jsii.String("SERVICE_MANAGED"),
		AutoDeployment: &awscloudformation.CfnStackSet_AutoDeploymentProperty{
			Enabled:                      jsii.Bool(true),
			RetainStacksOnAccountRemoval: jsii.Bool(false),
		},
		Capabilities:     jsii.Strings("CAPABILITY_IAM"),
		ManagedExecution: map[string]any{"Active": true},
		OperationPreferences: &awscloudformation.CfnStackSet_OperationPreferencesProperty{
			FailureTolerancePercentage: jsii.Number(10),
			MaxConcurrentPercentage:    jsii.Number(25),
		},
		Parameters: &[]any{
			&awscloudformation.CfnStackSet_ParameterProperty{ParameterKey: jsii.String("CentralEventBusArn"), ParameterValue: bus.EventBusArn()},
		},
		StackInstancesGroup: &[]any{&awscloudformation.CfnStackSet_StackInstancesProperty{
			DeploymentTargets: &awscloudformation.CfnStackSet_DeploymentTargetsProperty{OrganizationalUnitIds: memberOUs.ValueAsList()},
			Regions:           &[]*string{globalRegion.FindInMap(awscdk.Aws_PARTITION(), jsii.String("region"), nil)},
		}},
		TemplateBody: jsii.String(memberGlobal),
	})

	awscdk.NewCfnOutput(stack, jsii.String("SweepStateMachineArn"), &awscdk.CfnOutputProps{Value: sweep.StateMachineArn()})
	awscdk.NewCfnOutput(stack, jsii.String("CheckStackStateMachineArn"), &awscdk.CfnOutputProps{Value: checkStack.StateMachineArn()})
	awscdk.NewCfnOutput(stack, jsii.String("RevertStateMachineArn"), &awscdk.CfnOutputProps{Value: revertSM.StateMachineArn()})
	awscdk.NewCfnOutput(stack, jsii.String("AcceptStateMachineArn"), &awscdk.CfnOutputProps{Value: acceptSM.StateMachineArn()})
	awscdk.NewCfnOutput(stack, jsii.String("ApprovalUrl"), &awscdk.CfnOutputProps{Value: approveURL.Url()})
	awscdk.NewCfnOutput(stack, jsii.String("ApproverPolicyArn"), &awscdk.CfnOutputProps{Value: approverPolicy.ManagedPolicyArn()})
	awscdk.NewCfnOutput(stack, jsii.String("TableName"), &awscdk.CfnOutputProps{Value: table.TableName()})
	awscdk.NewCfnOutput(stack, jsii.String("AlertTopicArn"), &awscdk.CfnOutputProps{Value: topic.TopicArn()})
	awscdk.NewCfnOutput(stack, jsii.String("SlackSecretArn"), &awscdk.CfnOutputProps{Value: slack.SecretArn()})
	return s, nil
}
