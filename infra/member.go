package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsevents"
	"github.com/aws/aws-cdk-go/awscdk/v2/awseventstargets"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// MemberStackName names the member template's stack.
const MemberStackName = "RealdriftMember"

// readerRoleNames are the central roles the member read role trusts.
func readerRoleNames() []string {
	var names []string
	for _, f := range functions() {
		if f.Reader {
			names = append(names, "realdrift-"+f.Name)
		}
	}
	return names
}

// reverterRoleNames are the central roles the member revert role trusts.
func reverterRoleNames() []string {
	var names []string
	for _, f := range functions() {
		if f.Reverter {
			names = append(names, "realdrift-"+f.Name)
		}
	}
	return names
}

// revertActions are exactly the IAM actions realdrift's writers call
// (internal/live WriteActions: Cloud Control's update, delete and status
// calls, and the SDK writers' and deleters'): the revert role's only
// permissions. The committed copy testdata/iam/member-revert-role.json is
// held equal to the synthesized role here and to WriteActions in the root
// module, so the list cannot drift from the writers.
func revertActions() []string {
	return []string{
		"cloudformation:DeleteResource", "cloudformation:GetResource", "cloudformation:GetResourceRequestStatus", "cloudformation:UpdateResource",
		"ec2:ReplaceNetworkAclEntry",
		"elasticloadbalancing:ModifyListenerAttributes", "elasticloadbalancing:ModifyLoadBalancerAttributes", "elasticloadbalancing:ModifyTargetGroupAttributes",
		"iam:AttachGroupPolicy", "iam:AttachRolePolicy", "iam:AttachUserPolicy",
		"iam:CreatePolicyVersion", "iam:DeleteGroupPolicy", "iam:DeletePolicyVersion", "iam:DeleteRolePolicy", "iam:DeleteUserPolicy",
		"iam:DetachGroupPolicy", "iam:DetachRolePolicy", "iam:DetachUserPolicy",
		"iam:GetRolePolicy", "iam:ListAttachedGroupPolicies", "iam:ListAttachedRolePolicies", "iam:ListAttachedUserPolicies",
		"iam:ListPolicyVersions", "iam:ListRolePolicies", "iam:PutGroupPolicy", "iam:PutRolePolicy", "iam:PutUserPolicy",
		"lambda:AddPermission", "lambda:RemovePermission",
		"route53:ChangeResourceRecordSets", "route53:GetChange",
		"s3:DeleteBucketPolicy", "s3:PutBucketPolicy",
		"sns:SetTopicAttributes",
		"sqs:SetQueueAttributes",
	}
}

// revertSelfDenials are the writes the revert role may never make to
// realdrift's own roles, whatever a revert plan asks: directly or through
// Cloud Control's IAM handlers (the deny has no condition), and never
// passing them to a resource.
func revertSelfDenials() []string {
	return []string{
		"iam:PutRolePolicy", "iam:DeleteRolePolicy", "iam:AttachRolePolicy", "iam:DetachRolePolicy",
		"iam:UpdateAssumeRolePolicy", "iam:PutRolePermissionsBoundary", "iam:DeleteRolePermissionsBoundary",
		"iam:UpdateRole", "iam:DeleteRole", "iam:PassRole",
	}
}

