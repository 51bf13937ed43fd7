package worldgen

import (
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	lowerAlnum = "abcdefghijklmnopqrstuvwxyz0123456789"
	upperAlnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	hexChars   = "0123456789abcdef"
)

// Export names the data stack publishes and the service stack imports.
const (
	exportTableName = "OrdersData:ExportsOutputRefOrdersTable"
	exportTableArn  = "OrdersData:ExportsOutputFnGetAttOrdersTableArn"
)

// dataStack is the orders application's data stack: a DynamoDB table and
// an assets bucket with a TLS-only bucket policy.
func (g *demoGen) dataStack(account, region string) (*sandbox.Stack, map[string]string, error) {
	b := g.newStack(account, region, "OrdersData")

	table := logicalID("OrdersData/OrdersTable/Resource")
	tableName := b.cfnName(table, 255)
	tableArn := "arn:aws:dynamodb:" + region + ":" + account + ":table/" + tableName
	b.add(&demoRes{
		logical: table, typ: "AWS::DynamoDB::Table", path: "OrdersData/OrdersTable/Resource", physical: tableName,
		attrs:    obj{"Arn": tableArn},
		identity: obj{"TableName": tableName, "Arn": tableArn},
		props: obj{
			"KeySchema":                        list(obj{"AttributeName": "pk", "KeyType": "HASH"}, obj{"AttributeName": "sk", "KeyType": "RANGE"}),
			"AttributeDefinitions":             list(obj{"AttributeName": "pk", "AttributeType": "S"}, obj{"AttributeName": "sk", "AttributeType": "S"}),
			"BillingMode":                      "PAY_PER_REQUEST",
			"PointInTimeRecoverySpecification": obj{"PointInTimeRecoveryEnabled": true},
		},
		extra: obj{"UpdateReplacePolicy": "Retain", "DeletionPolicy": "Retain"},
	})

	bucket := logicalID("OrdersData/AssetsBucket/Resource")
	bucketName := strings.ToLower(b.cfnName(bucket, 63))
	bucketArn := "arn:aws:s3:::" + bucketName
	b.add(&demoRes{
		logical: bucket, typ: "AWS::S3::Bucket", path: "OrdersData/AssetsBucket/Resource", physical: bucketName,
		attrs: obj{"Arn": bucketArn, "DomainName": bucketName + ".s3.amazonaws.com"},
		identity: obj{
			"BucketName": bucketName, "Arn": bucketArn,
			"DomainName":          bucketName + ".s3.amazonaws.com",
			"RegionalDomainName":  bucketName + ".s3." + region + ".amazonaws.com",
			"DualStackDomainName": bucketName + ".s3.dualstack." + region + ".amazonaws.com",
			"WebsiteURL":          "http://" + bucketName + ".s3-website-" + region + ".amazonaws.com",
		},
		props: obj{
			"PublicAccessBlockConfiguration": obj{"BlockPublicAcls": true, "BlockPublicPolicy": true, "IgnorePublicAcls": true, "RestrictPublicBuckets": true},
			"VersioningConfiguration":        obj{"Status": "Enabled"},
			"Tags":                           list(obj{"Key": "app", "Value": "orders"}),
		},
		extra: obj{"UpdateReplacePolicy": "Retain", "DeletionPolicy": "Retain"},
	})

	policy := logicalID("OrdersData/AssetsBucket/Policy/Resource")
	b.add(&demoRes{
		logical: policy, typ: "AWS::S3::BucketPolicy", path: "OrdersData/AssetsBucket/Policy/Resource", physical: bucketName,
		props: obj{
			"Bucket": ref(bucket),
			"PolicyDocument": obj{"Version": "2012-10-17", "Statement": list(obj{
				"Action":    "s3:*",
				"Condition": obj{"Bool": obj{"aws:SecureTransport": "false"}},
				"Effect":    "Deny",
				"Principal": obj{"AWS": "*"},
				"Resource":  list(getAtt(bucket, "Arn"), join("", getAtt(bucket, "Arn"), "/*")),
			})},
		},
	})

	if err := b.export("ExportsOutputRefOrdersTable", exportTableName, ref(table)); err != nil {
		return nil, nil, err
	}
	if err := b.export("ExportsOutputFnGetAttOrdersTableArn", exportTableArn, getAtt(table, "Arn")); err != nil {
		return nil, nil, err
	}
	if err := b.export("AssetsBucketName", "", ref(bucket)); err != nil {
		return nil, nil, err
	}
	st, err := b.build("Orders application: data (table and assets bucket)")
	if err != nil {
		return nil, nil, err
	}
	exports := map[string]string{}
	for _, o := range st.Outputs {
		if o.ExportName != "" {
			exports[o.ExportName] = o.Value
		}
	}
	return st, exports, nil
}

