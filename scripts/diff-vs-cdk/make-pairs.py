#!/usr/bin/env python3
"""Writes the template pairs under testdata/diff-vs-cdk from the committed
CDK templates (testdata/shared/templates), one directory per pair:

  old/   the deployed templates (the stack's, and nested ones beside it)
  app/   a cloud assembly of the next deploy: manifest.json + templates

Each pair is one edit of a real template, named after what it exercises.
Run from the repository root; it rewrites old/ and app/ only (cdk.txt,
realdrift.txt and note.md are written by scripts/diff-vs-cdk.sh and by
the Go test's -update)."""
import copy, json, os, shutil, sys

SRC = 'testdata/shared/templates'
OUT = 'testdata/diff-vs-cdk'


def load(d, f):
    with open(os.path.join(SRC, d, f)) as fh:
        return json.load(fh)


def manifest(d, stack):
    m = load(d, 'manifest.json')
    a = copy.deepcopy(m['artifacts'][stack])
    for k in ('additionalMetadataFile', 'dependencies'):
        a.pop(k, None)
    a['properties'].pop('additionalDependencies', None)
    return {'version': m['version'], 'artifacts': {stack: a}}


def write(path, doc):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as fh:
        json.dump(doc, fh, indent=1, sort_keys=False)
        fh.write('\n')


def pair(name, d, stack, edit, files=None, edit_old=None):
    """files: the template files of the stack (the first is the stack's)."""
    files = files or [stack + '.template.json']
    old = {f: load(d, f) for f in files}
    new = copy.deepcopy(old)
    if edit_old:
        edit_old(old)
        new = copy.deepcopy(old)
    edit(new)
    base = os.path.join(OUT, name)
    for sub in ('old', 'app'):
        shutil.rmtree(os.path.join(base, sub), ignore_errors=True)
    for f, t in old.items():
        if t is not None:
            write(os.path.join(base, 'old', f), t)
    for f, t in new.items():
        if t is not None:
            write(os.path.join(base, 'app', f), t)
    write(os.path.join(base, 'app', 'manifest.json'), manifest(d, stack))
    with open(os.path.join(base, 'stack'), 'w') as fh:
        fh.write(stack + '\n')


API = ('api-lambda', 'ApiLambdaStack')
S3N = ('s3-notifications', 'S3NotificationsStack')
VPC = ('vpc-ecs', 'VpcEcsStack')
PROD = ('cross-stack', 'CrossStackProducer')
CONS = ('cross-stack', 'CrossStackConsumer')


def R(t, stack_file=None):
    return t[stack_file or next(iter(t))]['Resources']


def O(t):
    return next(iter(t.values())).setdefault('Outputs', {})


NEW_QUEUE = {'Type': 'AWS::SQS::Queue', 'Properties': {'VisibilityTimeout': 60},
             'UpdateReplacePolicy': 'Delete', 'DeletionPolicy': 'Delete'}


def env_sibling(t):
    # Class 1: one known change (UPLOADS_BUCKET) beside a variable that now
    # reads a queue this deploy creates.
    r = R(t)
    r['IngestV2Queue'] = copy.deepcopy(NEW_QUEUE)
    v = r['ThumbnailFunctionF21B132B']['Properties']['Environment']['Variables']
    v['THUMBNAIL_PREFIX'] = 'thumbs/'
    v['INGEST_QUEUE_URL'] = {'Ref': 'IngestV2Queue'}


def output_created(t):
    # Class 2: an added output (and export) reading a resource being created.
    r = R(t)
    r['AuditQueue'] = copy.deepcopy(NEW_QUEUE)
    O(t)['AuditQueueUrl'] = {'Value': {'Ref': 'AuditQueue'}, 'Export': {'Name': 'S3N-AuditQueueUrl'}}


def key_schema(t):
    # Class 3: a DynamoDB key schema change replaces the table.
    r = R(t)
    r['OrdersTable315BB997']['Properties']['KeySchema'][0]['AttributeName'] = 'orderId'
    r['OrdersTable315BB997']['Properties']['AttributeDefinitions'][0]['AttributeName'] = 'orderId'