// readerActions are the IAM actions realdrift's readers, supplements and
// enumerators call through their own service APIs (internal/live
// ReadActions, less Cloud Control's and CloudFormation's, granted above
// them): granted explicitly, so no read depends on what an AWS managed
// policy happens to include. The committed copy
// testdata/iam/member-read-role.json is held equal to the synthesized role
// here, and the service's tests hold it to ReadActions, so a new reader's
// call cannot go ungranted.
func readerActions() []string {
	return []string{
		"acm:DescribeCertificate", "acm:ListTagsForCertificate",
		"application-autoscaling:DescribeScalingPolicies",
		"appsync:ListApiKeys",
		"autoscaling:DescribeLifecycleHooks", "autoscaling:DescribeScheduledActions",
		"budgets:ViewBudget",
		"cloudwatch:DescribeAnomalyDetectors",
		"codebuild:BatchGetProjects", "codebuild:BatchGetReportGroups",
		"codedeploy:ListDeploymentGroups",
		"cognito-identity:DescribeIdentityPool",
		"cognito-idp:ListGroups", "cognito-idp:ListUserPoolClients",
		"config:DescribeConfigurationRecorders", "config:DescribeDeliveryChannels",
		"dax:DescribeClusters", "dax:DescribeParameterGroups", "dax:DescribeParameters", "dax:DescribeSubnetGroups", "dax:ListTags",
		"dlm:GetLifecyclePolicy",
		"dms:DescribeEndpoints", "dms:DescribeReplicationInstances", "dms:DescribeReplicationSubnetGroups", "dms:DescribeReplicationTasks", "dms:ListTagsForResource",
		"ec2:DescribeAddresses", "ec2:DescribeClientVpnAuthorizationRules", "ec2:DescribeClientVpnEndpoints", "ec2:DescribeClientVpnTargetNetworks", "ec2:DescribeLaunchTemplateVersions", "ec2:DescribeNetworkAcls", "ec2:DescribeRouteTables", "ec2:DescribeSecurityGroups", "ec2:DescribeSubnets", "ec2:DescribeTransitGatewayRouteTables", "ec2:DescribeTransitGatewayVpcAttachments",
		"ecs:DescribeServices", "ecs:ListServices",
		"elasticache:DescribeCacheClusters", "elasticache:DescribeCacheParameterGroups", "elasticache:DescribeCacheParameters", "elasticache:DescribeReplicationGroups", "elasticache:DescribeUsers", "elasticache:ListTagsForResource",
		"elasticbeanstalk:DescribeConfigurationSettings",
		"elasticloadbalancing:DescribeListenerCertificates", "elasticloadbalancing:GetTrustStoreCaCertificatesBundle",
		"events:ListRules",
		"glue:GetClassifier", "glue:GetConnection", "glue:GetSecurityConfiguration", "glue:GetTable", "glue:GetTables", "glue:GetTags", "glue:GetWorkflow",
		"iam:GetGroupPolicy", "iam:GetPolicy", "iam:GetPolicyVersion", "iam:GetRolePolicy", "iam:GetUserPolicy", "iam:ListAccessKeys", "iam:ListEntitiesForPolicy",
		"kafka:DescribeConfiguration", "kafka:DescribeConfigurationRevision",
		"kms:ListAliases",
		"lakeformation:DescribeResource",
		"lex:DescribeBotLocale", "lex:DescribeIntent", "lex:DescribeSlot", "lex:DescribeSlotType", "lex:ListBotLocales", "lex:ListIntents", "lex:ListSlotTypes", "lex:ListSlots",
		"lambda:GetFunctionConfiguration", "lambda:GetPolicy", "lambda:ListAliases", "lambda:ListEventSourceMappings", "lambda:ListFunctionUrlConfigs", "lambda:ListVersionsByFunction",
		"logs:DescribeMetricFilters", "logs:DescribeSubscriptionFilters",
		"mediaconvert:GetJobTemplate", "mediaconvert:GetQueue", "mediaconvert:ListTagsForResource",
		"memorydb:DescribeParameters", "memorydb:DescribeUsers",
		"rds:DescribeDBClusters", "rds:DescribeDBInstances", "rds:ListTagsForResource",
		"redshift-serverless:GetWorkgroup",
		"route53:ListHostedZonesByName", "route53:ListResourceRecordSets",
		"s3:GetBucketPolicy",
		"sagemaker:DescribeEndpointConfig", "sagemaker:DescribeMonitoringSchedule", "sagemaker:ListTags",
		"scheduler:GetSchedule",
		"secretsmanager:GetResourcePolicy",
		"servicediscovery:GetNamespace", "servicediscovery:GetService", "servicediscovery:ListTagsForResource",
		"ses:DescribeConfigurationSet", "ses:DescribeReceiptRule", "ses:DescribeReceiptRuleSet", "ses:ListReceiptFilters",
		"sns:GetTopicAttributes", "sns:ListSubscriptionsByTopic",
		"sqs:GetQueueAttributes",
		"ssm:DescribeMaintenanceWindowTargets", "ssm:DescribeMaintenanceWindowTasks", "ssm:DescribeParameters",
	}
}

// dataReadDenials are reads of data (not configuration) the read role must
// never perform, whatever a managed policy grants.
func dataReadDenials() []string {
	return []string{
		"s3:GetObject", "s3:GetObjectVersion",
		"dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query", "dynamodb:Scan",
		"secretsmanager:GetSecretValue",
		"ssm:GetParameter", "ssm:GetParameters", "ssm:GetParametersByPath",
		"kms:Decrypt",
		"sqs:ReceiveMessage",
		"logs:GetLogEvents", "logs:FilterLogEvents",
	}
}