// lambdaTrust is the trust policy of a Lambda execution role.
func lambdaTrust() obj {
	return obj{"Version": "2012-10-17", "Statement": list(obj{
		"Action": "sts:AssumeRole", "Effect": "Allow", "Principal": obj{"Service": "lambda.amazonaws.com"},
	})}
}

// role adds a Lambda service role and its default policy.
func (b *stackBuilder) role(fn string, statements []any) (roleLogical, policyLogical string) {
	e := b.env
	path := b.name + "/" + fn + "/ServiceRole/Resource"
	roleLogical = logicalID(path)
	name := b.cfnName(roleLogical, 64)
	arn := "arn:aws:iam::" + e.account + ":role/" + name
	roleID := "AROA" + suffix(arn, 17, upperAlnum)
	b.add(&demoRes{
		logical: roleLogical, typ: "AWS::IAM::Role", path: path, physical: name,
		attrs:    obj{"Arn": arn, "RoleId": roleID},
		identity: obj{"RoleName": name, "Arn": arn, "RoleId": roleID},
		props: obj{
			"AssumeRolePolicyDocument": lambdaTrust(),
			"ManagedPolicyArns":        list(join("", "arn:", ref("AWS::Partition"), ":iam::aws:policy/service-role/AWSLambdaBasicExecutionRole")),
		},
	})
	ppath := b.name + "/" + fn + "/ServiceRole/DefaultPolicy/Resource"
	policyLogical = logicalID(ppath)
	b.add(&demoRes{
		logical: policyLogical, typ: "AWS::IAM::Policy", path: ppath,
		physical: truncate(b.name, 5) + "-" + truncate(fn, 5) + "-" + suffix(e.stackID+"/"+policyLogical, 12, alnum),
		props: obj{
			"PolicyDocument": obj{"Version": "2012-10-17", "Statement": statements},
			"PolicyName":     policyLogical,
			"Roles":          list(ref(roleLogical)),
		},
	})
	return roleLogical, policyLogical
}

// function adds a Lambda function.
func (b *stackBuilder) function(fn string, roleLogical, policyLogical string, timeout float64, env obj) string {
	e := b.env
	path := b.name + "/" + fn + "/Resource"
	logical := logicalID(path)
	name := b.cfnName(logical, 64)
	arn := "arn:aws:lambda:" + e.region + ":" + e.account + ":function:" + name
	b.add(&demoRes{
		logical: logical, typ: "AWS::Lambda::Function", path: path, physical: name,
		attrs:    obj{"Arn": arn},
		identity: obj{"FunctionName": name, "Arn": arn},
		props: obj{
			"Code": obj{
				"S3Bucket": sub("cdk-hnb659fds-assets-${AWS::AccountId}-${AWS::Region}"),
				"S3Key":    suffix(path, 64, hexChars) + ".zip",
			},
			"Role":          getAtt(roleLogical, "Arn"),
			"Architectures": list("arm64"),
			"Environment":   obj{"Variables": env},
			"Handler":       "bootstrap",
			"MemorySize":    256.0,
			"Runtime":       "provided.al2023",
			"Timeout":       timeout,
		},
		extra: obj{"DependsOn": list(policyLogical, roleLogical)},
	})
	return logical
}