def propagated_may(t):
    # Class 4: an instance whose SecurityGroupIds read a security group the
    # deploy replaces (its GroupDescription is create-only).
    r = R(t)
    r['MetricsSgFBA2070D']['Properties']['GroupDescription'] = 'metrics scrapers (v2)'


def add_instance(t):
    r = R(t)
    r['BastionInstance'] = {'Type': 'AWS::EC2::Instance', 'Properties': {
        'ImageId': 'ami-0123456789abcdef0', 'InstanceType': 't3.micro',
        'SubnetId': {'Ref': 'VpcappSubnet1SubnetAE489B2F'},
        'SecurityGroupIds': [{'Fn::GetAtt': ['MetricsSgFBA2070D', 'GroupId']}]}}


def undecided_output(t):
    # Class 5: the table is replaced (a new TableName), so the outputs and
    # the function variables reading it are known only after the deploy.
    r = R(t)
    r['OrdersTable315BB997']['Properties']['TableName'] = 'orders-v2'


def export_changed(t):
    # Class 5: an export whose value changes (the topic is replaced) while
    # the consumer stack imports it.
    r = R(t)
    r['OrderEventsTopic9AB57471']['Properties']['TopicName'] = 'order-events-v2'


def attributes(t):
    # Class 6: DependsOn, Metadata-only, output Description, CDKMetadata.
    r = R(t)
    r['OrdersApiAccount74B8FE66']['DependsOn'] = ['OrdersApi48294D44', 'OrdersHandlerA8584A8A']
    r['OrdersHandlerLogs45D92EEB'].setdefault('Metadata', {})['owner'] = 'payments-team'
    O(t)['ApiUrl']['Description'] = 'The orders API base URL (prod stage)'
    r['CDKMetadata']['Metadata'] = {'aws:cdk:path': 'ApiLambdaStack/CDKMetadata/Default'}
    r['CDKMetadata']['Properties']['Analytics'] = 'v2:deflate64:changed'


def retained(t):
    # Class 6: a retained log group removed (orphan) and a deleted queue.
    r = R(t)
    del r['ThumbnailFunctionLogGroupBEF6D1BE']
    r['ThumbnailFunctionF21B132B']['Properties'].pop('LoggingConfig', None)
    del r['IngestDLQA251CA18']
    r['IngestQueue2280FF4E']['Properties'].pop('RedrivePolicy', None)


def create(t):
    r = R(t)
    r['ReportsBucket'] = {'Type': 'AWS::S3::Bucket', 'Properties': {'VersioningConfiguration': {'Status': 'Enabled'}},
                          'UpdateReplacePolicy': 'Retain', 'DeletionPolicy': 'Retain'}
    r['ReportsTopic'] = {'Type': 'AWS::SNS::Topic', 'Properties': {'DisplayName': 'reports'}}


def delete(t):
    r = R(t)
    del r['OrdersApiPartnerPlanUsagePlanKeyResourceApiLambdaStackOrdersApiPartnerKey533F77D00D092A19']
    del r['OrdersApiPartnerKey7A5A16AE']
    del r['OrdersApiPartnerPlanBD8F85F6']


def tags(t):
    r = R(t)
    r['OrdersTable315BB997']['Properties']['Tags'] = [{'Key': 'team', 'Value': 'orders'}, {'Key': 'tier', 'Value': 'gold'}]
    r['OrdersHandlerA8584A8A']['Properties'].setdefault('Tags', []).append({'Key': 'team', 'Value': 'orders'})


def outputs(t):
    o = O(t)
    del o['HandlerArn']
    o['OrdersTableName']['Value'] = {'Fn::Join': ['', ['table:', {'Ref': 'OrdersTable315BB997'}]]}
    o['Stage'] = {'Value': 'prod', 'Description': 'The deployed stage'}


NESTED_FILES = ['NestedParentStack.template.json', 'NestedParentStackMessaging3CFC2BDF.nested.template.json',
                'NestedParentStackMessagingMonitoring6C90168C.nested.template.json']