// NewMember defines the member-account stack: the read role (created in one
// region only, since IAM is global) and the rule forwarding CloudTrail
// changes to the central bus (in every region).
//
// revertTypes are the types whose Cloud Control writes the opt-in revert
// role is granted (Config.revertTypes); a type the role cannot be granted
// is an error.
func NewMember(scope constructs.Construct, id string, revertTypes []string) (awscdk.Stack, error) {
	stack := awscdk.NewStack(scope, jsii.String(id), &awscdk.StackProps{
		Synthesizer: awscdk.NewBootstraplessSynthesizer(&awscdk.BootstraplessSynthesizerProps{}),
		Description: jsii.String("realdrift member account: read-only role for the central sweep, CloudTrail change forwarding."),
	})
	central := awscdk.NewCfnParameter(stack, jsii.String("CentralAccountId"), &awscdk.CfnParameterProps{
		Type: jsii.String("String"), AllowedPattern: jsii.String(`^[0-9]{12}$`),
		Description: jsii.String("The account running the realdrift service."),
	})
	busArn := awscdk.NewCfnParameter(stack, jsii.String("CentralEventBusArn"), &awscdk.CfnParameterProps{
		Type: jsii.String("String"), Description: jsii.String("The realdrift event bus in the central account."),
	})
	orgID := awscdk.NewCfnParameter(stack, jsii.String("OrganizationId"), &awscdk.CfnParameterProps{
		Type: jsii.String("String"), AllowedPattern: jsii.String(`^o-[a-z0-9]{10,32}$`),
	})
	roleRegion := awscdk.NewCfnParameter(stack, jsii.String("RoleRegion"), &awscdk.CfnParameterProps{
		Type: jsii.String("String"), Description: jsii.String("The one region whose stack instance creates the (global) read role."),
	})
	inRoleRegion := awscdk.NewCfnCondition(stack, jsii.String("InRoleRegion"), &awscdk.CfnConditionProps{
		Expression: awscdk.Fn_ConditionEquals(awscdk.Aws_REGION(), roleRegion.ValueAsString()),
	})
	enableRevert := awscdk.NewCfnParameter(stack, jsii.String(EnableRevertParameter), &awscdk.CfnParameterProps{
		Type: jsii.String("String"), AllowedValues: jsii.Strings("true", "false"), Default: jsii.String("false"),
		Description: jsii.String("Create the opt-in revert role: the only role realdrift writes with (revert executions). Off by default."),
	})
	revertEnabled := awscdk.NewCfnCondition(stack, jsii.String(RevertEnabledCondition), &awscdk.CfnConditionProps{
		Expression: awscdk.Fn_ConditionAnd(inRoleRegion, awscdk.Fn_ConditionEquals(enableRevert.ValueAsString(), jsii.String("true"))),
	})
	via := newCalledVia(stack)

	var trusted []*string
	for _, name := range readerRoleNames() {
		trusted = append(trusted, jsii.String(fmt.Sprintf("arn:%s:iam::%s:role/%s", *awscdk.Aws_PARTITION(), *central.ValueAsString(), name)))
	}
	role := awsiam.NewRole(stack, jsii.String("ReadRole"), &awsiam.RoleProps{
		RoleName: jsii.String(ReadRoleName),
		AssumedBy: awsiam.NewAccountPrincipal(central.ValueAsString()).WithConditions(&map[string]any{
			"StringEquals": map[string]any{"aws:PrincipalOrgID": orgID.ValueAsString()},
			"ArnEquals":    map[string]any{"aws:PrincipalArn": trusted},
		}),
		Description:        jsii.String("realdrift reads stacks and their resources; read-only."),
		MaxSessionDuration: awscdk.Duration_Hours(jsii.Number(1)),
		ManagedPolicies: &[]awsiam.IManagedPolicy{
			awsiam.ManagedPolicy_FromAwsManagedPolicyName(jsii.String("SecurityAudit")),
		},
		InlinePolicies: &map[string]awsiam.PolicyDocument{
			"read": awsiam.NewPolicyDocument(&awsiam.PolicyDocumentProps{Statements: &[]awsiam.PolicyStatement{
				awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
					Sid: jsii.String("ReadStacks"),
					Actions: jsii.Strings(
						"cloudformation:DescribeStacks", "cloudformation:DescribeStackResources",
						"cloudformation:ListStacks", "cloudformation:ListStackResources",
						"cloudformation:GetTemplate", "cloudformation:GetTemplateSummary",
						"cloudformation:DescribeType", "cloudformation:ListExports",
					),
					Resources: jsii.Strings("*"),
				}),
				// Cloud Control's IAM actions are CloudFormation's
				// (cloudcontrol:* names no action).
				awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
					Sid:       jsii.String("ReadResources"),
					Actions:   jsii.Strings("cloudformation:GetResource", "cloudformation:ListResources"),
					Resources: jsii.Strings("*"),
				}),
				awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
					Sid:       jsii.String("ReadConfiguration"),
					Actions:   jsii.Strings(readerActions()...),
					Resources: jsii.Strings("*"),
				}),
				awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
					Sid:       jsii.String("ReadTags"),
					Actions:   jsii.Strings("tag:GetResources"),
					Resources: jsii.Strings("*"),
				}),
				// Who changed a drifted resource, when the trigger saw no
				// event for it: CloudTrail's event history, read only
				// (LookupEvents has no resource-level permissions).
				awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
					Sid:       jsii.String("LookUpWriters"),
					Actions:   jsii.Strings("cloudtrail:LookupEvents"),
					Resources: jsii.Strings("*"),
				}),
				// Only the role's own calls: Cloud Control runs a type's
				// handler with the caller's credentials (forward access
				// sessions, aws:ViaAWSService true), and the handlers of 59
				// types list one of these (an API's S3 body, a state
				// machine's KMS key, a secret's value) for a read that
				// returns configuration only. Denied outright, reading
				// them through Cloud Control fails.
				awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
					Sid:        jsii.String("NeverReadData"),
					Effect:     awsiam.Effect_DENY,
					Actions:    jsii.Strings(dataReadDenials()...),
					Resources:  jsii.Strings("*"),
					Conditions: &map[string]any{"BoolIfExists": map[string]any{"aws:ViaAWSService": "false"}},
				}),
			}}),
		},
	})
	role.Node().DefaultChild().(awscdk.CfnResource).CfnOptions().SetCondition(inRoleRegion)
	// Cloud Control reads with the read role's credentials too: the read
	// and list handlers' read permissions of the common types, beside
	// SecurityAudit (one of the role's managed policies).
	readTypes := readHandlerTypes(revertTypes)
	readGrants, err := readHandlerActions(readTypes)
	if err != nil {
		return nil, err
	}
	if err := attachServicePolicies(stack, role, "ReadHandlers", "realdrift read", readGrants, len(readTypes), maxRoleManagedPolicies-1, inRoleRegion, nil); err != nil {
		return nil, err
	}
	revertRole := newRevertRole(stack, central.ValueAsString(), orgID.ValueAsString(), revertEnabled)
	if err := attachHandlerPolicies(stack, revertRole, revertTypes, revertEnabled, via); err != nil {
		return nil, err
	}
	newFindingsRole(stack, central.ValueAsString(), orgID.ValueAsString(), inRoleRegion)

	bus := awsevents.EventBus_FromEventBusArn(stack, jsii.String("CentralBus"), busArn.ValueAsString())
	forwardRole := awsiam.NewRole(stack, jsii.String("ForwardRole"), &awsiam.RoleProps{
		AssumedBy:   awsiam.NewServicePrincipal(jsii.String("events.amazonaws.com"), nil),
		Description: jsii.String("Forwards CloudTrail change events to the realdrift bus."),
	})
	awsevents.NewRule(stack, jsii.String("ForwardChanges"), &awsevents.RuleProps{
		Description:  jsii.String("Forward CloudTrail management events that change resources to the realdrift central bus."),
		EventPattern: cloudTrailChange(regionalSources),
		// EventBridge retries delivery to another account's bus with its
		// default policy (24 hours; bus targets take no RetryPolicy), then
		// leaves the event here. The member account has no key of ours: the
		// queue uses SQS-managed encryption.
		Targets: &[]awsevents.IRuleTarget{awseventstargets.NewEventBus(bus, &awseventstargets.EventBusProps{
			Role:            forwardRole,
			DeadLetterQueue: newDeadLetters(stack, "ForwardDeadLetters", nil),
		})},
	})
	return stack, nil
}