// serviceStack is the orders application's service stack: an API in front
// of a handler function, a topic fanning out to a queue with a dead-letter
// queue, and a worker function draining the queue.
func (g *demoGen) serviceStack(account, region string, exports map[string]string) (*sandbox.Stack, error) {
	b := g.newStack(account, region, "OrdersService")
	e := b.env
	e.exports = exports

	queue := func(id string, props obj) (string, string) {
		path := "OrdersService/" + id + "/Resource"
		logical := logicalID(path)
		name := b.cfnName(logical, 80)
		url := "https://sqs." + region + ".amazonaws.com/" + account + "/" + name
		arn := "arn:aws:sqs:" + region + ":" + account + ":" + name
		b.add(&demoRes{
			logical: logical, typ: "AWS::SQS::Queue", path: path, physical: url,
			attrs:    obj{"Arn": arn, "QueueName": name, "QueueUrl": url},
			identity: obj{"QueueName": name, "QueueUrl": url, "Arn": arn},
			props:    props,
			extra:    obj{"UpdateReplacePolicy": "Delete", "DeletionPolicy": "Delete"},
		})
		return logical, arn
	}
	dlq, _ := queue("OrdersDlq", obj{"MessageRetentionPeriod": 1209600.0})
	q, _ := queue("OrdersQueue", obj{
		"VisibilityTimeout": 180.0,
		"RedrivePolicy":     obj{"deadLetterTargetArn": getAtt(dlq, "Arn"), "maxReceiveCount": 5.0},
	})

	topic := logicalID("OrdersService/OrdersTopic/Resource")
	topicName := b.cfnName(topic, 256)
	topicArn := "arn:aws:sns:" + region + ":" + account + ":" + topicName
	b.add(&demoRes{
		logical: topic, typ: "AWS::SNS::Topic", path: "OrdersService/OrdersTopic/Resource", physical: topicArn,
		attrs:    obj{"TopicArn": topicArn, "TopicName": topicName},
		identity: obj{"TopicName": topicName, "TopicArn": topicArn},
		props:    obj{"DisplayName": "Order events"},
	})

	qpPath := "OrdersService/OrdersQueue/Policy/Resource"
	qp := logicalID(qpPath)
	b.add(&demoRes{
		logical: qp, typ: "AWS::SQS::QueuePolicy", path: qpPath, physical: b.cfnName(qp, 128),
		props: obj{
			"Queues": list(ref(q)),
			"PolicyDocument": obj{"Version": "2012-10-17", "Statement": list(obj{
				"Action":    "sqs:SendMessage",
				"Condition": obj{"ArnEquals": obj{"aws:SourceArn": ref(topic)}},
				"Effect":    "Allow",
				"Principal": obj{"Service": "sns.amazonaws.com"},
				"Resource":  getAtt(q, "Arn"),
			})},
		},
	})

	subPath := "OrdersService/OrdersQueue/OrdersServiceOrdersTopic/Resource"
	subLogical := logicalID(subPath)
	subArn := topicArn + ":" + uuidOf(e.stackID+"/"+subLogical)
	b.add(&demoRes{
		logical: subLogical, typ: "AWS::SNS::Subscription", path: subPath, physical: subArn,
		identity: obj{"Arn": subArn},
		props:    obj{"Protocol": "sqs", "TopicArn": ref(topic), "Endpoint": getAtt(q, "Arn")},
		extra:    obj{"DependsOn": list(qp)},
	})

	hRole, hPolicy := b.role("Handler", list(
		obj{"Action": list("dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query"), "Effect": "Allow", "Resource": list(importValue(exportTableArn))},
		obj{"Action": "sns:Publish", "Effect": "Allow", "Resource": ref(topic)},
	))
	handler := b.function("Handler", hRole, hPolicy, 10, obj{"TABLE_NAME": importValue(exportTableName), "TOPIC_ARN": ref(topic)})

	wRole, wPolicy := b.role("Worker", list(
		obj{"Action": list("sqs:ReceiveMessage", "sqs:ChangeMessageVisibility", "sqs:GetQueueUrl", "sqs:DeleteMessage", "sqs:GetQueueAttributes"), "Effect": "Allow", "Resource": getAtt(q, "Arn")},
		obj{"Action": list("dynamodb:PutItem", "dynamodb:UpdateItem"), "Effect": "Allow", "Resource": list(importValue(exportTableArn))},
	))
	worker := b.function("Worker", wRole, wPolicy, 30, obj{"TABLE_NAME": importValue(exportTableName)})

	esmPath := "OrdersService/Worker/SqsEventSource:OrdersServiceOrdersQueue/Resource"
	esm := logicalID(esmPath)
	esmID := uuidOf(e.stackID + "/" + esm)
	b.add(&demoRes{
		logical: esm, typ: "AWS::Lambda::EventSourceMapping", path: esmPath, physical: esmID,
		identity: obj{"Id": esmID, "FunctionName": e.attrs[worker]["Arn"]},
		props:    obj{"FunctionName": ref(worker), "EventSourceArn": getAtt(q, "Arn"), "BatchSize": 10.0},
	})

	api := logicalID("OrdersService/Api/Resource")
	apiID := suffix(e.stackID+"/"+api, 10, lowerAlnum)
	rootID := suffix(e.stackID+"/"+api+"/root", 10, lowerAlnum)
	b.add(&demoRes{
		logical: api, typ: "AWS::ApiGateway::RestApi", path: "OrdersService/Api/Resource", physical: apiID,
		attrs:    obj{"RootResourceId": rootID, "RestApiId": apiID},
		identity: obj{"RestApiId": apiID, "RootResourceId": rootID},
		props:    obj{"Name": "orders-api"},
	})
	depPath := "OrdersService/Api/Deployment/Resource"
	dep := logicalID(depPath)
	depID := suffix(e.stackID+"/"+dep, 6, lowerAlnum)
	b.add(&demoRes{
		logical: dep, typ: "AWS::ApiGateway::Deployment", path: depPath, physical: depID, ccID: depID + "|" + apiID,
		identity: obj{"DeploymentId": depID},
		props:    obj{"RestApiId": ref(api), "Description": "Automatically created by the RestApi construct"},
	})
	stagePath := "OrdersService/Api/DeploymentStage.prod/Resource"
	stage := logicalID(stagePath)
	b.add(&demoRes{
		logical: stage, typ: "AWS::ApiGateway::Stage", path: stagePath, physical: "prod", ccID: apiID + "|prod",
		props: obj{"RestApiId": ref(api), "DeploymentId": ref(dep), "StageName": "prod"},
	})
	permPath := "OrdersService/Api/Default/ANY/ApiPermission.OrdersServiceApi.ANY"
	perm := logicalID(permPath)
	b.add(&demoRes{
		logical: perm, typ: "AWS::Lambda::Permission", path: permPath, physical: b.cfnName(perm, 100),
		props: obj{
			"Action":       "lambda:InvokeFunction",
			"FunctionName": getAtt(handler, "Arn"),
			"Principal":    "apigateway.amazonaws.com",
			"SourceArn": join("", "arn:", ref("AWS::Partition"), ":execute-api:", ref("AWS::Region"), ":", ref("AWS::AccountId"), ":",
				ref(api), "/", ref(stage), "/*/*"),
		},
	})

	if err := b.export("ApiEndpoint", "", join("", "https://", ref(api), ".execute-api.", ref("AWS::Region"), ".", ref("AWS::URLSuffix"), "/", ref(stage), "/")); err != nil {
		return nil, err
	}
	return b.build("Orders application: service (API, functions, topic and queues)")
}

// uuidOf returns a UUID-shaped id derived from seed.
func uuidOf(seed string) string {
	h := suffix(seed, 32, hexChars)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}
