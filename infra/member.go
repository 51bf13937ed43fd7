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
func NewMember(scope constructs.Construct, id string) awscdk.Stack {
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
					Sid:       jsii.String("ReadTags"),
					Actions:   jsii.Strings("tag:GetResources"),
					Resources: jsii.Strings("*"),
				}),
				awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
					Sid:       jsii.String("NeverReadData"),
					Effect:    awsiam.Effect_DENY,
					Actions:   jsii.Strings(dataReadDenials()...),
					Resources: jsii.Strings("*"),
				}),
			}}),
		},
	})
	role.Node().DefaultChild().(awscdk.CfnResource).CfnOptions().SetCondition(inRoleRegion)

	bus := awsevents.EventBus_FromEventBusArn(stack, jsii.String("CentralBus"), busArn.ValueAsString())
	forwardRole := awsiam.NewRole(stack, jsii.String("ForwardRole"), &awsiam.RoleProps{
		AssumedBy:   awsiam.NewServicePrincipal(jsii.String("events.amazonaws.com"), nil),
		Description: jsii.String("Forwards CloudTrail change events to the realdrift bus."),
	})
	awsevents.NewRule(stack, jsii.String("ForwardChanges"), &awsevents.RuleProps{
		Description:  jsii.String("Forward CloudTrail management events that change resources to the realdrift central bus."),
		EventPattern: cloudTrailChange(),
		// EventBridge retries delivery to another account's bus with its
		// default policy (24 hours; bus targets take no RetryPolicy), then
		// leaves the event here. The member account has no key of ours: the
		// queue uses SQS-managed encryption.
		Targets: &[]awsevents.IRuleTarget{awseventstargets.NewEventBus(bus, &awseventstargets.EventBusProps{
			Role:            forwardRole,
			DeadLetterQueue: newDeadLetters(stack, "ForwardDeadLetters", nil),
		})},
	})
	return stack
}

// memberTemplate synthesizes the member stack in an app of its own and
// returns its template as JSON, the StackSet's TemplateBody.
func memberTemplate() (string, error) {
	dir, err := os.MkdirTemp("", "realdrift-member-")
	if err != nil {
		return "", fmt.Errorf("member template: %w", err)
	}
	defer os.RemoveAll(dir)
	app := awscdk.NewApp(&awscdk.AppProps{Outdir: jsii.String(dir), AnalyticsReporting: jsii.Bool(false)})
	NewMember(app, MemberStackName)
	tpl := app.Synth(nil).GetStackByName(jsii.String(MemberStackName)).Template()
	b, err := json.Marshal(tpl)
	if err != nil {
		return "", fmt.Errorf("member template: %w", err)
	}
	return string(b), nil
}