// securityHubActions are the calls the notify function's Security Hub
// channel makes in a member account through the read role (the root
// module's notify.SecurityHubActions; TestSecurityHubOptIn holds them
// equal to the copy in testdata).
func securityHubActions() []string {
	return []string{"securityhub:BatchImportFindings", "securityhub:GetFindings"}
}

// newFindingsRole creates, only when the StackSet's EnableSecurityHub is
// "true" (and in the one role region: IAM is global), the member role the
// notify function imports realdrift's drift findings with into the
// account's own Security Hub: BatchImportFindings on the account's default
// product (a custom integration's findings) and GetFindings on its hub (to
// archive the findings that resolved), nothing else. It is a role of its
// own so the read role stays read-only; only realdrift-notify may assume it.
func newFindingsRole(stack awscdk.Stack, central, orgID *string, inRoleRegion awscdk.CfnCondition) {
	enable := awscdk.NewCfnParameter(stack, jsii.String(EnableSecurityHubParameter), &awscdk.CfnParameterProps{
		Type: jsii.String("String"), AllowedValues: jsii.Strings("true", "false"), Default: jsii.String("false"),
		Description: jsii.String("Create the role realdrift imports its drift findings into this account's Security Hub with (BatchImportFindings on the default product, GetFindings). Off by default."),
	})
	enabled := awscdk.NewCfnCondition(stack, jsii.String(SecurityHubEnabledCondition), &awscdk.CfnConditionProps{
		Expression: awscdk.Fn_ConditionAnd(inRoleRegion, awscdk.Fn_ConditionEquals(enable.ValueAsString(), jsii.String("true"))),
	})
	acct, part := *awscdk.Aws_ACCOUNT_ID(), *awscdk.Aws_PARTITION()
	acts := securityHubActions()
	role := awsiam.NewRole(stack, jsii.String("FindingsRole"), &awsiam.RoleProps{
		RoleName: jsii.String(FindingsRoleName),
		AssumedBy: awsiam.NewAccountPrincipal(central).WithConditions(&map[string]any{
			"StringEquals": map[string]any{"aws:PrincipalOrgID": orgID},
			"ArnEquals":    map[string]any{"aws:PrincipalArn": fmt.Sprintf("arn:%s:iam::%s:role/realdrift-notify", part, *central)},
		}),
		Description:        jsii.String("realdrift imports its drift findings into this account's Security Hub; nothing else."),
		MaxSessionDuration: awscdk.Duration_Hours(jsii.Number(1)),
		InlinePolicies: &map[string]awsiam.PolicyDocument{
			"findings": awsiam.NewPolicyDocument(&awsiam.PolicyDocumentProps{Statements: &[]awsiam.PolicyStatement{
				awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
					Sid: jsii.String("ImportDriftFindings"), Actions: jsii.Strings(acts[0]),
					Resources: jsii.Strings(fmt.Sprintf("arn:%s:securityhub:*:%s:product/%s/default", part, acct, acct)),
				}),
				awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
					Sid: jsii.String("FindDriftFindings"), Actions: jsii.Strings(acts[1]),
					Resources: jsii.Strings(fmt.Sprintf("arn:%s:securityhub:*:%s:hub/default", part, acct)),
				}),
			}}),
		},
	})
	role.Node().DefaultChild().(awscdk.CfnResource).CfnOptions().SetCondition(enabled)
}