def nested(t):
    # Two levels: the monitoring stack (inside messaging) and messaging
    # change; each parent's TemplateURL names the new asset hash as a
    # synthesis would.
    mon = t[NESTED_FILES[2]]['Resources']
    mon['DlqDepthAlarmD18F3374']['Properties']['Threshold'] = 5
    msg = t[NESTED_FILES[1]]['Resources']
    msg['WorkQueue94013F35']['Properties']['VisibilityTimeout'] = 120
    for f, rid in ((NESTED_FILES[1], 'MonitoringNestedStackMonitoringNestedStackResource001F85AB'),
                   (NESTED_FILES[0], 'MessagingNestedStackMessagingNestedStackResource44F98313')):
        url = t[f]['Resources'][rid]['Properties']['TemplateURL']
        t[f]['Resources'][rid]['Properties']['TemplateURL'] = json.loads(json.dumps(url).replace('.json', '.v2.json'))


def iam(t):
    # Broadening: a statement added to a role's default policy, a managed
    # policy attached, a trust principal added; and one statement removed.
    r = R(t)
    doc = r['OrdersHandlerRoleDefaultPolicyEAA3606C']['Properties']['PolicyDocument']
    doc['Statement'].append({'Action': ['s3:GetObject', 's3:PutObject'], 'Effect': 'Allow',
                             'Resource': 'arn:aws:s3:::orders-archive/*'})
    doc['Statement'].append({'Action': 'dynamodb:DeleteTable', 'Effect': 'Deny', 'Resource': '*'})
    role = r['OrdersHandlerRoleC4BFC92B']['Properties']
    role['ManagedPolicyArns'].append({'Fn::Join': ['', ['arn:', {'Ref': 'AWS::Partition'}, ':iam::aws:policy/AmazonS3ReadOnlyAccess']]})
    stmt = role['AssumeRolePolicyDocument']['Statement'][0]
    stmt['Principal'] = {'Service': ['lambda.amazonaws.com', 'edgelambda.amazonaws.com']}


def iam_narrowing(t):
    # Narrowing only: a statement removed, nothing added.
    r = R(t)
    doc = r['OrdersHandlerRoleDefaultPolicyEAA3606C']['Properties']['PolicyDocument']
    doc['Statement'] = doc['Statement'][:1]


def security_group(t):
    # An ingress opened to everyone on 22 and the load balancer's egress to
    # the metrics group removed.
    r = R(t)
    r['WebLBSecurityGroupAD942A36']['Properties']['SecurityGroupIngress'].append(
        {'CidrIp': '0.0.0.0/0', 'Description': 'ssh', 'FromPort': 22, 'IpProtocol': 'tcp', 'ToPort': 22})
    del r['WebLBSecurityGrouptoVpcEcsStackMetricsSg465B255B80404CB4B3']


def condition_false(t):
    # A resource under a false condition (IsProd: Environment defaults to
    # dev) changes: CloudFormation does not create it, so nothing changes.
    r = R(t)
    r['DlqNotEmpty1C59537F']['Properties']['Threshold'] = 50


PAIRS = [
    ('class1-env-sibling', S3N, env_sibling, None, None),
    ('class2-output-created', S3N, output_created, None, None),
    ('class3-key-schema', API, key_schema, None, None),
    ('class4-propagated-may-replace', VPC, propagated_may, None, add_instance),
    ('class5-undecided-output', API, undecided_output, None, None),
    ('class5-export-in-use', PROD, export_changed, None, None),
    ('class6-attributes', API, attributes, None, None),
    ('class6-orphan-and-destroy', S3N, retained, None, None),
    ('create', S3N, create, None, None),
    ('delete', API, delete, None, None),
    ('tags', API, tags, None, None),
    ('outputs', API, outputs, None, None),
    ('nested-two-levels', ('nested', 'NestedParentStack'), nested, NESTED_FILES, None),
    ('iam-broadening', API, iam, None, None),
    ('iam-narrowing', API, iam_narrowing, None, None),
    ('security-group', VPC, security_group, None, None),
    ('condition-false', CONS, condition_false, None, None),
]


def main():
    only = set(sys.argv[1:])
    for name, (d, stack), edit, files, edit_old in PAIRS:
        if only and name not in only:
            continue
        pair(name, d, stack, edit, files, edit_old)
        print(name)


if __name__ == '__main__':
    main()