// The Security Hub switch (the member template's and the central stack's
// parameter, the member condition) and the member role it creates.
const (
	EnableSecurityHubParameter  = "EnableSecurityHub"
	SecurityHubEnabledCondition = "SecurityHubEnabled"
	FindingsRoleName            = "realdrift-findings"
)

// Names of the revert switch.
const (
	// EnableRevertParameter is the member template's and the central
	// stack's parameter ("true" | "false", default "false").
	EnableRevertParameter = "EnableRevert"
	// RevertEnabledCondition is the condition of what it switches on.
	RevertEnabledCondition = "RevertEnabled"
)

// Names of the revert role's handler narrowing.
const (
	// HandlerCalledViaParameter is the member template's and the central
	// stack's parameter: an aws:CalledVia value, default "".
	HandlerCalledViaParameter = "HandlerCalledVia"
	// HandlersNarrowedCondition holds when it is set.
	HandlersNarrowedCondition = "HandlersNarrowed"
)

// calledVia narrows the revert role's handler grants to the calls one
// service makes for the role: value is HandlerCalledVia's, under cond
// (HandlersNarrowed).
type calledVia struct {
	value *string
	cond  awscdk.CfnCondition
}

// newHandlerCalledVia declares the HandlerCalledVia parameter, described
// as desc, and returns its value.
func newHandlerCalledVia(stack awscdk.Stack, desc string) *string {
	return awscdk.NewCfnParameter(stack, jsii.String(HandlerCalledViaParameter), &awscdk.CfnParameterProps{
		Type: jsii.String("String"), Default: jsii.String(""), AllowedPattern: jsii.String(`^$|^([a-z0-9-]+\.)+amazonaws\.com$`),
		Description: jsii.String(desc),
	}).ValueAsString()
}

// newCalledVia is the member template's narrowing: HandlerCalledVia under
// its HandlersNarrowed condition.
func newCalledVia(stack awscdk.Stack) calledVia {
	value := newHandlerCalledVia(stack, "The aws:CalledVia value the calls of Cloud Control's handlers carry, as scripts/aws-acceptance.sh confirms it in an account: the revert role's handler grants then hold for those calls only. Empty (the default): for any AWS service acting for the role (aws:ViaAWSService).")
	cond := awscdk.NewCfnCondition(stack, jsii.String(HandlersNarrowedCondition), &awscdk.CfnConditionProps{
		Expression: awscdk.Fn_ConditionNot(awscdk.Fn_ConditionEquals(value, jsii.String(""))),
	})
	return calledVia{value: value, cond: cond}
}

// newRevertRole defines the opt-in revert role: assumable only by the
// central reverter functions, allowed exactly the writers' actions, and
// never its own or the read role's policies. It exists only under cond.
func newRevertRole(stack awscdk.Stack, central, orgID *string, cond awscdk.CfnCondition) awsiam.Role {
	var trusted []*string
	for _, name := range reverterRoleNames() {
		trusted = append(trusted, jsii.String(fmt.Sprintf("arn:%s:iam::%s:role/%s", *awscdk.Aws_PARTITION(), *central, name)))
	}
	own := jsii.String(fmt.Sprintf("arn:%s:iam::%s:role/realdrift-*", *awscdk.Aws_PARTITION(), *awscdk.Aws_ACCOUNT_ID()))
	role := awsiam.NewRole(stack, jsii.String("RevertRole"), &awsiam.RoleProps{
		RoleName: jsii.String(RevertRoleName),
		AssumedBy: awsiam.NewAccountPrincipal(central).WithConditions(&map[string]any{
			"StringEquals": map[string]any{"aws:PrincipalOrgID": orgID},
			"ArnEquals":    map[string]any{"aws:PrincipalArn": trusted},
		}),
		Description:        jsii.String("realdrift writes drift back (approved revert executions only): exactly the writers' actions."),
		MaxSessionDuration: awscdk.Duration_Hours(jsii.Number(1)),
		InlinePolicies: &map[string]awsiam.PolicyDocument{
			"revert": awsiam.NewPolicyDocument(&awsiam.PolicyDocumentProps{Statements: &[]awsiam.PolicyStatement{
				// The writers write the resources of any stack a revert plan
				// names; Cloud Control's calls take no resource ARN.
				awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
					Sid:       jsii.String("RevertWrites"),
					Actions:   jsii.Strings(revertActions()...),
					Resources: jsii.Strings("*"),
				}),
				awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
					Sid:       jsii.String("NeverWriteRealdriftRoles"),
					Effect:    awsiam.Effect_DENY,
					Actions:   jsii.Strings(revertSelfDenials()...),
					Resources: &[]*string{own},
				}),
			}}),
		},
	})
	role.Node().DefaultChild().(awscdk.CfnResource).CfnOptions().SetCondition(cond)
	return role
}

// memberTemplate synthesizes the member stack in an app of its own and
// returns its template as JSON, the StackSet's TemplateBody.
func memberTemplate(revertTypes []string) (string, error) {
	dir, err := os.MkdirTemp("", "realdrift-member-")
	if err != nil {
		return "", fmt.Errorf("member template: %w", err)
	}
	defer os.RemoveAll(dir)
	app := awscdk.NewApp(&awscdk.AppProps{Outdir: jsii.String(dir), AnalyticsReporting: jsii.Bool(false)})
	if _, err := NewMember(app, MemberStackName, revertTypes); err != nil {
		return "", fmt.Errorf("member template: %w", err)
	}
	tpl := app.Synth(nil).GetStackByName(jsii.String(MemberStackName)).Template()
	b, err := json.Marshal(tpl)
	if err != nil {
		return "", fmt.Errorf("member template: %w", err)
	}
	return string(b), nil
}
