#!/usr/bin/env bash
# AWS CLI conformance check of the sandbox: an independent client (the AWS
# CLI, $AWS_CLI or `aws`) talks to a running `realdrift sandbox serve` over
# the real wire protocols, and every parsed answer is checked against the
# world file.
#
# The checks come in sections (the sec_* functions, found in this file's
# order): a section's calls run in order, and no section depends on another
# (each adds its own out-of-band resources and lists nothing another section
# adds). Sections run $SANDBOX_AWSCLI_JOBS at a time (default twice the
# CPUs: the CLI's start-up is most of each call) in subshells, each with its
# own scratch directory as $tmp; a section stops at its first mismatch and
# its output is printed whole when it ends. Exits non-zero when any section
# failed, naming them.
#
# Needs: go, python3, curl and the AWS CLI. The demo world's live models
# come from the recordings built into the binary
# (internal/sandbox/worldgen/recordings; $REALDRIFT_CORPUS_DIR overrides),
# so a clone with no ../shared runs it.
set -euo pipefail
cd "$(dirname "$0")/.."

# Prefer AWS CLI v2 (Debian's awscli package installs it as /usr/bin/aws).
if [ -z "${AWS_CLI:-}" ]; then
	AWS_CLI=aws
	if ! aws --version 2>/dev/null | grep -q '^aws-cli/2' && /usr/bin/aws --version 2>/dev/null | grep -q '^aws-cli/2'; then
		AWS_CLI=/usr/bin/aws
	fi
fi
command -v "$AWS_CLI" >/dev/null || { echo "sandbox-awscli-check: $AWS_CLI not found" >&2; exit 2; }
command -v python3 >/dev/null || { echo "sandbox-awscli-check: python3 not found" >&2; exit 2; }

tmp=$(mktemp -d)
lib=$tmp # the world and its Python helpers; $tmp is a section's own directory
server_pid=""
declare -A section_of=() # running section by PID
cleanup() {
	for p in "${!section_of[@]}"; do kill "$p" 2>/dev/null || true; done
	if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT

CGO_ENABLED=0 go build -o "$tmp/realdrift" ./cmd/realdrift # cgo off as go-test.sh's plain runs build: cached
"$tmp/realdrift" sandbox world --demo ${REALDRIFT_CORPUS_DIR:+--corpus "$REALDRIFT_CORPUS_DIR"} -o "$tmp/world.json"
# A small page size makes the CLI follow NextToken for stack resources.
"$tmp/realdrift" sandbox serve --world "$tmp/world.json" --addr 127.0.0.1:0 --page-size 4 >"$tmp/serve.log" 2>&1 &
server_pid=$!
url=""
for _ in $(seq 1 100); do
	url=$(sed -n 's/^sandbox listening on \(http:\/\/127\.0\.0\.1:[0-9]*\)$/\1/p' "$tmp/serve.log")
	[ -n "$url" ] && break
	kill -0 "$server_pid" 2>/dev/null || { cat "$tmp/serve.log" >&2; exit 1; }
	sleep 0.1
done
[ -n "$url" ] || { echo "sandbox did not start" >&2; cat "$tmp/serve.log" >&2; exit 1; }

cat >"$tmp/config" <<EOF
[default]
region = us-east-1
output = json
cli_follow_urlparam = false
s3 =
    addressing_style = path
EOF
export AWS_CONFIG_FILE="$tmp/config" AWS_SHARED_CREDENTIALS_FILE=/dev/null AWS_PAGER="" AWS_EC2_METADATA_DISABLED=true
unset AWS_PROFILE AWS_SESSION_TOKEN AWS_ENDPOINT_URL AWS_REGION
export AWS_DEFAULT_REGION=us-east-1 AWS_SECRET_ACCESS_KEY=sandbox
DEV=200000000002
MGMT=100000000001
export AWS_ACCESS_KEY_ID=AKIADEMO$DEV
export WORLD="$tmp/world.json"

echo "sandbox at $url; AWS CLI: $("$AWS_CLI" --version 2>&1)"

# awsq ARGS...: run the CLI against the sandbox, JSON on stdout.
# A call that succeeds is noted in the section's invoked list ("service
# operation"), which the end compares with scripts/sandbox-awscli-ops.txt.
awsq() {
	local rc=0
	"$AWS_CLI" --endpoint-url "$url" --output json "$@" || rc=$?
	if [ "$rc" -eq 0 ]; then echo "$1 $2" >>"$tmp/invoked"; fi
	return "$rc"
}
cat >"$tmp/world.py" <<'EOF'
import json, os, sys
w = json.load(open(os.environ['WORLD']))
def stack(acct, region, name):
    for a in w['accounts']:
        if a['id'] == acct:
            for r in a['regions']:
                if r['name'] == region:
                    for s in r['stacks']:
                        if s['name'] == name:
                            return s
    raise SystemExit('no stack ' + name)
def res(s, typ, prefix):
    for r in s['resources']:
        if r['type'] == typ and r['logicalId'].startswith(prefix):
            return r
    raise SystemExit('no resource ' + prefix)
EOF
# check NAME PYTHON: PYTHON sees `out` (the parsed stdin) and the world
# helpers (w, stack, res); it must raise (assert) on a mismatch.
check() {
	local name=$1 code=$2
	if PYTHONPATH="$lib" python3 -c "
from world import *
raw = sys.stdin.read()
out = json.loads(raw) if raw.strip() else None
$code
"; then
		echo "$name" >>"$tmp/passed"
		echo "ok   $name"
	else
		echo "FAIL $name" >&2
		exit 1
	fi
}
# worldq PYTHON: print the value of a Python expression over the world.
worldq() { PYTHONPATH="$lib" python3 -c "from world import *
$SVC
$DATA
print($1)"; }
# fails NAME CODE ARGS...: the CLI call must fail with CODE in its error.
fails() {
	local name=$1 code=$2
	shift 2
	if awsq "$@" >"$tmp/out" 2>"$tmp/err"; then
		echo "FAIL $name: succeeded, want $code" >&2
		exit 1
	fi
	if ! grep -q "$code" "$tmp/err"; then
		echo "FAIL $name: want $code, got:" >&2
		cat "$tmp/err" >&2
		exit 1
	fi
	echo "$name" >>"$tmp/passed"
	echo "ok   $name"
}

SVC='s = stack("'$DEV'", "us-east-1", "OrdersService")'
DATA='d = stack("'$DEV'", "us-east-1", "OrdersData")'
BUCKET=$(worldq "res(d, 'AWS::S3::Bucket', 'AssetsBucket')['physicalId']")
# add TYPE ID PROPERTIES: an out-of-band resource in the dev account's
# us-east-1, through the admin API.
add() {
	python3 -c 'import json,sys; print(json.dumps({"op":"add","account":sys.argv[1],"region":"us-east-1","type":sys.argv[2],"identifier":sys.argv[3],"properties":json.loads(sys.argv[4])}))' "$DEV" "$1" "$2" "$3" |
		curl -sf -X POST --data-binary @- "$url/_sandbox/change" >/dev/null
}

sec_cloudformation() {
awsq cloudformation describe-stacks --stack-name OrdersService | check "cloudformation describe-stacks" "
$SVC
st = out['Stacks'][0]
assert st['StackId'] == s['id'], st['StackId']
assert st['StackStatus'] == 'CREATE_COMPLETE'
outs = {o['OutputKey']: o['OutputValue'] for o in st['Outputs']}
assert outs == {o['key']: o['value'] for o in s['outputs']}, outs
assert st['Parameters'][0]['ResolvedValue'] == '21'
"

awsq cloudformation list-stack-resources --stack-name OrdersService | check "cloudformation list-stack-resources (paginated)" "
$SVC
got = [(r['LogicalResourceId'], r['PhysicalResourceId'], r['ResourceType']) for r in out['StackResourceSummaries']]
want = [(r['logicalId'], r['physicalId'], r['type']) for r in s['resources']]
assert got == want, (len(got), len(want))
assert len(want) > 4
"

awsq cloudformation get-template --stack-name OrdersService | check "cloudformation get-template" "
$SVC
body = out['TemplateBody']
if isinstance(body, str):
    body = json.loads(body)
assert body == json.loads(s['templateBody'])
assert 'Processed' in out['StagesAvailable']
"

awsq cloudformation list-exports | check "cloudformation list-exports" "
$DATA
got = {e['Name']: e['Value'] for e in out['Exports']}
want = {o['exportName']: o['value'] for o in d['outputs'] if o.get('exportName')}
assert got == want, got
"

fails "cloudformation describe-stacks (missing stack)" "does not exist" cloudformation describe-stacks --stack-name Nope

awsq cloudformation describe-stack-resources --stack-name OrdersService | check "cloudformation describe-stack-resources" "
$SVC
got = sorted((r['LogicalResourceId'], r['ResourceType'], r['ResourceStatus']) for r in out['StackResources'])
want = sorted((r['logicalId'], r['type'], 'CREATE_COMPLETE') for r in s['resources'])
assert got == want, (got, want)
assert all(r['StackName'] == 'OrdersService' for r in out['StackResources'])
"
awsq cloudformation list-stacks | check "cloudformation list-stacks" "
region = [r for a in w['accounts'] if a['id'] == '$DEV' for r in a['regions'] if r['name'] == 'us-east-1'][0]
got = {x['StackName'] for x in out['StackSummaries']}
assert got == {st['name'] for st in region['stacks']}, got
assert all(x['StackStatus'] and x['CreationTime'] for x in out['StackSummaries'])
"

# OrdersService imports OrdersData's table name (Fn::ImportValue), so
# CloudFormation recorded it as an importer.
awsq cloudformation list-imports --export-name OrdersData:ExportsOutputRefOrdersTable | check "cloudformation list-imports" "
region = [r for a in w['accounts'] if a['id'] == '$DEV' for r in a['regions'] if r['name'] == 'us-east-1'][0]
want = sorted(st['name'] for st in region['stacks'] if 'OrdersData:ExportsOutputRefOrdersTable' in st.get('imports', []))
assert want == ['OrdersService'], want
assert sorted(out['Imports']) == want, out
"
fails "cloudformation list-imports (not imported)" "is not imported by any stack" cloudformation list-imports --export-name OrdersData:Nope

awsq cloudformation describe-type --type RESOURCE --type-name AWS::SQS::Queue | check "cloudformation describe-type" "
assert out['TypeName'] == 'AWS::SQS::Queue' and out['Type'] == 'RESOURCE', out
assert out['Arn'].endswith(':type/resource/AWS-SQS-Queue'), out['Arn']
assert out['ProvisioningType'] == 'FULLY_MUTABLE' and out['IsDefaultVersion'], out
schema = json.loads(out['Schema'])
assert schema['typeName'] == 'AWS::SQS::Queue', schema.get('typeName')
assert {'/properties/Arn', '/properties/QueueUrl'} <= set(schema['readOnlyProperties']), schema['readOnlyProperties']
"
fails "cloudformation describe-type (unknown type)" "TypeNotFoundException" cloudformation describe-type --type RESOURCE --type-name AWS::Nope::Nothing
}

sec_cloudcontrol() {
QUEUE=$(worldq "res(s, 'AWS::SQS::Queue', 'OrdersQueue')['physicalId']")

awsq cloudcontrol get-resource --type-name AWS::SQS::Queue --identifier "$QUEUE" | check "cloudcontrol get-resource" "
$SVC
q = res(s, 'AWS::SQS::Queue', 'OrdersQueue')
assert out['TypeName'] == 'AWS::SQS::Queue'
assert out['ResourceDescription']['Identifier'] == q['physicalId']
assert json.loads(out['ResourceDescription']['Properties']) == q['properties']
"

fails "cloudcontrol get-resource (not found)" "ResourceNotFoundException" cloudcontrol get-resource --type-name AWS::SQS::Queue --identifier https://sqs.us-east-1.amazonaws.com/$DEV/nope
fails "cloudcontrol get-resource (Cloud Control gap)" "UnsupportedActionException" cloudcontrol get-resource --type-name AWS::SQS::QueuePolicy --identifier x
fails "cloudcontrol update-resource (create-only path)" "InvalidRequestException" cloudcontrol update-resource --type-name AWS::SQS::Queue --identifier "$QUEUE" --patch-document '[{"op":"replace","path":"/QueueName","value":"renamed"}]'

awsq cloudcontrol update-resource --type-name AWS::SQS::Queue --identifier "$QUEUE" \
	--patch-document '[{"op":"replace","path":"/VisibilityTimeout","value":240}]' >"$tmp/update.json"
check "cloudcontrol update-resource" "
ev = out['ProgressEvent']
assert ev['Operation'] == 'UPDATE' and ev['OperationStatus'] == 'IN_PROGRESS', ev
assert ev['TypeName'] == 'AWS::SQS::Queue' and ev['RequestToken']
" <"$tmp/update.json"
TOKEN=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["ProgressEvent"]["RequestToken"])' <"$tmp/update.json")
status=""
for _ in $(seq 1 50); do
	awsq cloudcontrol get-resource-request-status --request-token "$TOKEN" >"$tmp/status.json"
	status=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["ProgressEvent"]["OperationStatus"])' <"$tmp/status.json")
	[ "$status" = IN_PROGRESS ] || break
	sleep 0.1
done
check "cloudcontrol get-resource-request-status" "
ev = out['ProgressEvent']
assert ev['OperationStatus'] == 'SUCCESS', ev
assert json.loads(ev['ResourceModel'])['VisibilityTimeout'] == 240
" <"$tmp/status.json"

awsq sqs get-queue-attributes --queue-url "$QUEUE" --attribute-names All | check "sqs get-queue-attributes (sees the Cloud Control write)" "
$SVC
q = res(s, 'AWS::SQS::Queue', 'OrdersQueue')['properties']
a = out['Attributes']
assert a['VisibilityTimeout'] == '240', a
assert a['QueueArn'] == q['Arn']
assert json.loads(a['RedrivePolicy']) == q['RedrivePolicy']
assert 'sns.amazonaws.com' in a['Policy']
"
}

sec_cloudcontrol_list_delete() {
# Cloud Control (JSON 1.0): a type's resources listed, one deleted.
gone=https://sqs.us-east-1.amazonaws.com/$DEV/cli-delete-me
add AWS::SQS::Queue "$gone" '{"QueueName":"cli-delete-me","QueueUrl":"'"$gone"'","Arn":"arn:aws:sqs:us-east-1:'$DEV':cli-delete-me"}'
awsq cloudcontrol list-resources --type-name AWS::SQS::Queue | check "cloudcontrol list-resources" "
ids = [r['Identifier'] for r in out['ResourceDescriptions']]
assert '$gone' in ids and len(ids) == len(set(ids)), ids
"
awsq cloudcontrol delete-resource --type-name AWS::SQS::Queue --identifier "$gone" >"$tmp/delete.json"
check "cloudcontrol delete-resource" "
ev = out['ProgressEvent']
assert ev['Operation'] == 'DELETE' and ev['TypeName'] == 'AWS::SQS::Queue' and ev['RequestToken'], ev
" <"$tmp/delete.json"
TOKEN=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["ProgressEvent"]["RequestToken"])' <"$tmp/delete.json")
for _ in $(seq 1 50); do
	awsq cloudcontrol get-resource-request-status --request-token "$TOKEN" >"$tmp/status.json"
	[ "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["ProgressEvent"]["OperationStatus"])' <"$tmp/status.json")" = IN_PROGRESS ] || break
	sleep 0.1
done
check "cloudcontrol get-resource-request-status (the delete)" "
assert out['ProgressEvent']['OperationStatus'] == 'SUCCESS', out
" <"$tmp/status.json"
fails "cloudcontrol get-resource (deleted)" "ResourceNotFoundException" cloudcontrol get-resource --type-name AWS::SQS::Queue --identifier "$gone"
}
sec_cloudcontrol_cancel() {
# Cloud Control CancelResourceRequest, on a server of the section's own
# whose writes stay IN_PROGRESS for 10 minutes (--operation-delay): with
# the default 20 ms the request completes before the CLI can cancel it.
"$lib/realdrift" sandbox serve --world "$WORLD" --addr 127.0.0.1:0 --operation-delay 10m >"$tmp/serve.log" 2>&1 &
own=$!
local url=""
trap 'kill "$own" 2>/dev/null || true' EXIT
trap 'exit 143' TERM
for _ in $(seq 1 100); do
	url=$(sed -n 's/^sandbox listening on \(http:\/\/127\.0\.0\.1:[0-9]*\)$/\1/p' "$tmp/serve.log")
	[ -n "$url" ] && break
	kill -0 "$own" 2>/dev/null || { cat "$tmp/serve.log" >&2; exit 1; }
	sleep 0.1
done
[ -n "$url" ] || { echo "FAIL the section's sandbox did not start" >&2; exit 1; }
QUEUE=$(worldq "res(s, 'AWS::SQS::Queue', 'OrdersQueue')['physicalId']")
awsq cloudcontrol update-resource --type-name AWS::SQS::Queue --identifier "$QUEUE" \
	--patch-document '[{"op":"replace","path":"/VisibilityTimeout","value":250}]' >"$tmp/update.json"
TOKEN=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["ProgressEvent"]["RequestToken"])' <"$tmp/update.json")
awsq cloudcontrol cancel-resource-request --request-token "$TOKEN" | check "cloudcontrol cancel-resource-request" "
ev = out['ProgressEvent']
assert ev['RequestToken'] == '$TOKEN' and ev['Operation'] == 'UPDATE', ev
assert ev['OperationStatus'] == 'CANCEL_COMPLETE', ev
"
awsq cloudcontrol get-resource-request-status --request-token "$TOKEN" | check "cloudcontrol get-resource-request-status (cancelled)" "
assert out['ProgressEvent']['OperationStatus'] == 'CANCEL_COMPLETE', out
"
fails "cloudcontrol cancel-resource-request (already cancelled)" "ConcurrentModificationException" cloudcontrol cancel-resource-request --request-token "$TOKEN"
fails "cloudcontrol cancel-resource-request (unknown token)" "RequestTokenNotFoundException" cloudcontrol cancel-resource-request --request-token 00000000-0000-0000-0000-000000000000
awsq cloudcontrol get-resource --type-name AWS::SQS::Queue --identifier "$QUEUE" | check "cloudcontrol get-resource (the cancelled update never applied)" "
$SVC
q = res(s, 'AWS::SQS::Queue', 'OrdersQueue')
assert json.loads(out['ResourceDescription']['Properties']) == q['properties']
"
}

sec_sts() {
awsq sts get-caller-identity | check "sts get-caller-identity" "
assert out['Account'] == '$DEV', out
assert out['Arn'] == 'arn:aws:iam::$DEV:user/demo', out
"

awsq sts assume-role --role-arn arn:aws:iam::300000000003:role/realdrift-read --role-session-name ci >"$tmp/assume.json"
check "sts assume-role" "
c = out['Credentials']
assert c['AccessKeyId'].startswith('ASIA') and c['SecretAccessKey'] and c['SessionToken']
assert out['AssumedRoleUser']['Arn'] == 'arn:aws:sts::300000000003:assumed-role/realdrift-read/ci'
" <"$tmp/assume.json"
(
	eval "$(python3 -c 'import json,sys; c=json.load(sys.stdin)["Credentials"]; print("export AWS_ACCESS_KEY_ID=%s AWS_SECRET_ACCESS_KEY=%s AWS_SESSION_TOKEN=%s" % (c["AccessKeyId"], c["SecretAccessKey"], c["SessionToken"]))' <"$tmp/assume.json")"
	awsq sts get-caller-identity
) | check "sts get-caller-identity (assumed role in another account)" "
assert out['Account'] == '300000000003', out
"
# A key no world principal owns is refused as AWS refuses it, in each
# protocol's shape: query/XML (STS) and JSON 1.0 (Cloud Control).
AWS_ACCESS_KEY_ID=AKIANOBODY0000000001 fails "sts get-caller-identity (unknown access key)" "InvalidClientTokenId" sts get-caller-identity
AWS_ACCESS_KEY_ID=AKIANOBODY0000000001 fails "cloudcontrol list-resources (unknown access key)" "UnrecognizedClientException" cloudcontrol list-resources --type-name AWS::SQS::Queue
}

sec_stack_resources() {
awsq s3api get-bucket-policy --bucket "$BUCKET" | check "s3api get-bucket-policy" "
$DATA
p = res(d, 'AWS::S3::BucketPolicy', 'AssetsBucketPolicy')['properties']
assert json.loads(out['Policy']) == p['PolicyDocument']
"

awsq sns get-topic-attributes --topic-arn "$(worldq "res(s, 'AWS::SNS::Topic', 'OrdersTopic')['physicalId']")" | check "sns get-topic-attributes" "
assert out['Attributes']['DisplayName'] == 'Order events', out
assert out['Attributes']['Owner'] == '$DEV'
"

ROLE=$(worldq "res(s, 'AWS::IAM::Role', 'HandlerServiceRole')['physicalId']")
awsq iam list-role-policies --role-name "$ROLE" | check "iam list-role-policies" "
$SVC
assert out['PolicyNames'] == [res(s, 'AWS::IAM::Policy', 'HandlerServiceRoleDefaultPolicy')['logicalId']], out
"
awsq iam get-role-policy --role-name "$ROLE" --policy-name "$(worldq "res(s, 'AWS::IAM::Policy', 'HandlerServiceRoleDefaultPolicy')['logicalId']")" | check "iam get-role-policy" "
$SVC
doc = out['PolicyDocument']
if isinstance(doc, str):
    import urllib.parse
    doc = json.loads(urllib.parse.unquote(doc))
assert doc == res(s, 'AWS::IAM::Policy', 'HandlerServiceRoleDefaultPolicy')['properties']['PolicyDocument']
"

FN=$(worldq "res(s, 'AWS::Lambda::Function', 'Handler')['physicalId']")
awsq lambda get-policy --function-name "$FN" | check "lambda get-policy" "
$SVC
perm = res(s, 'AWS::Lambda::Permission', 'Api')
st = json.loads(out['Policy'])['Statement']
assert [x['Sid'] for x in st] == [perm['physicalId']], st
assert st[0]['Principal'] == {'Service': 'apigateway.amazonaws.com'}
"
fails "lambda get-policy (missing function)" "ResourceNotFoundException" lambda get-policy --function-name nope
awsq lambda list-versions-by-function --function-name "$FN" | check "lambda list-versions-by-function" "
assert [v['Version'] for v in out['Versions']][:1] == ['\$LATEST'], out
"
awsq lambda get-function-configuration --function-name "$FN" | check "lambda get-function-configuration" "
assert out['FunctionName'] == '$FN' and out['FunctionArn'].endswith(':function:$FN'), out
"
fails "lambda get-function-configuration (missing)" "ResourceNotFoundException" lambda get-function-configuration --function-name nope-fn
awsq kms list-aliases | check "kms list-aliases" "
assert out['Aliases'] == [], out
"
}

sec_ec2() {
# EC2 (its own query protocol: Name.N lists, Filter.N, <item> sets, EC2
# errors): out-of-band network resources added through the admin API.
VPC=vpc-0a787ce59de137b49
ACL=acl-0b09fb918deeb6d6b
add AWS::EC2::VPC $VPC '{"VpcId":"'$VPC'","CidrBlock":"10.0.0.0/16"}'
add AWS::EC2::NetworkAcl $ACL '{"Id":"'$ACL'","VpcId":"'$VPC'"}'
add AWS::EC2::NetworkAclEntry cli-https '{"NetworkAclId":"'$ACL'","RuleNumber":100,"Egress":false,"RuleAction":"allow","Protocol":6,"CidrBlock":"0.0.0.0/0","PortRange":{"From":443,"To":443}}'
add AWS::EC2::NetworkAclEntry cli-icmp '{"NetworkAclId":"'$ACL'","RuleNumber":120,"Egress":false,"RuleAction":"allow","Protocol":1,"CidrBlock":"0.0.0.0/0","Icmp":{"Code":-1,"Type":8}}'
for i in 1 2 3 4 5 6 7; do
	add AWS::EC2::Subnet subnet-000000000000000$i '{"SubnetId":"subnet-000000000000000'$i'","VpcId":"'$VPC'","CidrBlock":"10.0.'$i'.0/24"}'
done
add AWS::EC2::SecurityGroup sg-0000000000000000c '{"GroupId":"sg-0000000000000000c","GroupName":"console-made","GroupDescription":"x","VpcId":"'$VPC'"}'
add AWS::EC2::RouteTable rtb-0000000000000000d '{"RouteTableId":"rtb-0000000000000000d","VpcId":"'$VPC'"}'
awsq ec2 describe-network-acls --network-acl-ids $ACL | check "ec2 describe-network-acls" "
acl, = out['NetworkAcls']
assert acl['NetworkAclId'] == '$ACL' and acl['VpcId'] == '$VPC' and acl['IsDefault'] is False, acl
es = {(e['RuleNumber'], e['Egress']): e for e in acl['Entries']}
assert es[(100, False)]['PortRange'] == {'From': 443, 'To': 443} and es[(100, False)]['Protocol'] == '6', es
assert es[(120, False)]['IcmpTypeCode'] == {'Code': -1, 'Type': 8}, es
assert es[(32767, False)]['RuleAction'] == 'deny' and es[(32767, True)]['Protocol'] == '-1', es
"
awsq ec2 describe-network-acls --filters Name=vpc-id,Values=$VPC Name=default,Values=true | check "ec2 describe-network-acls (filters: the VPC's default ACL)" "
assert [a['IsDefault'] for a in out['NetworkAcls']] == [True], out
"
fails "ec2 describe-network-acls (missing ACL)" "InvalidNetworkAclID.NotFound" ec2 describe-network-acls --network-acl-ids acl-00000000000000000
fails "ec2 describe-network-acls (unknown filter)" "InvalidParameterValue" ec2 describe-network-acls --filters Name=nope,Values=x
awsq ec2 replace-network-acl-entry --network-acl-id $ACL --rule-number 100 --ingress --protocol 6 --rule-action deny --cidr-block 10.9.0.0/16 --port-range From=8443,To=8443 | check "ec2 replace-network-acl-entry" "
assert out is None, out
"
awsq ec2 describe-network-acls --network-acl-ids $ACL | check "ec2 describe-network-acls (after the replace)" "
acl, = out['NetworkAcls']
e, = [e for e in acl['Entries'] if (e['RuleNumber'], e['Egress']) == (100, False)]
assert (e['RuleAction'], e['CidrBlock'], e['PortRange']) == ('deny', '10.9.0.0/16', {'From': 8443, 'To': 8443}), e
"
fails "ec2 replace-network-acl-entry (no such rule)" "InvalidNetworkAclEntry.NotFound" ec2 replace-network-acl-entry --network-acl-id $ACL --rule-number 7 --ingress --protocol 6 --rule-action deny --cidr-block 10.9.0.0/16 --port-range From=1,To=1
awsq ec2 describe-subnets --filters Name=vpc-id,Values=$VPC --page-size 5 | check "ec2 describe-subnets (paginated by MaxResults)" "
assert sorted(s['SubnetId'] for s in out['Subnets']) == ['subnet-000000000000000%d' % i for i in range(1, 8)], out
"
awsq ec2 describe-security-groups --filters Name=vpc-id,Values=$VPC | check "ec2 describe-security-groups" "
assert sorted(g['GroupName'] for g in out['SecurityGroups']) == ['console-made', 'default'], out
"
awsq ec2 describe-route-tables --filters Name=vpc-id,Values=$VPC | check "ec2 describe-route-tables" "
main = {t['RouteTableId']: any(a.get('Main') for a in t['Associations']) for t in out['RouteTables']}
assert sorted(main.values()) == [False, True] and main['rtb-0000000000000000d'] is False, out
"

add AWS::EC2::EIP 203.0.113.10 '{"Domain":"vpc","NetworkBorderGroup":"us-east-1","PublicIp":"203.0.113.10","Tags":[{"Key":"Name","Value":"cli"}]}'
awsq ec2 describe-addresses --public-ips 203.0.113.10 | check "ec2 describe-addresses" "
a, = out['Addresses']
assert a['PublicIp'] == '203.0.113.10' and a['Domain'] == 'vpc' and a['AllocationId'].startswith('eipalloc-'), a
assert a['Tags'] == [{'Key': 'Name', 'Value': 'cli'}], a
"
fails "ec2 describe-addresses (released address)" "InvalidAddress.NotFound" ec2 describe-addresses --public-ips 203.0.113.11
add AWS::EC2::TransitGateway tgw-0c11c11c11c11c11c '{"Id":"tgw-0c11c11c11c11c11c","AssociationDefaultRouteTableId":"tgw-rtb-0c1default"}'
add AWS::EC2::TransitGatewayVpcAttachment tgw-attach-0c11c11c11c11c11 '{"Id":"tgw-attach-0c11c11c11c11c11","TransitGatewayId":"tgw-0c11c11c11c11c11c","VpcId":"'$VPC'","SubnetIds":["subnet-0c1"]}'
add AWS::EC2::TransitGatewayRouteTable tgw-rtb-0c11c11c11c11c11 '{"TransitGatewayRouteTableId":"tgw-rtb-0c11c11c11c11c11","TransitGatewayId":"tgw-0c11c11c11c11c11c"}'
awsq ec2 describe-transit-gateway-vpc-attachments --filters Name=transit-gateway-id,Values=tgw-0c11c11c11c11c11c | check "ec2 describe-transit-gateway-vpc-attachments" "
a, = out['TransitGatewayVpcAttachments']
assert a['TransitGatewayAttachmentId'] == 'tgw-attach-0c11c11c11c11c11' and a['VpcId'] == '$VPC' and a['SubnetIds'] == ['subnet-0c1'] and a['State'] == 'available', out
"
awsq ec2 describe-transit-gateway-route-tables --filters Name=transit-gateway-id,Values=tgw-0c11c11c11c11c11c | check "ec2 describe-transit-gateway-route-tables (the default one AWS made)" "
got = sorted((t['TransitGatewayRouteTableId'], t['DefaultAssociationRouteTable'], t['DefaultPropagationRouteTable']) for t in out['TransitGatewayRouteTables'])
assert got == [('tgw-rtb-0c11c11c11c11c11', False, False), ('tgw-rtb-0c1default', True, True)], out
"

add AWS::EC2::Route "rtb-0000000000000000d|0.0.0.0/0" '{"RouteTableId":"rtb-0000000000000000d","DestinationCidrBlock":"0.0.0.0/0","CidrBlock":"0.0.0.0/0","GatewayId":"igw-0000000000000000a"}'
awsq ec2 describe-route-tables --route-table-ids rtb-0000000000000000d | check "ec2 describe-route-tables (routes)" "
rs = {r['DestinationCidrBlock']: r for r in out['RouteTables'][0]['Routes']}
assert rs['10.0.0.0/16']['GatewayId'] == 'local' and rs['10.0.0.0/16']['Origin'] == 'CreateRouteTable', rs
assert rs['0.0.0.0/0']['GatewayId'] == 'igw-0000000000000000a' and rs['0.0.0.0/0']['Origin'] == 'CreateRoute', rs
"
}

sec_logs() {
# CloudWatch Logs (JSON 1.1).
add AWS::Logs::LogGroup cli-logs '{"LogGroupName":"cli-logs"}'
for n in a b c; do
	add AWS::Logs::MetricFilter mf-$n '{"FilterName":"mf-'$n'","LogGroupName":"cli-logs","FilterPattern":"ERROR","MetricTransformations":[{"MetricName":"E","MetricNamespace":"App","MetricValue":"1","Dimensions":[{"Key":"Svc","Value":"$.svc"}]}]}'
done
add AWS::Logs::SubscriptionFilter "sf-a|cli-logs" '{"FilterName":"sf-a","LogGroupName":"cli-logs","FilterPattern":"","DestinationArn":"arn:aws:lambda:us-east-1:'$DEV':function:ship"}'
awsq logs describe-metric-filters --log-group-name cli-logs --page-size 2 | check "logs describe-metric-filters (paginated)" "
fs = out['metricFilters']
assert [f['filterName'] for f in fs] == ['mf-a', 'mf-b', 'mf-c'], fs
assert fs[0]['metricTransformations'][0]['dimensions'] == {'Svc': '\$.svc'}, fs[0]
"
awsq logs describe-subscription-filters --log-group-name cli-logs | check "logs describe-subscription-filters" "
f, = out['subscriptionFilters']
assert f['filterName'] == 'sf-a' and f['destinationArn'].endswith(':function:ship'), f
"
fails "logs describe-subscription-filters (missing group)" "ResourceNotFoundException" logs describe-subscription-filters --log-group-name nope
}

sec_events() {
# EventBridge (JSON 1.1).
add AWS::Events::EventBus cli-bus '{"Name":"cli-bus"}'
for n in r1 r2 r3; do
	add AWS::Events::Rule "arn:aws:events:us-east-1:$DEV:rule/cli-bus/$n" '{"Name":"'$n'","EventBusName":"cli-bus","State":"ENABLED","EventPattern":{"source":["cli"]}}'
done
awsq events list-rules --event-bus-name cli-bus --limit 2 | check "events list-rules (one page of two)" "
assert [r['Name'] for r in out['Rules']] == ['r1', 'r2'] and out['NextToken'], out
assert json.loads(out['Rules'][0]['EventPattern']) == {'source': ['cli']}
assert out['Rules'][0]['Arn'] == 'arn:aws:events:us-east-1:$DEV:rule/cli-bus/r1', out
"
fails "events list-rules (missing bus)" "ResourceNotFoundException" events list-rules --event-bus-name nope
}

sec_secretsmanager() {
# Secrets Manager (JSON 1.1).
SECRET=arn:aws:secretsmanager:us-east-1:$DEV:secret:cli-AbCdEf
add AWS::SecretsManager::Secret "$SECRET" '{"Id":"'$SECRET'","Name":"cli"}'
add AWS::SecretsManager::ResourcePolicy "$SECRET" '{"SecretId":"'$SECRET'","ResourcePolicy":{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Principal":"*","Action":"secretsmanager:DeleteSecret","Resource":"*"}]}}'
awsq secretsmanager get-resource-policy --secret-id cli | check "secretsmanager get-resource-policy" "
assert out['ARN'] == '$SECRET' and out['Name'] == 'cli', out
assert json.loads(out['ResourcePolicy'])['Statement'][0]['Effect'] == 'Deny', out
"
fails "secretsmanager get-resource-policy (missing secret)" "ResourceNotFoundException" secretsmanager get-resource-policy --secret-id nope
}

sec_ecs_cognito() {
# ECS and Cognito user pools (JSON 1.1).
add AWS::ECS::Cluster cli-cluster '{"ClusterName":"cli-cluster"}'
for n in a b c; do
	add AWS::ECS::Service "arn:aws:ecs:us-east-1:$DEV:service/cli-cluster/$n|cli-cluster" '{"ServiceArn":"arn:aws:ecs:us-east-1:'$DEV':service/cli-cluster/'$n'","ServiceName":"'$n'","Cluster":"cli-cluster"}'
done
awsq ecs list-services --cluster cli-cluster --page-size 2 | check "ecs list-services (paginated)" "
assert [a.rsplit('/', 1)[1] for a in out['serviceArns']] == ['a', 'b', 'c'], out
"
fails "ecs list-services (missing cluster)" "ClusterNotFoundException" ecs list-services --cluster nope
add AWS::ECS::Service "arn:aws:ecs:us-east-1:$DEV:service/cli-cluster/sc|cli-cluster" '{"ServiceArn":"arn:aws:ecs:us-east-1:'$DEV':service/cli-cluster/sc","ServiceName":"sc","Cluster":"cli-cluster","ServiceConnectConfiguration":{"Enabled":true,"Namespace":"cli","LogConfiguration":{"LogDriver":"awslogs","Options":{"awslogs-group":"/sc"}}},"VolumeConfigurations":[{"Name":"data","ManagedEBSVolume":{"RoleArn":"arn:aws:iam::'$DEV':role/ebs","SizeInGiB":20}}]}'
awsq ecs describe-services --cluster cli-cluster --services sc nope | check "ecs describe-services" "
s, = out['services']
d, = s['deployments']
assert s['serviceName'] == 'sc' and d['status'] == 'PRIMARY', s
assert d['serviceConnectConfiguration'] == {'enabled': True, 'namespace': 'cli', 'logConfiguration': {'logDriver': 'awslogs', 'options': {'awslogs-group': '/sc'}}}, d
# (AWS CLI 2.9's model predates volumeConfigurations: it drops them.)
assert d.get('volumeConfigurations', [{'name': 'data', 'managedEBSVolume': {'roleArn': 'arn:aws:iam::$DEV:role/ebs', 'sizeInGiB': 20}}]) == [{'name': 'data', 'managedEBSVolume': {'roleArn': 'arn:aws:iam::$DEV:role/ebs', 'sizeInGiB': 20}}], d
assert [(f['arn'].rsplit('/', 1)[1], f['reason']) for f in out['failures']] == [('nope', 'MISSING')], out
"
POOL=us-east-1_CliPool01
add AWS::Cognito::UserPool $POOL '{"UserPoolId":"'$POOL'"}'
add AWS::Cognito::UserPoolClient "$POOL|cliclient" '{"UserPoolId":"'$POOL'","ClientId":"cliclient","ClientName":"cli"}'
add AWS::Cognito::UserPoolGroup "$POOL|admins" '{"UserPoolId":"'$POOL'","GroupName":"admins","Precedence":1}'
awsq cognito-idp list-user-pool-clients --user-pool-id $POOL | check "cognito-idp list-user-pool-clients" "
assert [(c['ClientId'], c['ClientName']) for c in out['UserPoolClients']] == [('cliclient', 'cli')], out
"
awsq cognito-idp list-groups --user-pool-id $POOL | check "cognito-idp list-groups" "
assert [(g['GroupName'], g['Precedence']) for g in out['Groups']] == [('admins', 1)], out
"
fails "cognito-idp list-groups (missing pool)" "ResourceNotFoundException" cognito-idp list-groups --user-pool-id us-east-1_Nope
}

sec_ssm() {
# Systems Manager (JSON 1.1).
WIN=mw-0123456789abcdef0
add AWS::SSM::MaintenanceWindow $WIN '{"WindowId":"'$WIN'","Name":"cli"}'
add AWS::SSM::MaintenanceWindowTask "$WIN|22222222-0000-0000-0000-000000000001" '{"WindowId":"'$WIN'","WindowTaskId":"22222222-0000-0000-0000-000000000001","TaskArn":"AWS-RunPatchBaseline","TaskType":"RUN_COMMAND","Priority":1}'
awsq ssm describe-maintenance-window-tasks --window-id $WIN | check "ssm describe-maintenance-window-tasks" "
t, = out['Tasks']
assert t['WindowTaskId'] == '22222222-0000-0000-0000-000000000001' and t['Type'] == 'RUN_COMMAND' and t['Priority'] == 1, t
"
fails "ssm describe-maintenance-window-targets (missing window)" "DoesNotExistException" ssm describe-maintenance-window-targets --window-id mw-00000000000000000
add AWS::SSM::Parameter /cli/flag '{"Name":"/cli/flag","Type":"String","Value":"on","Description":"cli flag","AllowedPattern":"^(on|off)$","Tier":"Standard"}'
awsq ssm describe-parameters --parameter-filters Key=Name,Option=Equals,Values=/cli/flag | check "ssm describe-parameters" "
p, = out['Parameters']
assert (p['Name'], p['Description'], p['AllowedPattern'], p['Tier'], p['DataType']) == ('/cli/flag', 'cli flag', '^(on|off)\$', 'Standard', 'text') and 'Value' not in p, p
"
fails "ssm describe-parameters (bad filter key)" "InvalidFilterKey" ssm describe-parameters --parameter-filters Key=Color,Values=red
add AWS::SSM::MaintenanceWindowTarget "$WIN|11111111-0000-0000-0000-000000000001" '{"WindowId":"'$WIN'","WindowTargetId":"11111111-0000-0000-0000-000000000001","ResourceType":"INSTANCE","Targets":[{"Key":"tag:Patch","Values":["yes"]}],"Name":"cli-targets"}'
awsq ssm describe-maintenance-window-targets --window-id $WIN | check "ssm describe-maintenance-window-targets" "
t, = out['Targets']
assert (t['WindowTargetId'], t['ResourceType'], t['Name'], t['Targets']) == ('11111111-0000-0000-0000-000000000001', 'INSTANCE', 'cli-targets', [{'Key': 'tag:Patch', 'Values': ['yes']}]), t
"
}

sec_autoscaling_codedeploy() {
# Auto Scaling (query protocol) and CodeDeploy (JSON 1.1).
add AWS::AutoScaling::AutoScalingGroup cli-asg '{"AutoScalingGroupName":"cli-asg","MinSize":"1","MaxSize":"2"}'
add AWS::AutoScaling::LifecycleHook "cli-asg|cli-hook" '{"AutoScalingGroupName":"cli-asg","LifecycleHookName":"cli-hook","LifecycleTransition":"autoscaling:EC2_INSTANCE_LAUNCHING"}'
for n in a1 a2 a3; do
	add AWS::AutoScaling::ScheduledAction "$n|cli-asg" '{"AutoScalingGroupName":"cli-asg","ScheduledActionName":"'$n'","Recurrence":"0 8 * * *"}'
done
awsq autoscaling describe-lifecycle-hooks --auto-scaling-group-name cli-asg | check "autoscaling describe-lifecycle-hooks" "
h, = out['LifecycleHooks']
assert h['LifecycleHookName'] == 'cli-hook' and h['LifecycleTransition'] == 'autoscaling:EC2_INSTANCE_LAUNCHING', h
"
awsq autoscaling describe-scheduled-actions --auto-scaling-group-name cli-asg --page-size 2 | check "autoscaling describe-scheduled-actions (paginated)" "
assert [a['ScheduledActionName'] for a in out['ScheduledUpdateGroupActions']] == ['a1', 'a2', 'a3'], out
"
fails "autoscaling describe-lifecycle-hooks (missing group)" "ValidationError" autoscaling describe-lifecycle-hooks --auto-scaling-group-name nope
add AWS::CodeDeploy::Application cli-app '{"ApplicationName":"cli-app"}'
add AWS::CodeDeploy::DeploymentGroup "cli-app|cli-dg" '{"ApplicationName":"cli-app","DeploymentGroupName":"cli-dg"}'
awsq deploy list-deployment-groups --application-name cli-app | check "deploy list-deployment-groups" "
assert out['deploymentGroups'] == ['cli-dg'], out
"
fails "deploy list-deployment-groups (missing application)" "ApplicationDoesNotExistException" deploy list-deployment-groups --application-name nope
}

sec_route53() {
# Route 53 (REST-XML, errors in <ErrorResponse>).
ZONE=Z0CLIZONE000001
add AWS::Route53::HostedZone $ZONE '{"Id":"'$ZONE'","Name":"cli.example."}'
add AWS::Route53::RecordSet www.cli.example '{"HostedZoneId":"'$ZONE'","Name":"www.cli.example.","Type":"A","TTL":"300","ResourceRecords":["192.0.2.1"]}'
add AWS::Route53::RecordSetGroup Cli-Records-1 '{"HostedZoneId":"'$ZONE'","RecordSets":[{"Name":"api.cli.example","Type":"CNAME","TTL":"60","SetIdentifier":"b","Weight":1,"ResourceRecords":["b.example.net"]},{"Name":"api.cli.example","Type":"CNAME","TTL":"60","SetIdentifier":"a","Weight":2,"ResourceRecords":["a.example.net"]},{"Name":"*.cli.example","Type":"TXT","TTL":"60","ResourceRecords":["\"x\""]}]}'
awsq route53 list-resource-record-sets --hosted-zone-id $ZONE --page-size 1 | check "route53 list-resource-record-sets (paginated)" "
got = [(r['Name'], r['Type'], r.get('SetIdentifier')) for r in out['ResourceRecordSets']]
assert got == [('\\\\052.cli.example.', 'TXT', None), ('api.cli.example.', 'CNAME', 'a'), ('api.cli.example.', 'CNAME', 'b'), ('www.cli.example.', 'A', None)], got
www = out['ResourceRecordSets'][3]
assert www['TTL'] == 300 and www['ResourceRecords'] == [{'Value': '192.0.2.1'}], www
assert out['ResourceRecordSets'][1]['Weight'] == 2
"
awsq route53 list-hosted-zones-by-name --dns-name cli.example | check "route53 list-hosted-zones-by-name" "
z = out['HostedZones'][0]
assert z['Id'] == '/hostedzone/$ZONE' and z['Name'] == 'cli.example.', out
"
fails "route53 list-resource-record-sets (missing zone)" "NoSuchHostedZone" route53 list-resource-record-sets --hosted-zone-id Z0NOSUCHZONE
awsq route53 change-resource-record-sets --hosted-zone-id $ZONE --change-batch '{"Changes":[{"Action":"UPSERT","ResourceRecordSet":{"Name":"www.cli.example.","Type":"A","TTL":600,"ResourceRecords":[{"Value":"192.0.2.9"}]}}]}' | check "route53 change-resource-record-sets (UPSERT)" "
ci = out['ChangeInfo']
assert ci['Status'] == 'PENDING' and ci['Id'].startswith('/change/C'), ci
open('$tmp/change', 'w').write(ci['Id'])
"
sleep 0.1
awsq route53 get-change --id "$(cat "$tmp/change")" | check "route53 get-change (INSYNC)" "
assert out['ChangeInfo']['Status'] == 'INSYNC', out
"
awsq route53 list-resource-record-sets --hosted-zone-id $ZONE --start-record-name www.cli.example --start-record-type A --max-items 1 | check "route53 list-resource-record-sets (after the UPSERT)" "
www = out['ResourceRecordSets'][0]
assert www['Name'] == 'www.cli.example.' and www['TTL'] == 600 and www['ResourceRecords'] == [{'Value': '192.0.2.9'}], www
"
fails "route53 change-resource-record-sets (CREATE of an existing record)" "InvalidChangeBatch" route53 change-resource-record-sets --hosted-zone-id $ZONE --change-batch '{"Changes":[{"Action":"CREATE","ResourceRecordSet":{"Name":"www.cli.example.","Type":"A","TTL":60,"ResourceRecords":[{"Value":"192.0.2.1"}]}}]}'
fails "route53 get-change (unknown change)" "NoSuchChange" route53 get-change --id CNOSUCH-CHANGE
}

sec_acm() {
# Certificate Manager (JSON 1.1).
CERT=arn:aws:acm:us-east-1:$DEV:certificate/0a1b2c3d-0000-4000-8000-00000000c11
add AWS::CertificateManager::Certificate $CERT '{"DomainName":"cli.example","SubjectAlternativeNames":["*.cli.example"],"ValidationMethod":"DNS","Tags":[{"Key":"team","Value":"cli"}]}'
awsq acm describe-certificate --certificate-arn $CERT | check "acm describe-certificate" "
c = out['Certificate']
assert c['CertificateArn'] == '$CERT' and c['DomainName'] == 'cli.example', c
assert c['SubjectAlternativeNames'] == ['cli.example', '*.cli.example'], c
assert c['KeyAlgorithm'] == 'RSA-2048' and c['Status'] == 'ISSUED', c
assert [d['ValidationMethod'] for d in c['DomainValidationOptions']] == ['DNS', 'DNS'], c
"
awsq acm list-tags-for-certificate --certificate-arn $CERT | check "acm list-tags-for-certificate" "
assert out['Tags'] == [{'Key': 'team', 'Value': 'cli'}], out
"
fails "acm describe-certificate (missing certificate)" "ResourceNotFoundException" acm describe-certificate --certificate-arn arn:aws:acm:us-east-1:$DEV:certificate/0a1b2c3d-0000-4000-8000-000000000000
}

sec_codebuild() {
# CodeBuild (JSON 1.1).
add AWS::CodeBuild::Project cli-build '{"Name":"cli-build","ServiceRole":"arn:aws:iam::'$DEV':role/cli","Source":{"Type":"NO_SOURCE","BuildSpec":"version: 0.2"},"Artifacts":{"Type":"NO_ARTIFACTS"},"Environment":{"Type":"LINUX_CONTAINER","ComputeType":"BUILD_GENERAL1_SMALL","Image":"aws/codebuild/standard:7.0","EnvironmentVariables":[{"Name":"A","Value":"1","Type":"PLAINTEXT"}]},"BadgeEnabled":false,"Visibility":"PRIVATE"}'
RG=arn:aws:codebuild:us-east-1:$DEV:report-group/cli-tests
add AWS::CodeBuild::ReportGroup $RG '{"Name":"cli-tests","Type":"TEST","ExportConfig":{"ExportConfigType":"NO_EXPORT"}}'
awsq codebuild batch-get-projects --names cli-build nope | check "codebuild batch-get-projects" "
p, = out['projects']
assert p['name'] == 'cli-build' and p['arn'] == 'arn:aws:codebuild:us-east-1:$DEV:project/cli-build', p
assert p['source'] == {'type': 'NO_SOURCE', 'buildspec': 'version: 0.2'}, p
assert p['environment']['environmentVariables'] == [{'name': 'A', 'value': '1', 'type': 'PLAINTEXT'}], p
assert p['badge'] == {'badgeEnabled': False} and p['projectVisibility'] == 'PRIVATE', p
assert out['projectsNotFound'] == ['nope'], out
"
awsq codebuild batch-get-report-groups --report-group-arns $RG | check "codebuild batch-get-report-groups" "
g, = out['reportGroups']
assert g['arn'] == '$RG' and g['type'] == 'TEST' and g['exportConfig'] == {'exportConfigType': 'NO_EXPORT'}, g
"
fails "codebuild batch-get-report-groups (not an ARN)" "InvalidInputException" codebuild batch-get-report-groups --report-group-arns nope
}

sec_ec2_launch_templates() {
# EC2 launch templates (EC2 query).
LT=lt-0c11c11c11c11c11c
add AWS::EC2::LaunchTemplate $LT '{"LaunchTemplateName":"cli-lt","LaunchTemplateId":"'$LT'","DefaultVersionNumber":"1","LaunchTemplateData":{"InstanceType":"t3.micro","SecurityGroupIds":["sg-0aaaaaaaaaaaaaaaa"],"BlockDeviceMappings":[{"DeviceName":"/dev/xvda","Ebs":{"VolumeSize":8}}]}}'
awsq ec2 describe-launch-template-versions --launch-template-id $LT --versions '$Default' | check "ec2 describe-launch-template-versions" "
v, = out['LaunchTemplateVersions']
assert v['LaunchTemplateId'] == '$LT' and v['VersionNumber'] == 1 and v['DefaultVersion'] is True, v
d = v['LaunchTemplateData']
assert d['InstanceType'] == 't3.micro' and d['SecurityGroupIds'] == ['sg-0aaaaaaaaaaaaaaaa'], d
assert d['BlockDeviceMappings'] == [{'DeviceName': '/dev/xvda', 'Ebs': {'VolumeSize': 8}}], d
"
fails "ec2 describe-launch-template-versions (missing template)" "InvalidLaunchTemplateId.NotFound" ec2 describe-launch-template-versions --launch-template-id lt-00000000000000000
}

sec_iam_access_keys() {
# IAM access keys (query/XML): metadata only, never a secret.
add AWS::IAM::User cli-deployer '{"UserName":"cli-deployer"}'
for k in AKIACLIKEY0000000001 AKIACLIKEY0000000002 AKIACLIKEY0000000003; do
	add AWS::IAM::AccessKey $k '{"UserName":"cli-deployer","Status":"Active"}'
done
awsq iam list-access-keys --user-name cli-deployer --page-size 2 | check "iam list-access-keys (paginated)" "
assert [(k['AccessKeyId'], k['Status'], k['UserName']) for k in out['AccessKeyMetadata']] == [('AKIACLIKEY000000000%d' % i, 'Active', 'cli-deployer') for i in (1, 2, 3)], out
assert not any('SecretAccessKey' in k for k in out['AccessKeyMetadata'])
"
fails "iam list-access-keys (missing user)" "NoSuchEntity" iam list-access-keys --user-name cli-nobody
}

sec_iam_attachments() {
# IAM managed-policy attachments (the revert writers' calls).
add AWS::IAM::Role cli-attach '{"RoleName":"cli-attach","ManagedPolicyArns":["arn:aws:iam::aws:policy/ReadOnlyAccess"]}'
add AWS::IAM::ManagedPolicy arn:aws:iam::$DEV:policy/cli-owned '{"ManagedPolicyName":"cli-owned","PolicyArn":"arn:aws:iam::'$DEV':policy/cli-owned","PolicyDocument":{"Version":"2012-10-17","Statement":[]},"Roles":["cli-attach"]}'
awsq iam attach-role-policy --role-name cli-attach --policy-arn arn:aws:iam::aws:policy/AdministratorAccess | check "iam attach-role-policy" "
assert out is None, out
"
awsq iam list-attached-role-policies --role-name cli-attach | check "iam list-attached-role-policies" "
got = sorted((p['PolicyName'], p['PolicyArn']) for p in out['AttachedPolicies'])
assert got == [('AdministratorAccess', 'arn:aws:iam::aws:policy/AdministratorAccess'), ('ReadOnlyAccess', 'arn:aws:iam::aws:policy/ReadOnlyAccess'), ('cli-owned', 'arn:aws:iam::$DEV:policy/cli-owned')], got
"
awsq iam detach-role-policy --role-name cli-attach --policy-arn arn:aws:iam::$DEV:policy/cli-owned | check "iam detach-role-policy" "
assert out is None, out
"
awsq iam list-attached-role-policies --role-name cli-attach | check "iam list-attached-role-policies (after the detach)" "
assert sorted(p['PolicyName'] for p in out['AttachedPolicies']) == ['AdministratorAccess', 'ReadOnlyAccess'], out
"
fails "iam detach-role-policy (not attached)" "NoSuchEntity" iam detach-role-policy --role-name cli-attach --policy-arn arn:aws:iam::$DEV:policy/cli-owned
fails "iam attach-role-policy (missing policy)" "NoSuchEntity" iam attach-role-policy --role-name cli-attach --policy-arn arn:aws:iam::$DEV:policy/nope
}

sec_iam_users_groups() {
# IAM users', groups' and roles' inline policies and attachments, and a managed
# policy's versions and entities (query/XML).
add AWS::IAM::User cli-pol-user '{"UserName":"cli-pol-user","UserId":"AIDACLIPOLUSER000001"}'
add AWS::IAM::Group cli-pol-group '{"GroupName":"cli-pol-group","GroupId":"AGPACLIPOLGROUP00001"}'
add AWS::IAM::Role cli-pol-role '{"RoleName":"cli-pol-role","RoleId":"AROACLIPOLROLE000001"}'
doc='{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"*"}]}'
for k in user group role; do
	K=${k^}
	awsq iam put-$k-policy --$k-name cli-pol-$k --policy-name cli-inline --policy-document "$doc" | check "iam put-$k-policy" "
assert out is None, out
"
	awsq iam get-$k-policy --$k-name cli-pol-$k --policy-name cli-inline | check "iam get-$k-policy" "
assert out['${K}Name'] == 'cli-pol-$k' and out['PolicyName'] == 'cli-inline', out
doc = out['PolicyDocument']
if isinstance(doc, str):
    import urllib.parse
    doc = json.loads(urllib.parse.unquote(doc))
assert doc['Statement'][0]['Action'] == 's3:GetObject', doc
"
	awsq iam delete-$k-policy --$k-name cli-pol-$k --policy-name cli-inline | check "iam delete-$k-policy" "
assert out is None, out
"
	fails "iam get-$k-policy (after the delete)" "NoSuchEntity" iam get-$k-policy --$k-name cli-pol-$k --policy-name cli-inline
	fails "iam put-$k-policy (missing $k)" "NoSuchEntity" iam put-$k-policy --$k-name cli-nobody --policy-name cli-inline --policy-document "$doc"
	awsq iam attach-$k-policy --$k-name cli-pol-$k --policy-arn arn:aws:iam::aws:policy/ReadOnlyAccess | check "iam attach-$k-policy" "
assert out is None, out
"
	awsq iam list-attached-$k-policies --$k-name cli-pol-$k | check "iam list-attached-$k-policies" "
assert [(p['PolicyName'], p['PolicyArn']) for p in out['AttachedPolicies']] == [('ReadOnlyAccess', 'arn:aws:iam::aws:policy/ReadOnlyAccess')], out
"
	awsq iam detach-$k-policy --$k-name cli-pol-$k --policy-arn arn:aws:iam::aws:policy/ReadOnlyAccess | check "iam detach-$k-policy" "
assert out is None, out
"
	awsq iam list-attached-$k-policies --$k-name cli-pol-$k | check "iam list-attached-$k-policies (after the detach)" "
assert out['AttachedPolicies'] == [], out
"
done
arn=arn:aws:iam::$DEV:policy/cli-versioned
add AWS::IAM::ManagedPolicy "$arn" '{"ManagedPolicyName":"cli-versioned","PolicyArn":"'"$arn"'","PolicyDocument":'"$doc"',"Users":["cli-pol-user"],"Groups":["cli-pol-group"]}'
awsq iam get-policy --policy-arn "$arn" | check "iam get-policy" "
p = out['Policy']
assert (p['PolicyName'], p['Arn'], p['DefaultVersionId'], p['AttachmentCount'], p['Path']) == ('cli-versioned', '$arn', 'v1', 2, '/'), p
"
awsq iam list-entities-for-policy --policy-arn "$arn" | check "iam list-entities-for-policy" "
assert [u['UserName'] for u in out['PolicyUsers']] == ['cli-pol-user'], out
assert [g['GroupName'] for g in out['PolicyGroups']] == ['cli-pol-group'], out
assert out['PolicyRoles'] == [], out
"
doc2='{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:ListBucket","Resource":"*"}]}'
awsq iam create-policy-version --policy-arn "$arn" --policy-document "$doc2" --set-as-default | check "iam create-policy-version" "
v = out['PolicyVersion']
assert (v['VersionId'], v['IsDefaultVersion']) == ('v2', True), v
"
awsq iam get-policy-version --policy-arn "$arn" --version-id v2 | check "iam get-policy-version" "
v = out['PolicyVersion']
doc = v['Document']
if isinstance(doc, str):
    import urllib.parse
    doc = json.loads(urllib.parse.unquote(doc))
assert v['VersionId'] == 'v2' and doc['Statement'][0]['Action'] == 's3:ListBucket', v
"
awsq iam list-policy-versions --policy-arn "$arn" | check "iam list-policy-versions" "
assert [(v['VersionId'], v['IsDefaultVersion']) for v in out['Versions']] == [('v2', True), ('v1', False)], out
"
fails "iam delete-policy-version (the default)" "DeleteConflict" iam delete-policy-version --policy-arn "$arn" --version-id v2
awsq iam delete-policy-version --policy-arn "$arn" --version-id v1 | check "iam delete-policy-version" "
assert out is None, out
"
awsq iam list-policy-versions --policy-arn "$arn" | check "iam list-policy-versions (after the delete)" "
assert [v['VersionId'] for v in out['Versions']] == ['v2'], out
"
fails "iam get-policy (missing)" "NoSuchEntity" iam get-policy --policy-arn arn:aws:iam::$DEV:policy/cli-nope
}
sec_lambda_children() {
# Lambda (REST-JSON): a function's aliases, event source mappings, URL
# configurations and resource-policy writes, out of band.
fn=cli-children
farn=arn:aws:lambda:us-east-1:$DEV:function:$fn
add AWS::Lambda::Function $fn '{"FunctionName":"'$fn'","Arn":"'$farn'","Role":"arn:aws:iam::'$DEV':role/cli","Runtime":"python3.12","Handler":"index.handler"}'
add AWS::Lambda::Alias "$farn:live" '{"FunctionName":"'$fn'","Name":"live","FunctionVersion":"1","AliasArn":"'$farn':live"}'
add AWS::Lambda::EventSourceMapping 6f1b6a8e-0c1d-4c1e-9a1b-0c1c1c1c1c1c '{"Id":"6f1b6a8e-0c1d-4c1e-9a1b-0c1c1c1c1c1c","FunctionName":"'$fn'","EventSourceArn":"arn:aws:sqs:us-east-1:'$DEV':cli-q","BatchSize":5,"Enabled":false}'
add AWS::Lambda::Url "$farn" '{"TargetFunctionArn":"'$fn'","FunctionArn":"'$farn'","FunctionUrl":"https://cli.lambda-url.us-east-1.on.aws/","AuthType":"AWS_IAM"}'
awsq lambda list-aliases --function-name $fn | check "lambda list-aliases" "
assert [(a['Name'], a['FunctionVersion'], a['AliasArn']) for a in out['Aliases']] == [('live', '1', '$farn:live')], out
"
awsq lambda list-event-source-mappings --function-name $fn | check "lambda list-event-source-mappings" "
m = out['EventSourceMappings']
assert [(x['UUID'], x['State'], x['BatchSize'], x['FunctionArn']) for x in m] == [('6f1b6a8e-0c1d-4c1e-9a1b-0c1c1c1c1c1c', 'Disabled', 5, '$farn')], m
"
awsq lambda list-function-url-configs --function-name $fn | check "lambda list-function-url-configs" "
u = out['FunctionUrlConfigs']
assert [(x['FunctionUrl'], x['AuthType'], x['FunctionArn']) for x in u] == [('https://cli.lambda-url.us-east-1.on.aws/', 'AWS_IAM', '$farn')], u
"
awsq lambda add-permission --function-name $fn --statement-id cli-events --action lambda:InvokeFunction --principal events.amazonaws.com | check "lambda add-permission" "
st = json.loads(out['Statement'])
assert st['Sid'] == 'cli-events' and st['Principal'] == {'Service': 'events.amazonaws.com'} and st['Resource'] == '$farn', st
"
fails "lambda add-permission (the statement id again)" "ResourceConflictException" lambda add-permission --function-name $fn --statement-id cli-events --action lambda:InvokeFunction --principal events.amazonaws.com
awsq lambda get-policy --function-name $fn | check "lambda get-policy (after add-permission)" "
assert [x['Sid'] for x in json.loads(out['Policy'])['Statement']] == ['cli-events'], out
"
awsq lambda remove-permission --function-name $fn --statement-id cli-events | check "lambda remove-permission" "
assert out is None, out
"
fails "lambda remove-permission (gone)" "ResourceNotFoundException" lambda remove-permission --function-name $fn --statement-id cli-events
fails "lambda list-aliases (missing function)" "ResourceNotFoundException" lambda list-aliases --function-name cli-nope
}
sec_sns_writes() {
# SNS (query/XML): attribute writes, subscriptions listed and removed, a publish.
topic=arn:aws:sns:us-east-1:$DEV:cli-topic
add AWS::SNS::Topic "$topic" '{"TopicName":"cli-topic","TopicArn":"'"$topic"'"}'
add AWS::SNS::Subscription "$topic:0b0b0b0b-1111-2222-3333-444444444444" '{"TopicArn":"'"$topic"'","Protocol":"sqs","Endpoint":"arn:aws:sqs:us-east-1:'$DEV':cli-q"}'
awsq sns set-topic-attributes --topic-arn "$topic" --attribute-name DisplayName --attribute-value "CLI topic" | check "sns set-topic-attributes" "
assert out is None, out
"
awsq sns get-topic-attributes --topic-arn "$topic" | check "sns get-topic-attributes (after the write)" "
assert out['Attributes']['DisplayName'] == 'CLI topic' and out['Attributes']['SubscriptionsConfirmed'] == '1', out
"
fails "sns set-topic-attributes (not writable)" "InvalidParameter" sns set-topic-attributes --topic-arn "$topic" --attribute-name Owner --attribute-value x
awsq sns list-subscriptions-by-topic --topic-arn "$topic" | check "sns list-subscriptions-by-topic" "
assert [(x['SubscriptionArn'], x['Protocol'], x['Endpoint']) for x in out['Subscriptions']] == [('$topic:0b0b0b0b-1111-2222-3333-444444444444', 'sqs', 'arn:aws:sqs:us-east-1:$DEV:cli-q')], out
"
awsq sns unsubscribe --subscription-arn "$topic:0b0b0b0b-1111-2222-3333-444444444444" | check "sns unsubscribe" "
assert out is None, out
"
awsq sns list-subscriptions-by-topic --topic-arn "$topic" | check "sns list-subscriptions-by-topic (after unsubscribe)" "
assert out['Subscriptions'] == [], out
"
fails "sns unsubscribe (gone)" "NotFound" sns unsubscribe --subscription-arn "$topic:0b0b0b0b-1111-2222-3333-444444444444"
awsq sns publish --topic-arn "$topic" --subject drift --message "stack drifted" --message-attributes '{"severity":{"DataType":"String","StringValue":"high"}}' | check "sns publish" "
assert len(out['MessageId']) == 36, out
"
fails "sns publish (no message)" "InvalidParameter" sns publish --topic-arn "$topic" --message ""
fails "sns publish (no topic)" "NotFound" sns publish --topic-arn "arn:aws:sns:us-east-1:$DEV:cli-none" --message x
}
sec_s3_bucket_policy() {
# S3 (REST-XML): a bucket policy written, read back and deleted.
add AWS::S3::Bucket cli-policy-bucket '{"BucketName":"cli-policy-bucket"}'
pol='{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Principal":"*","Action":"s3:*","Resource":"arn:aws:s3:::cli-policy-bucket/*","Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}'
awsq s3api put-bucket-policy --bucket cli-policy-bucket --policy "$pol" | check "s3api put-bucket-policy" "
assert out is None, out
"
awsq s3api get-bucket-policy --bucket cli-policy-bucket | check "s3api get-bucket-policy (after the put)" "
assert json.loads(out['Policy']) == json.loads('$pol'), out
"
awsq s3api delete-bucket-policy --bucket cli-policy-bucket | check "s3api delete-bucket-policy" "
assert out is None, out
"
fails "s3api get-bucket-policy (after the delete)" "NoSuchBucketPolicy" s3api get-bucket-policy --bucket cli-policy-bucket
}
sec_scheduler() {
# EventBridge Scheduler (REST-JSON).
add AWS::Scheduler::Schedule cli-nightly '{"Name":"cli-nightly","ScheduleExpression":"cron(0 2 * * ? *)","FlexibleTimeWindow":{"Mode":"OFF"},"StartDate":"2030-01-01T00:00:00Z","Target":{"Arn":"arn:aws:sqs:us-east-1:'$DEV':cli","RoleArn":"arn:aws:iam::'$DEV':role/cli"}}'
awsq scheduler get-schedule --name cli-nightly | check "scheduler get-schedule" "
assert out['Name'] == 'cli-nightly' and out['GroupName'] == 'default' and out['State'] == 'ENABLED', out
assert out['Arn'] == 'arn:aws:scheduler:us-east-1:$DEV:schedule/default/cli-nightly', out
assert out['Target']['RetryPolicy'] == {'MaximumEventAgeInSeconds': 86400, 'MaximumRetryAttempts': 185}, out
assert out['StartDate'].startswith('2030-01-01T00:00:00'), out
"
fails "scheduler get-schedule (other group)" "ResourceNotFoundException" scheduler get-schedule --name cli-nightly --group-name other
}

sec_config() {
# AWS Config (JSON 1.1).
add AWS::Config::ConfigurationRecorder cli-recorder '{"Name":"cli-recorder","RoleARN":"arn:aws:iam::'$DEV':role/config","RecordingGroup":{"AllSupported":true,"IncludeGlobalResourceTypes":true},"RecordingMode":{"RecordingFrequency":"DAILY"}}'
add AWS::Config::DeliveryChannel cli-channel '{"Name":"cli-channel","S3BucketName":"cli-config","ConfigSnapshotDeliveryProperties":{"DeliveryFrequency":"One_Hour"}}'
awsq configservice describe-configuration-recorders --configuration-recorder-names cli-recorder | check "configservice describe-configuration-recorders" "
r, = out['ConfigurationRecorders']
assert r['name'] == 'cli-recorder' and r['roleARN'] == 'arn:aws:iam::$DEV:role/config', r
assert r['recordingGroup'] == {'allSupported': True, 'includeGlobalResourceTypes': True}, r
# recordingMode is newer than some CLI models (they drop the member): checked when the CLI knows it.
assert r.get('recordingMode', {'recordingFrequency': 'DAILY'}) == {'recordingFrequency': 'DAILY'}, r
"
awsq configservice describe-delivery-channels | check "configservice describe-delivery-channels" "
assert out['DeliveryChannels'] == [{'name': 'cli-channel', 's3BucketName': 'cli-config', 'configSnapshotDeliveryProperties': {'deliveryFrequency': 'One_Hour'}}], out
"
fails "configservice describe-configuration-recorders (missing)" "NoSuchConfigurationRecorderException" configservice describe-configuration-recorders --configuration-recorder-names nope
}

sec_cloudmap() {
# Cloud Map (JSON 1.1).
NS=ns-c11c11c11c11c11c
add AWS::ServiceDiscovery::PublicDnsNamespace $NS '{"Name":"cli.example","Id":"'$NS'","Arn":"arn:aws:servicediscovery:us-east-1:'$DEV':namespace/'$NS'","HostedZoneId":"Z0CLIPUBLIC0001","Tags":[{"Key":"team","Value":"cli"}]}'
add AWS::ServiceDiscovery::Service srv-c11c11c11c11c11c '{"Name":"api","NamespaceId":"'$NS'","Id":"srv-c11c11c11c11c11c","DnsConfig":{"RoutingPolicy":"WEIGHTED","DnsRecords":[{"Type":"CNAME","TTL":30}]}}'
awsq servicediscovery get-namespace --id $NS | check "servicediscovery get-namespace" "
n = out['Namespace']
assert n['Id'] == '$NS' and n['Type'] == 'DNS_PUBLIC' and n['Properties']['DnsProperties']['HostedZoneId'] == 'Z0CLIPUBLIC0001', n
"
awsq servicediscovery get-service --id srv-c11c11c11c11c11c | check "servicediscovery get-service" "
s = out['Service']
assert s['Name'] == 'api' and s['DnsConfig'] == {'RoutingPolicy': 'WEIGHTED', 'DnsRecords': [{'Type': 'CNAME', 'TTL': 30}]}, s
"
awsq servicediscovery list-tags-for-resource --resource-arn arn:aws:servicediscovery:us-east-1:$DEV:namespace/$NS | check "servicediscovery list-tags-for-resource" "
assert out['Tags'] == [{'Key': 'team', 'Value': 'cli'}], out
"
fails "servicediscovery get-namespace (missing)" "NamespaceNotFound" servicediscovery get-namespace --id ns-00000000000000000
}

sec_elbv2() {
# Elastic Load Balancing v2 (query/XML).
LSN=arn:aws:elasticloadbalancing:us-east-1:$DEV:listener/app/cli/0123456789abcdef/0123456789abcdef
add AWS::ElasticLoadBalancingV2::Listener $LSN '{"ListenerArn":"'$LSN'","Port":443,"Protocol":"HTTPS","Certificates":[{"CertificateArn":"arn:aws:acm:us-east-1:'$DEV':certificate/d"}]}'
add AWS::ElasticLoadBalancingV2::ListenerCertificate Cli-Certs-1 '{"ListenerArn":"'$LSN'","Certificates":[{"CertificateArn":"arn:aws:acm:us-east-1:'$DEV':certificate/a"},{"CertificateArn":"arn:aws:acm:us-east-1:'$DEV':certificate/b"}]}'
awsq elbv2 describe-listener-certificates --listener-arn $LSN | check "elbv2 describe-listener-certificates" "
got = [(c['CertificateArn'].rsplit('/', 1)[1], c['IsDefault']) for c in out['Certificates']]
assert got == [('d', True), ('a', False), ('b', False)], got
"
# The CLI has no paginator for this operation: one page of one, and its marker.
awsq elbv2 describe-listener-certificates --listener-arn $LSN --page-size 1 | check "elbv2 describe-listener-certificates (one page)" "
assert [c['CertificateArn'].rsplit('/', 1)[1] for c in out['Certificates']] == ['d'] and out['NextMarker'], out
"
fails "elbv2 describe-listener-certificates (missing listener)" "ListenerNotFound" elbv2 describe-listener-certificates --listener-arn ${LSN}0
LB=arn:aws:elasticloadbalancing:us-east-1:$DEV:loadbalancer/app/cli/0123456789abcdef
add AWS::ElasticLoadBalancingV2::LoadBalancer $LB '{"LoadBalancerArn":"'$LB'","Type":"application","LoadBalancerAttributes":[{"Key":"idle_timeout.timeout_seconds","Value":"60"},{"Key":"deletion_protection.enabled","Value":"false"}]}'
awsq elbv2 modify-load-balancer-attributes --load-balancer-arn $LB --attributes Key=idle_timeout.timeout_seconds,Value=120 | check "elbv2 modify-load-balancer-attributes" "
assert {a['Key']: a['Value'] for a in out['Attributes']} == {'idle_timeout.timeout_seconds': '120', 'deletion_protection.enabled': 'false'}, out
"
fails "elbv2 modify-load-balancer-attributes (missing load balancer)" "LoadBalancerNotFound" elbv2 modify-load-balancer-attributes --load-balancer-arn ${LB}0 --attributes Key=idle_timeout.timeout_seconds,Value=120
TG=arn:aws:elasticloadbalancing:us-east-1:$DEV:targetgroup/cli/0123456789abcdef
add AWS::ElasticLoadBalancingV2::TargetGroup $TG '{"TargetGroupArn":"'$TG'","TargetGroupAttributes":[{"Key":"deregistration_delay.timeout_seconds","Value":"300"}]}'
awsq elbv2 modify-target-group-attributes --target-group-arn $TG --attributes Key=deregistration_delay.timeout_seconds,Value=30 | check "elbv2 modify-target-group-attributes" "
assert {a['Key']: a['Value'] for a in out['Attributes']} == {'deregistration_delay.timeout_seconds': '30'}, out
"
fails "elbv2 modify-target-group-attributes (missing target group)" "TargetGroupNotFound" elbv2 modify-target-group-attributes --target-group-arn ${TG}0 --attributes Key=deregistration_delay.timeout_seconds,Value=30
}

sec_elasticache() {
# ElastiCache (query/XML: <CacheParameterGroup>, <Parameter>, <Tag> list items).
add AWS::ElastiCache::ParameterGroup cli-redis '{"CacheParameterGroupName":"cli-redis","CacheParameterGroupFamily":"redis7","Description":"cli","Properties":{"timeout":"300"},"Tags":[{"Key":"team","Value":"cli"}]}'
awsq elasticache describe-cache-parameter-groups --cache-parameter-group-name cli-redis | check "elasticache describe-cache-parameter-groups" "
g, = out['CacheParameterGroups']
assert g['CacheParameterGroupFamily'] == 'redis7' and g['ARN'] == 'arn:aws:elasticache:us-east-1:$DEV:parametergroup:cli-redis', g
"
awsq elasticache describe-cache-parameters --cache-parameter-group-name cli-redis --source user | check "elasticache describe-cache-parameters" "
assert [(p['ParameterName'], p['ParameterValue'], p['Source']) for p in out['Parameters']] == [('timeout', '300', 'user')], out
"
awsq elasticache list-tags-for-resource --resource-name arn:aws:elasticache:us-east-1:$DEV:parametergroup:cli-redis | check "elasticache list-tags-for-resource" "
assert out['TagList'] == [{'Key': 'team', 'Value': 'cli'}], out
"
fails "elasticache describe-cache-parameters (missing group)" "CacheParameterGroupNotFound" elasticache describe-cache-parameters --cache-parameter-group-name nope
add AWS::ElastiCache::ReplicationGroup cli-rg '{"ReplicationGroupId":"cli-rg","ReplicationGroupDescription":"cli","NumCacheClusters":2,"EngineVersion":"7.1","PreferredMaintenanceWindow":"sun:05:00-sun:06:00","NotificationTopicArn":"arn:aws:sns:us-east-1:'$DEV':cli"}'
add AWS::ElastiCache::User cli-user '{"UserId":"cli-user","UserName":"cli","Engine":"redis","AccessString":"on ~* +@read"}'
awsq elasticache describe-replication-groups --replication-group-id cli-rg | check "elasticache describe-replication-groups" "
g, = out['ReplicationGroups']
assert g['ReplicationGroupId'] == 'cli-rg' and g['MemberClusters'] == ['cli-rg-001', 'cli-rg-002'], g
"
awsq elasticache describe-cache-clusters --cache-cluster-id cli-rg-002 | check "elasticache describe-cache-clusters" "
c, = out['CacheClusters']
assert (c['EngineVersion'], c['PreferredMaintenanceWindow'], c['NotificationConfiguration']['TopicArn']) == ('7.1', 'sun:05:00-sun:06:00', 'arn:aws:sns:us-east-1:$DEV:cli'), c
"
awsq elasticache describe-users --user-id cli-user | check "elasticache describe-users" "
u, = out['Users']
assert (u['UserId'], u['AccessString']) == ('cli-user', 'on ~* +@read'), u
"
fails "elasticache describe-users (missing)" "UserNotFound" elasticache describe-users --user-id nope
fails "elasticache describe-replication-groups (missing)" "ReplicationGroupNotFoundFault" elasticache describe-replication-groups --replication-group-id nope
}

sec_dax() {
# DAX (JSON 1.1).
add AWS::DAX::Cluster cli-dax '{"ClusterName":"cli-dax","NodeType":"dax.t3.small","IAMRoleARN":"arn:aws:iam::'$DEV':role/dax","SubnetGroupName":"cli-dax-subnets","SecurityGroupIds":["sg-0aaaaaaaaaaaaaaaa"],"Tags":{"team":"cli"}}'
add AWS::DAX::SubnetGroup cli-dax-subnets '{"SubnetGroupName":"cli-dax-subnets","SubnetIds":["subnet-0aaaaaaaaaaaaaaaa"]}'
awsq dax describe-clusters --cluster-names cli-dax | check "dax describe-clusters" "
c, = out['Clusters']
assert c['ClusterArn'] == 'arn:aws:dax:us-east-1:$DEV:cache/cli-dax' and c['IamRoleArn'] == 'arn:aws:iam::$DEV:role/dax' and c['SubnetGroup'] == 'cli-dax-subnets', c
assert c['SecurityGroups'] == [{'SecurityGroupIdentifier': 'sg-0aaaaaaaaaaaaaaaa', 'Status': 'active'}], c
"
awsq dax list-tags --resource-name arn:aws:dax:us-east-1:$DEV:cache/cli-dax | check "dax list-tags" "
assert out['Tags'] == [{'Key': 'team', 'Value': 'cli'}], out
"
awsq dax describe-subnet-groups --subnet-group-names cli-dax-subnets | check "dax describe-subnet-groups" "
assert out['SubnetGroups'] == [{'SubnetGroupName': 'cli-dax-subnets', 'Subnets': [{'SubnetIdentifier': 'subnet-0aaaaaaaaaaaaaaaa'}]}], out
"
fails "dax describe-clusters (missing cluster)" "ClusterNotFoundFault" dax describe-clusters --cluster-names nope
add AWS::DAX::ParameterGroup cli-dax-params '{"ParameterGroupName":"cli-dax-params","Description":"cli","ParameterNameValues":{"query-ttl-millis":"600000","record-ttl-millis":"300000"}}'
awsq dax describe-parameter-groups --parameter-group-names cli-dax-params | check "dax describe-parameter-groups" "
assert out['ParameterGroups'] == [{'ParameterGroupName': 'cli-dax-params', 'Description': 'cli'}], out
"
awsq dax describe-parameters --parameter-group-name cli-dax-params | check "dax describe-parameters" "
assert [(p['ParameterName'], p['ParameterValue']) for p in out['Parameters']] == [('query-ttl-millis', '600000'), ('record-ttl-millis', '300000')], out
"
fails "dax describe-parameters (missing group)" "ParameterGroupNotFoundFault" dax describe-parameters --parameter-group-name cli-nope
}

sec_ses() {
# SES v1 (query/XML).
add AWS::SES::ReceiptFilter cli-block '{"Filter":{"Name":"cli-block","IpFilter":{"Policy":"Block","Cidr":"203.0.113.0/24"}}}'
add AWS::SES::ReceiptRuleSet cli-inbound '{"RuleSetName":"cli-inbound"}'
add AWS::SES::ReceiptRule cli-store '{"RuleSetName":"cli-inbound","Rule":{"Name":"cli-store","Enabled":true,"Recipients":["a@cli.example"],"Actions":[{"S3Action":{"BucketName":"cli-mail"}}]}}'
add AWS::SES::ConfigurationSetEventDestination cli-dest '{"ConfigurationSetName":"cli-mail","EventDestination":{"Name":"cli-sns","Enabled":true,"MatchingEventTypes":["bounce"],"SnsDestination":{"TopicARN":"arn:aws:sns:us-east-1:'$DEV':mail"}}}'
awsq ses list-receipt-filters | check "ses list-receipt-filters" "
assert out['Filters'] == [{'Name': 'cli-block', 'IpFilter': {'Policy': 'Block', 'Cidr': '203.0.113.0/24'}}], out
"
awsq ses describe-receipt-rule --rule-set-name cli-inbound --rule-name cli-store | check "ses describe-receipt-rule" "
r = out['Rule']
assert r['Name'] == 'cli-store' and r['Enabled'] is True and r['Recipients'] == ['a@cli.example'] and r['Actions'] == [{'S3Action': {'BucketName': 'cli-mail'}}], r
"
awsq ses describe-receipt-rule-set --rule-set-name cli-inbound | check "ses describe-receipt-rule-set" "
assert out['Metadata']['Name'] == 'cli-inbound' and [r['Name'] for r in out['Rules']] == ['cli-store'], out
"
awsq ses describe-configuration-set --configuration-set-name cli-mail --configuration-set-attribute-names eventDestinations | check "ses describe-configuration-set" "
d, = out['EventDestinations']
assert d['Name'] == 'cli-sns' and d['SNSDestination'] == {'TopicARN': 'arn:aws:sns:us-east-1:$DEV:mail'} and d['MatchingEventTypes'] == ['bounce'], out
"
fails "ses describe-receipt-rule-set (missing)" "RuleSetDoesNotExist" ses describe-receipt-rule-set --rule-set-name nope
}

sec_glue() {
# Glue (JSON 1.1).
add AWS::Glue::Classifier cli-csv '{"CsvClassifier":{"Name":"cli-csv","Delimiter":",","ContainsHeader":"PRESENT","Header":["a","b"]}}'
add AWS::Glue::Workflow cli-etl '{"Name":"cli-etl","MaxConcurrentRuns":2,"Tags":{"team":"cli"}}'
awsq glue get-classifier --name cli-csv | check "glue get-classifier" "
c = out['Classifier']['CsvClassifier']
assert c['Name'] == 'cli-csv' and c['Delimiter'] == ',' and c['Header'] == ['a', 'b'] and c['ContainsHeader'] == 'PRESENT', out
"
awsq glue get-workflow --name cli-etl | check "glue get-workflow" "
assert out['Workflow']['Name'] == 'cli-etl' and out['Workflow']['MaxConcurrentRuns'] == 2, out
"
awsq glue get-tags --resource-arn arn:aws:glue:us-east-1:$DEV:workflow/cli-etl | check "glue get-tags" "
assert out['Tags'] == {'team': 'cli'}, out
"
add AWS::Glue::Connection cli-jdbc '{"ConnectionInput":{"Name":"cli-jdbc","ConnectionType":"JDBC","ConnectionProperties":{"USERNAME":"cli","PASSWORD":"never-shown"}}}'
add AWS::Glue::SecurityConfiguration cli-sec '{"Name":"cli-sec","EncryptionConfiguration":{"S3Encryptions":[{"S3EncryptionMode":"SSE-S3"}]}}'
awsq glue get-connection --name cli-jdbc --hide-password | check "glue get-connection (password hidden)" "
c = out['Connection']
assert c['Name'] == 'cli-jdbc' and c['ConnectionType'] == 'JDBC' and c['ConnectionProperties'] == {'USERNAME': 'cli'}, out
"
awsq glue get-security-configuration --name cli-sec | check "glue get-security-configuration" "
assert out['SecurityConfiguration']['EncryptionConfiguration'] == {'S3Encryption': [{'S3EncryptionMode': 'SSE-S3'}]}, out
"
fails "glue get-classifier (missing)" "EntityNotFoundException" glue get-classifier --name nope
add AWS::Glue::Database cli_db '{"DatabaseName":"cli_db","DatabaseInput":{"Name":"cli_db"}}'
add AWS::Glue::Table cli_b '{"DatabaseName":"cli_db","TableInput":{"Name":"cli_b","TableType":"EXTERNAL_TABLE"}}'
add AWS::Glue::Table cli_a '{"DatabaseName":"cli_db","TableInput":{"Name":"cli_a","Parameters":{"classification":"json"}}}'
awsq glue get-tables --database-name cli_db --max-items 1 --page-size 1 | check "glue get-tables (paginated)" "
t, = out['TableList']
assert t['Name'] == 'cli_a' and t['DatabaseName'] == 'cli_db' and t['Parameters'] == {'classification': 'json'} and out.get('NextToken'), out
"
awsq glue get-tables --database-name cli_db --page-size 1 | check "glue get-tables (all pages)" "
assert [t['Name'] for t in out['TableList']] == ['cli_a', 'cli_b'], out
"
fails "glue get-tables (missing database)" "EntityNotFoundException" glue get-tables --database-name nope
add AWS::Glue::Table cli_table '{"DatabaseName":"cli_db","TableInput":{"Name":"cli_table","TableType":"EXTERNAL_TABLE","Parameters":{"classification":"json","skip.header.line.count":1},"StorageDescriptor":{"Columns":[{"Name":"id","Type":"string"}],"Location":"s3://cli-bucket/t/"}}}'
awsq glue get-table --database-name cli_db --name cli_table | check "glue get-table" "
t = out['Table']
assert t['Name'] == 'cli_table' and t['DatabaseName'] == 'cli_db' and t['Parameters'] == {'classification': 'json', 'skip.header.line.count': '1'}, out
assert t['StorageDescriptor']['Columns'] == [{'Name': 'id', 'Type': 'string'}], out
"
fails "glue get-table (missing)" "EntityNotFoundException" glue get-table --database-name cli_db --name nope
}

sec_appsync() {
# AppSync (REST-JSON).
add AWS::AppSync::GraphQLApi arn:aws:appsync:us-east-1:$DEV:apis/cliapi '{"ApiId":"cliapi","Name":"cli"}'
add AWS::AppSync::ApiKey arn:aws:appsync:us-east-1:$DEV:apis/cliapi/apikeys/da2-clikey '{"ApiId":"cliapi","Expires":1784631600,"Description":"cli key"}'
awsq appsync list-api-keys --api-id cliapi | check "appsync list-api-keys" "
assert out['apiKeys'] == [{'id': 'da2-clikey', 'description': 'cli key', 'expires': 1784631600, 'deletes': 1784631600}], out
"
fails "appsync list-api-keys (missing API)" "NotFoundException" appsync list-api-keys --api-id nope
}

sec_lakeformation() {
# Lake Formation (REST-JSON).
add AWS::LakeFormation::Resource Cli-Lf-1 '{"ResourceArn":"arn:aws:s3:::cli-lake","UseServiceLinkedRole":true}'
awsq lakeformation describe-resource --resource-arn arn:aws:s3:::cli-lake | check "lakeformation describe-resource" "
r = out['ResourceInfo']
assert r['ResourceArn'] == 'arn:aws:s3:::cli-lake' and r['RoleArn'].endswith(':role/aws-service-role/lakeformation.amazonaws.com/AWSServiceRoleForLakeFormationDataAccess'), out
"
fails "lakeformation describe-resource (not registered)" "EntityNotFoundException" lakeformation describe-resource --resource-arn arn:aws:s3:::nope
}

sec_mediaconvert() {
# MediaConvert (REST-JSON).
add AWS::MediaConvert::Queue cli-queue '{"Name":"cli-queue","PricingPlan":"ON_DEMAND","Status":"ACTIVE","Tags":{"team":"cli"}}'
awsq mediaconvert get-queue --name cli-queue | check "mediaconvert get-queue" "
q = out['Queue']
assert q['Name'] == 'cli-queue' and q['Status'] == 'ACTIVE' and q['Arn'] == 'arn:aws:mediaconvert:us-east-1:$DEV:queues/cli-queue', out
"
awsq mediaconvert list-tags-for-resource --arn arn:aws:mediaconvert:us-east-1:$DEV:queues/cli-queue | check "mediaconvert list-tags-for-resource" "
assert out['ResourceTags']['Tags'] == {'team': 'cli'}, out
"
fails "mediaconvert get-queue (missing)" "NotFoundException" mediaconvert get-queue --name nope
add AWS::MediaConvert::JobTemplate cli-template '{"Name":"cli-template","Queue":"cli-queue","Priority":5,"SettingsJson":{"outputGroups":[{"name":"File Group","outputs":[{"containerSettings":{"container":"MP4"}}]}]},"Tags":{"team":"cli"}}'
awsq mediaconvert get-job-template --name cli-template | check "mediaconvert get-job-template" "
j = out['JobTemplate']
assert j['Name'] == 'cli-template' and j['Priority'] == 5 and j['Queue'] == 'arn:aws:mediaconvert:us-east-1:$DEV:queues/cli-queue', out
assert j['Settings']['OutputGroups'][0]['Outputs'][0]['ContainerSettings']['Container'] == 'MP4', out
"
awsq mediaconvert list-tags-for-resource --arn arn:aws:mediaconvert:us-east-1:$DEV:jobTemplates/cli-template | check "mediaconvert list-tags-for-resource (job template)" "
assert out['ResourceTags']['Tags'] == {'team': 'cli'}, out
"
}

sec_docdb() {
# DocumentDB (the RDS query protocol).
add AWS::DocDB::DBCluster cli-docs '{"DBClusterIdentifier":"cli-docs","Port":27017,"MasterUsername":"cli","MasterUserPassword":"never-shown","StorageEncrypted":true,"VpcSecurityGroupIds":["sg-0aaaaaaaaaaaaaaaa"],"Tags":[{"Key":"team","Value":"cli"}]}'
add AWS::DocDB::DBInstance cli-docs-1 '{"DBInstanceIdentifier":"cli-docs-1","DBClusterIdentifier":"cli-docs","DBInstanceClass":"db.t3.medium"}'
awsq docdb describe-db-clusters --db-cluster-identifier cli-docs | check "docdb describe-db-clusters" "
c = out['DBClusters'][0]
assert c['DBClusterIdentifier'] == 'cli-docs' and c['Port'] == 27017 and c['StorageEncrypted'] is True and 'MasterUserPassword' not in c, out
assert c['VpcSecurityGroups'] == [{'VpcSecurityGroupId': 'sg-0aaaaaaaaaaaaaaaa', 'Status': 'active'}], out
"
awsq docdb describe-db-instances --db-instance-identifier cli-docs-1 | check "docdb describe-db-instances" "
i = out['DBInstances'][0]
assert i['DBInstanceIdentifier'] == 'cli-docs-1' and i['DBClusterIdentifier'] == 'cli-docs' and i['DBInstanceClass'] == 'db.t3.medium', out
"
awsq docdb list-tags-for-resource --resource-name arn:aws:rds:us-east-1:$DEV:cluster:cli-docs | check "docdb list-tags-for-resource" "
assert out['TagList'] == [{'Key': 'team', 'Value': 'cli'}], out
"
fails "docdb describe-db-clusters (missing)" "DBClusterNotFoundFault" docdb describe-db-clusters --db-cluster-identifier nope
}

sec_rds() {
# RDS (the same query API): an Aurora cluster's member instances by filter.
add AWS::RDS::DBInstance cli-aurora-1 '{"DBInstanceIdentifier":"cli-aurora-1","DBClusterIdentifier":"cli-aurora","Engine":"aurora-postgresql","DBInstanceClass":"db.r6g.large"}'
add AWS::RDS::DBInstance cli-aurora-2 '{"DBInstanceIdentifier":"cli-aurora-2","DBClusterIdentifier":"cli-aurora","Engine":"aurora-postgresql","DBInstanceClass":"db.r6g.large"}'
add AWS::RDS::DBInstance cli-other-1 '{"DBInstanceIdentifier":"cli-other-1","DBClusterIdentifier":"cli-other","Engine":"aurora-mysql","DBInstanceClass":"db.r6g.large"}'
awsq rds describe-db-instances --filters Name=db-cluster-id,Values=cli-aurora --page-size 20 | check "rds describe-db-instances (filter db-cluster-id)" "
assert [(i['DBInstanceIdentifier'], i['Engine'], i['DBClusterIdentifier']) for i in out['DBInstances']] == [('cli-aurora-1', 'aurora-postgresql', 'cli-aurora'), ('cli-aurora-2', 'aurora-postgresql', 'cli-aurora')], out
"
fails "rds describe-db-instances (unknown filter)" "InvalidParameterValue" rds describe-db-instances --filters Name=nope,Values=x
}

sec_application_autoscaling() {
# Application Auto Scaling (JSON 1.1): a scalable target's scaling policies.
AASARN=arn:aws:autoscaling:us-east-1:$DEV:scalingPolicy:0a1b:resource/dynamodb/table/cli-sessions:policyName
add AWS::ApplicationAutoScaling::ScalingPolicy "$AASARN/cli-read|dynamodb:table:ReadCapacityUnits" '{"PolicyName":"cli-read","PolicyType":"TargetTrackingScaling","ServiceNamespace":"dynamodb","ResourceId":"table/cli-sessions","ScalableDimension":"dynamodb:table:ReadCapacityUnits","TargetTrackingScalingPolicyConfiguration":{"TargetValue":70}}'
add AWS::ApplicationAutoScaling::ScalingPolicy "$AASARN/cli-write|dynamodb:table:WriteCapacityUnits" '{"PolicyName":"cli-write","PolicyType":"TargetTrackingScaling","ServiceNamespace":"dynamodb","ResourceId":"table/cli-sessions","ScalableDimension":"dynamodb:table:WriteCapacityUnits","TargetTrackingScalingPolicyConfiguration":{"TargetValue":60}}'
awsq application-autoscaling describe-scaling-policies --service-namespace dynamodb --resource-id table/cli-sessions --scalable-dimension dynamodb:table:ReadCapacityUnits | check "application-autoscaling describe-scaling-policies" "
assert [(p['PolicyName'], p['PolicyARN'].endswith('/cli-read'), p['TargetTrackingScalingPolicyConfiguration']['TargetValue']) for p in out['ScalingPolicies']] == [('cli-read', True, 70)], out
"
awsq application-autoscaling describe-scaling-policies --service-namespace dynamodb --page-size 1 | check "application-autoscaling describe-scaling-policies (all pages)" "
assert sorted(p['PolicyName'] for p in out['ScalingPolicies']) == ['cli-read', 'cli-write'], out
"
fails "application-autoscaling describe-scaling-policies (no namespace)" "ValidationException" application-autoscaling describe-scaling-policies --service-namespace ''
}

sec_dms() {
# DMS (JSON 1.1).
add AWS::DMS::Endpoint arn:aws:dms:us-east-1:$DEV:endpoint:CLISRC '{"EndpointIdentifier":"cli-src","EndpointType":"SOURCE","EngineName":"mysql","Port":3306,"Password":"never-shown","Tags":[{"Key":"team","Value":"cli"}]}'
add AWS::DMS::ReplicationSubnetGroup cli-subnets '{"ReplicationSubnetGroupIdentifier":"cli-subnets","ReplicationSubnetGroupDescription":"cli","SubnetIds":["subnet-0000000000000001"]}'
add AWS::DMS::ReplicationInstance arn:aws:dms:us-east-1:$DEV:rep:CLIREP '{"ReplicationInstanceIdentifier":"cli-rep","ReplicationInstanceClass":"dms.t3.micro","ReplicationSubnetGroupIdentifier":"cli-subnets"}'
add AWS::DMS::ReplicationTask arn:aws:dms:us-east-1:$DEV:task:CLITASK '{"ReplicationTaskIdentifier":"cli-task","MigrationType":"full-load","TableMappings":"{\"rules\":[]}"}'
awsq dms describe-endpoints --filters Name=endpoint-arn,Values=arn:aws:dms:us-east-1:$DEV:endpoint:CLISRC | check "dms describe-endpoints" "
e = out['Endpoints'][0]
assert e['EndpointIdentifier'] == 'cli-src' and e['Port'] == 3306 and e['EndpointArn'].endswith(':endpoint:CLISRC') and 'Password' not in e, out
"
awsq dms describe-replication-subnet-groups --filters Name=replication-subnet-group-id,Values=cli-subnets | check "dms describe-replication-subnet-groups" "
g = out['ReplicationSubnetGroups'][0]
assert g['ReplicationSubnetGroupIdentifier'] == 'cli-subnets' and g['Subnets'][0]['SubnetIdentifier'] == 'subnet-0000000000000001', out
"
awsq dms describe-replication-instances --filters Name=replication-instance-arn,Values=arn:aws:dms:us-east-1:$DEV:rep:CLIREP | check "dms describe-replication-instances" "
i = out['ReplicationInstances'][0]
assert i['ReplicationInstanceClass'] == 'dms.t3.micro' and i['ReplicationSubnetGroup']['ReplicationSubnetGroupIdentifier'] == 'cli-subnets', out
"
awsq dms describe-replication-tasks --filters Name=replication-task-arn,Values=arn:aws:dms:us-east-1:$DEV:task:CLITASK | check "dms describe-replication-tasks" "
t = out['ReplicationTasks'][0]
assert t['ReplicationTaskIdentifier'] == 'cli-task' and t['TableMappings'] == '{\"rules\":[]}', out
"
awsq dms list-tags-for-resource --resource-arn arn:aws:dms:us-east-1:$DEV:endpoint:CLISRC | check "dms list-tags-for-resource" "
assert [(t['Key'], t['Value']) for t in out['TagList']] == [('team', 'cli')], out
"
fails "dms describe-endpoints (missing)" "ResourceNotFoundFault" dms describe-endpoints --filters Name=endpoint-arn,Values=arn:aws:dms:us-east-1:$DEV:endpoint:NOPE
}

sec_client_vpn() {
# EC2 Client VPN (EC2 query).
CVPN=cvpn-endpoint-0cccccccccccccccc
add AWS::EC2::ClientVpnEndpoint $CVPN '{"ClientCidrBlock":"10.100.0.0/22","TransportProtocol":"udp","VpnPort":443,"SecurityGroupIds":["sg-0aaaaaaaaaaaaaaaa"],"ConnectionLogOptions":{"Enabled":false},"AuthenticationOptions":[{"Type":"certificate-authentication","MutualAuthentication":{"ClientRootCertificateChainArn":"arn:aws:acm:us-east-1:'$DEV':certificate/root"}}]}'
add AWS::EC2::ClientVpnTargetNetworkAssociation cvpn-assoc-0cccccccccccccccc '{"ClientVpnEndpointId":"'$CVPN'","SubnetId":"subnet-0000000000000001"}'
add AWS::EC2::ClientVpnAuthorizationRule Cli-Rule-1 '{"ClientVpnEndpointId":"'$CVPN'","TargetNetworkCidr":"10.0.0.0/16","AuthorizeAllGroups":true}'
awsq ec2 describe-client-vpn-endpoints --client-vpn-endpoint-ids $CVPN | check "ec2 describe-client-vpn-endpoints" "
e = out['ClientVpnEndpoints'][0]
assert e['ClientCidrBlock'] == '10.100.0.0/22' and e['VpnPort'] == 443 and e['SecurityGroupIds'] == ['sg-0aaaaaaaaaaaaaaaa'], out
assert e['ConnectionLogOptions'] == {'Enabled': False}, out
assert e['AuthenticationOptions'][0]['MutualAuthentication'] == {'ClientRootCertificateChain': 'arn:aws:acm:us-east-1:$DEV:certificate/root'}, out
"
awsq ec2 describe-client-vpn-target-networks --client-vpn-endpoint-id $CVPN | check "ec2 describe-client-vpn-target-networks" "
n = out['ClientVpnTargetNetworks']
assert [(x['AssociationId'], x['TargetNetworkId']) for x in n] == [('cvpn-assoc-0cccccccccccccccc', 'subnet-0000000000000001')], out
"
awsq ec2 describe-client-vpn-authorization-rules --client-vpn-endpoint-id $CVPN --filters Name=destination-cidr,Values=10.0.0.0/16 | check "ec2 describe-client-vpn-authorization-rules" "
r = out['AuthorizationRules']
assert [(x['DestinationCidr'], x['AccessAll']) for x in r] == [('10.0.0.0/16', True)], out
"
fails "ec2 describe-client-vpn-endpoints (missing)" "InvalidClientVpnEndpointId.NotFound" ec2 describe-client-vpn-endpoints --client-vpn-endpoint-ids cvpn-endpoint-0ffffffffffffffff
}

sec_budgets_dlm() {
# Budgets (JSON 1.1) and DLM (REST-JSON).
add AWS::Budgets::Budget cli-budget '{"Budget":{"BudgetName":"cli-budget","BudgetType":"COST","TimeUnit":"MONTHLY","BudgetLimit":{"Amount":40,"Unit":"USD"}}}'
add AWS::DLM::LifecyclePolicy policy-0cccccccccccccccc '{"Description":"cli","State":"ENABLED","PolicyDetails":{"PolicyType":"EBS_SNAPSHOT_MANAGEMENT","ResourceTypes":["VOLUME"],"Schedules":[{"Name":"daily","RetainRule":{"Count":7}}]},"Tags":[{"Key":"team","Value":"cli"}]}'
awsq budgets describe-budget --account-id $DEV --budget-name cli-budget | check "budgets describe-budget" "
b = out['Budget']
assert b['BudgetName'] == 'cli-budget' and b['BudgetLimit'] == {'Amount': '40', 'Unit': 'USD'} and b['TimeUnit'] == 'MONTHLY', out
"
fails "budgets describe-budget (missing)" "NotFoundException" budgets describe-budget --account-id $DEV --budget-name nope
awsq dlm get-lifecycle-policy --policy-id policy-0cccccccccccccccc | check "dlm get-lifecycle-policy" "
p = out['Policy']
assert p['PolicyId'] == 'policy-0cccccccccccccccc' and p['PolicyDetails']['ResourceTypes'] == ['VOLUME'] and p['PolicyDetails']['Schedules'] == [{'Name': 'daily', 'RetainRule': {'Count': 7}}] and p['Tags'] == {'team': 'cli'}, out
"
fails "dlm get-lifecycle-policy (missing)" "ResourceNotFoundException" dlm get-lifecycle-policy --policy-id policy-0ffffffffffffffff
}

sec_sagemaker() {
# SageMaker (JSON 1.1).
add AWS::SageMaker::EndpointConfig arn:aws:sagemaker:us-east-1:$DEV:endpoint-config/cli-config '{"EndpointConfigName":"cli-config","ProductionVariants":[{"VariantName":"AllTraffic","ModelName":"cli-model","InitialInstanceCount":1,"InstanceType":"ml.t2.medium","InitialVariantWeight":0.1}],"Tags":[{"Key":"team","Value":"cli"}]}'
add AWS::SageMaker::MonitoringSchedule arn:aws:sagemaker:us-east-1:$DEV:monitoring-schedule/cli-schedule '{"MonitoringScheduleName":"cli-schedule","MonitoringScheduleConfig":{"ScheduleConfig":{"ScheduleExpression":"cron(0 23 ? * * *)"},"MonitoringType":"DataQuality"}}'
awsq sagemaker describe-endpoint-config --endpoint-config-name cli-config | check "sagemaker describe-endpoint-config" "
assert out['EndpointConfigName'] == 'cli-config' and out['ProductionVariants'][0]['InitialVariantWeight'] == 0.1 and out['EndpointConfigArn'].endswith(':endpoint-config/cli-config'), out
"
awsq sagemaker describe-monitoring-schedule --monitoring-schedule-name cli-schedule | check "sagemaker describe-monitoring-schedule" "
assert out['MonitoringScheduleName'] == 'cli-schedule' and out['MonitoringScheduleConfig']['ScheduleConfig'] == {'ScheduleExpression': 'cron(0 23 ? * * *)'}, out
"
awsq sagemaker list-tags --resource-arn arn:aws:sagemaker:us-east-1:$DEV:endpoint-config/cli-config | check "sagemaker list-tags" "
assert out['Tags'] == [{'Key': 'team', 'Value': 'cli'}], out
"
fails "sagemaker describe-endpoint-config (missing)" "Could not find endpoint configuration" sagemaker describe-endpoint-config --endpoint-config-name nope
fails "sagemaker describe-monitoring-schedule (missing)" "ResourceNotFound" sagemaker describe-monitoring-schedule --monitoring-schedule-name nope
}

sec_cognito_identity() {
# Cognito Identity (JSON 1.1).
add AWS::Cognito::IdentityPool us-east-1:0c0c0c0c-0000-4000-8000-000000000001 '{"IdentityPoolName":"cli_pool","AllowUnauthenticatedIdentities":true,"SupportedLoginProviders":{"accounts.google.com":"cli"},"IdentityPoolTags":[{"Key":"team","Value":"cli"}]}'
awsq cognito-identity describe-identity-pool --identity-pool-id us-east-1:0c0c0c0c-0000-4000-8000-000000000001 | check "cognito-identity describe-identity-pool" "
assert out['IdentityPoolName'] == 'cli_pool' and out['AllowUnauthenticatedIdentities'] is True and out['IdentityPoolTags'] == {'team': 'cli'}, out
assert out['SupportedLoginProviders'] == {'accounts.google.com': 'cli'}, out
"
fails "cognito-identity describe-identity-pool (missing)" "ResourceNotFoundException" cognito-identity describe-identity-pool --identity-pool-id us-east-1:0c0c0c0c-0000-4000-8000-00000000ffff
}

sec_cloudwatch() {
# CloudWatch anomaly detectors (the CLI here speaks the query protocol; the SDK RPCv2 CBOR).
add AWS::CloudWatch::AnomalyDetector Cli-Detector-1 '{"SingleMetricAnomalyDetector":{"Namespace":"AWS/Lambda","MetricName":"Errors","Stat":"Sum","Dimensions":[{"Name":"FunctionName","Value":"cli-fn"}]},"Configuration":{"MetricTimeZone":"UTC","ExcludedTimeRanges":[{"StartTime":"2026-12-24T00:00:00","EndTime":"2026-12-26T00:00:00"}]}}'
awsq cloudwatch describe-anomaly-detectors --namespace AWS/Lambda --metric-name Errors --dimensions Name=FunctionName,Value=cli-fn | check "cloudwatch describe-anomaly-detectors" "
d, = out['AnomalyDetectors']
assert d['SingleMetricAnomalyDetector']['Dimensions'] == [{'Name': 'FunctionName', 'Value': 'cli-fn'}] and d['Stat'] == 'Sum', out
assert d['Configuration']['MetricTimezone'] == 'UTC' and d['Configuration']['ExcludedTimeRanges'][0]['StartTime'].startswith('2026-12-24T00:00:00'), out
"
}

sec_memorydb() {
# MemoryDB (JSON 1.1).
add AWS::MemoryDB::User cli-mdb-user '{"UserName":"cli-mdb-user","AccessString":"on ~* &* +@read"}'
add AWS::MemoryDB::ParameterGroup cli-mdb-pg '{"ParameterGroupName":"cli-mdb-pg","Family":"memorydb_redis7","Parameters":{"timeout":"300","maxmemory-policy":"allkeys-lru"}}'
awsq memorydb describe-users --user-name cli-mdb-user | check "memorydb describe-users" "
u, = out['Users']
assert (u['Name'], u['AccessString']) == ('cli-mdb-user', 'on ~* &* +@read'), u
"
awsq memorydb describe-parameters --parameter-group-name cli-mdb-pg --page-size 1 | check "memorydb describe-parameters (paginated)" "
assert sorted((p['Name'], p['Value']) for p in out['Parameters']) == [('maxmemory-policy', 'allkeys-lru'), ('timeout', '300')], out
"
fails "memorydb describe-users (missing)" "UserNotFoundFault" memorydb describe-users --user-name nope
fails "memorydb describe-parameters (missing group)" "ParameterGroupNotFoundFault" memorydb describe-parameters --parameter-group-name nope
}

sec_msk() {
# MSK configurations (REST-JSON; the server properties a base64 blob).
MSKCONF=arn:aws:kafka:us-east-1:$DEV:configuration/cli-conf/0b3f8a3c-1111-4222-8333-444455556666-2
add AWS::MSK::Configuration $MSKCONF '{"Arn":"'$MSKCONF'","Name":"cli-conf","ServerProperties":"log.retention.hours=48\n","LatestRevision":{"Revision":3}}'
awsq kafka describe-configuration --arn $MSKCONF | check "kafka describe-configuration" "
assert out['Name'] == 'cli-conf' and out['LatestRevision']['Revision'] == 3, out
"
awsq kafka describe-configuration-revision --arn $MSKCONF --revision 3 | check "kafka describe-configuration-revision" "
import base64
assert base64.b64decode(out['ServerProperties']) == b'log.retention.hours=48\n', out
"
fails "kafka describe-configuration-revision (missing revision)" "NotFoundException" kafka describe-configuration-revision --arn $MSKCONF --revision 1
}

sec_elasticbeanstalk() {
# Elastic Beanstalk (query): an environment's option settings.
add AWS::ElasticBeanstalk::Environment cli-env '{"ApplicationName":"cli-app","EnvironmentName":"cli-env","OptionSettings":[{"Namespace":"aws:elasticbeanstalk:environment","OptionName":"EnvironmentType","Value":"SingleInstance"},{"ResourceName":"AWSEBAutoScalingGroup","Namespace":"aws:autoscaling:asg","OptionName":"Custom Availability Zones","Value":""}]}'
awsq elasticbeanstalk describe-configuration-settings --application-name cli-app --environment-name cli-env | check "elasticbeanstalk describe-configuration-settings" "
c, = out['ConfigurationSettings']
assert (c['ApplicationName'], c['EnvironmentName'], c['DeploymentStatus']) == ('cli-app', 'cli-env', 'deployed'), c
assert c['OptionSettings'] == [{'Namespace': 'aws:elasticbeanstalk:environment', 'OptionName': 'EnvironmentType', 'Value': 'SingleInstance'},
    {'ResourceName': 'AWSEBAutoScalingGroup', 'Namespace': 'aws:autoscaling:asg', 'OptionName': 'Custom Availability Zones', 'Value': ''}], c
"
fails "elasticbeanstalk describe-configuration-settings (missing)" "InvalidParameterValue" elasticbeanstalk describe-configuration-settings --application-name other-app --environment-name cli-env
}

sec_redshift_serverless() {
# Redshift Serverless (JSON 1.1, camelCase).
add AWS::RedshiftServerless::Workgroup cli-wg '{"WorkgroupName":"cli-wg","NamespaceName":"cli-ns","ConfigParameters":[{"ParameterKey":"auto_mv","ParameterValue":"true"}],"SecurityGroupIds":["sg-0cli"],"SubnetIds":["subnet-0a","subnet-0b"]}'
awsq redshift-serverless get-workgroup --workgroup-name cli-wg | check "redshift-serverless get-workgroup" "
g = out['workgroup']
assert (g['workgroupName'], g['namespaceName'], g['status']) == ('cli-wg', 'cli-ns', 'AVAILABLE'), g
assert g['configParameters'] == [{'parameterKey': 'auto_mv', 'parameterValue': 'true'}] and g['securityGroupIds'] == ['sg-0cli'] and g['subnetIds'] == ['subnet-0a', 'subnet-0b'], g
"
fails "redshift-serverless get-workgroup (missing)" "ResourceNotFoundException" redshift-serverless get-workgroup --workgroup-name nope
}

sec_s3_trust_store() {
# S3 objects (a Glue job's script) and a trust store's CA bundle, whose
# presigned URL points at the sandbox itself.
printf -- '-----BEGIN CERTIFICATE-----\nMIIBcli\n-----END CERTIFICATE-----\n' >"$tmp/ca.pem"
awsq s3api put-object --bucket "$BUCKET" --key cli/ca.pem --body "$tmp/ca.pem" >/dev/null
awsq s3api get-object --bucket "$BUCKET" --key cli/ca.pem "$tmp/ca-got.pem" >/dev/null
cmp -s "$tmp/ca.pem" "$tmp/ca-got.pem" || { echo "FAIL: s3api get-object: the object read back differs" >&2; exit 1; }
echo "s3api put-object / get-object" >>"$tmp/passed"; echo "ok   s3api put-object / get-object"
TS=arn:aws:elasticloadbalancing:us-east-1:$DEV:truststore/cli-ts/0123456789abcdef
add AWS::ElasticLoadBalancingV2::TrustStore $TS '{"Name":"cli-ts","TrustStoreArn":"'$TS'","CaCertificatesBundleS3Bucket":"'$BUCKET'","CaCertificatesBundleS3Key":"cli/ca.pem"}'
# Trust stores are newer than some AWS CLI v2 builds (2.9 lacks them):
# this call takes the first CLI that has the operation, v1 included.
TS_CLI=""
for cli in "$AWS_CLI" aws /usr/bin/aws; do
	if command -v "$cli" >/dev/null && "$cli" elbv2 get-trust-store-ca-certificates-bundle help >/dev/null 2>&1; then TS_CLI=$cli; break; fi
done
[ -n "$TS_CLI" ] || { echo "FAIL: no AWS CLI here has elbv2 get-trust-store-ca-certificates-bundle (install a newer one)" >&2; exit 1; }
LOC=$(AWS_CLI=$TS_CLI awsq elbv2 get-trust-store-ca-certificates-bundle --trust-store-arn $TS | python3 -c 'import json,sys; print(json.load(sys.stdin)["Location"])')
case "$LOC" in "$url"/*) ;; *) echo "FAIL: elbv2 get-trust-store-ca-certificates-bundle: location $LOC is not on the sandbox" >&2; exit 1 ;; esac
curl -sf "$LOC" | cmp -s "$tmp/ca.pem" - || { echo "FAIL: elbv2 get-trust-store-ca-certificates-bundle: the bundle fetched differs" >&2; exit 1; }
echo "elbv2 get-trust-store-ca-certificates-bundle" >>"$tmp/passed"; echo "ok   elbv2 get-trust-store-ca-certificates-bundle"
AWS_CLI=$TS_CLI fails "elbv2 get-trust-store-ca-certificates-bundle (missing)" "TrustStoreNotFound" elbv2 get-trust-store-ca-certificates-bundle --trust-store-arn ${TS}0
}

sec_lex() {
# Lex V2 models (REST-JSON, signing name lex): the DRAFT locale tree of a
# bot, its List calls paged by maxResults / nextToken.
LEXBOT=CLILEXBOT1
add AWS::Lex::Bot $LEXBOT '{"Id":"'$LEXBOT'","Name":"cli-bot","BotLocales":[{"LocaleId":"en_US","NluConfidenceThreshold":0.4,"VoiceSettings":{"VoiceId":"Ivy"},
 "SlotTypes":[{"Name":"FlowerType","ValueSelectionSetting":{"ResolutionStrategy":"ORIGINAL_VALUE"},"SlotTypeValues":[{"SampleValue":{"Value":"roses"}}]}],
 "Intents":[{"Name":"OrderFlowers","SampleUtterances":[{"Utterance":"order flowers"}],"SlotPriorities":[{"Priority":1,"SlotName":"Flower"}],
   "Slots":[{"Name":"Flower","SlotTypeName":"FlowerType","ValueElicitationSetting":{"SlotConstraint":"Required","PromptSpecification":{"MaxRetries":2,"MessageGroupsList":[{"Message":{"SSMLMessage":{"Value":"<speak>Which?</speak>"}}}]}}}]},
  {"Name":"Greeting","SampleUtterances":[{"Utterance":"hello"}]}]}]}'
LEX="--bot-id $LEXBOT --bot-version DRAFT"
awsq lexv2-models list-bot-locales $LEX | check "lexv2-models list-bot-locales" "
l, = out['botLocaleSummaries']
assert l['localeId'] == 'en_US' and 'nextToken' not in out, out
"
awsq lexv2-models describe-bot-locale $LEX --locale-id en_US | check "lexv2-models describe-bot-locale" "
assert out['nluIntentConfidenceThreshold'] == 0.4 and out['voiceSettings'] == {'voiceId': 'Ivy'} and out['intentsCount'] == 3, out
"
awsq lexv2-models list-slot-types $LEX --locale-id en_US | check "lexv2-models list-slot-types" "
st, = out['slotTypeSummaries']
assert st['slotTypeName'] == 'FlowerType' and len(st['slotTypeId']) == 10, out
"
LEXTYPE=$(awsq lexv2-models list-slot-types $LEX --locale-id en_US | python3 -c 'import json,sys; print(json.load(sys.stdin)["slotTypeSummaries"][0]["slotTypeId"])')
awsq lexv2-models describe-slot-type $LEX --locale-id en_US --slot-type-id $LEXTYPE | check "lexv2-models describe-slot-type" "
assert out['valueSelectionSetting'] == {'resolutionStrategy': 'OriginalValue'} and out['slotTypeValues'] == [{'sampleValue': {'value': 'roses'}}], out
"
awsq lexv2-models list-intents $LEX --locale-id en_US --max-results 2 >"$tmp/intents1"
check "lexv2-models list-intents (page 1 of 2)" "
assert [i['intentName'] for i in out['intentSummaries']] == ['OrderFlowers', 'Greeting'] and out['nextToken'], out
" <"$tmp/intents1"
awsq lexv2-models list-intents $LEX --locale-id en_US --max-results 2 --next-token "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["nextToken"])' "$tmp/intents1")" | check "lexv2-models list-intents (page 2 of 2: Lex's fallback intent)" "
i, = out['intentSummaries']
assert (i['intentId'], i['intentName'], i['parentIntentSignature']) == ('FALLBCKINT', 'FallbackIntent', 'AMAZON.FallbackIntent') and 'nextToken' not in out, out
"
LEXINTENT=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["intentSummaries"][0]["intentId"])' "$tmp/intents1")
awsq lexv2-models list-slots $LEX --locale-id en_US --intent-id $LEXINTENT | check "lexv2-models list-slots" "
s, = out['slotSummaries']
assert s['slotName'] == 'Flower' and s['slotTypeId'] == '$LEXTYPE' and s['slotConstraint'] == 'Required', out
"
LEXSLOT=$(awsq lexv2-models list-slots $LEX --locale-id en_US --intent-id $LEXINTENT | python3 -c 'import json,sys; print(json.load(sys.stdin)["slotSummaries"][0]["slotId"])')
awsq lexv2-models describe-intent $LEX --locale-id en_US --intent-id $LEXINTENT | check "lexv2-models describe-intent" "
assert out['intentName'] == 'OrderFlowers' and out['sampleUtterances'] == [{'utterance': 'order flowers'}], out
assert out['slotPriorities'] == [{'priority': 1, 'slotId': '$LEXSLOT'}], out
"
awsq lexv2-models describe-slot $LEX --locale-id en_US --intent-id $LEXINTENT --slot-id $LEXSLOT | check "lexv2-models describe-slot" "
ps = out['valueElicitationSetting']['promptSpecification']
assert out['slotTypeId'] == '$LEXTYPE' and ps['maxRetries'] == 2 and ps['messageGroups'] == [{'message': {'ssmlMessage': {'value': '<speak>Which?</speak>'}}}], out
"
fails "lexv2-models describe-bot-locale (missing bot)" "ResourceNotFoundException" lexv2-models describe-bot-locale --bot-id NOPE000000 --bot-version DRAFT --locale-id en_US
fails "lexv2-models list-intents (bad page size)" "ValidationException" lexv2-models list-intents $LEX --locale-id en_US --max-results 1001
}

sec_cloudtrail() {
# CloudTrail (JSON 1.1): the sandbox's own trail. An admin change made as
# a console session and a CLI write are events of the resource they name,
# most recent first, each with its principal and user agent.
TQ="https://sqs.us-east-1.amazonaws.com/$DEV/cli-trail-queue"
python3 -c 'import json,sys; print(json.dumps({"op":"add","account":sys.argv[1],"region":"us-east-1","type":"AWS::SQS::Queue","identifier":sys.argv[2],"properties":{"QueueName":"cli-trail-queue"},"principal":"arn:aws:sts::"+sys.argv[1]+":assumed-role/Admin/carol","userAgent":"console.amazonaws.com"}))' "$DEV" "$TQ" |
	curl -sf -X POST --data-binary @- "$url/_sandbox/change" >/dev/null
awsq sqs set-queue-attributes --queue-url "$TQ" --attributes VisibilityTimeout=45 >/dev/null
awsq cloudtrail lookup-events --lookup-attributes AttributeKey=ResourceName,AttributeValue="$TQ" | check "cloudtrail lookup-events (by resource name)" "
ev = out['Events']
assert [e['EventName'] for e in ev] == ['SetQueueAttributes', 'CreateResource'], ev
cli, console = (json.loads(e['CloudTrailEvent']) for e in ev)
assert cli['userAgent'].startswith('aws-cli/2') and cli['readOnly'] is False and cli['eventSource'] == 'sqs.amazonaws.com', cli
assert cli['userIdentity']['accessKeyId'] == 'AKIADEMO$DEV' and cli['recipientAccountId'] == '$DEV', cli
assert console['userIdentity']['arn'] == 'arn:aws:sts::$DEV:assumed-role/Admin/carol' and ev[1]['Username'] == 'carol', console
assert console['userIdentity']['sessionContext']['sessionIssuer']['userName'] == 'Admin' and console['userAgent'] == 'console.amazonaws.com', console
"
fails "cloudtrail lookup-events (two attributes)" "InvalidLookupAttributesException" cloudtrail lookup-events --lookup-attributes AttributeKey=ResourceName,AttributeValue="$TQ" AttributeKey=Username,AttributeValue=carol
}

sec_securityhub() {
# Security Hub (REST-JSON): findings imported, listed and updated (the
# ASFF output's calls).
product=arn:aws:securityhub:us-east-1:$DEV:product/$DEV/default
finding='[{"SchemaVersion":"2018-10-08","Id":"cli-1","ProductArn":"'$product'","GeneratorId":"realdrift","AwsAccountId":"'$DEV'","Types":["Software and Configuration Checks"],"CreatedAt":"2026-01-02T03:04:05.000Z","UpdatedAt":"2026-01-02T03:04:05.000Z","Severity":{"Label":"LOW"},"Title":"drift","Description":"drift","Resources":[{"Type":"Other","Id":"cli"}]}]'
awsq securityhub batch-import-findings --findings "$finding" | check "securityhub batch-import-findings" "
assert (out['SuccessCount'], out['FailedCount'], out['FailedFindings']) == (1, 0, []), out
"
awsq securityhub batch-import-findings --findings "${finding//$DEV\/default/000000000000\/default}" | check "securityhub batch-import-findings (another account's product fails alone)" "
assert (out['SuccessCount'], out['FailedCount']) == (0, 1) and out['FailedFindings'][0]['Id'] == 'cli-1', out
"
fails "securityhub batch-import-findings (a severity label the model does not list)" "InvalidInputException" securityhub batch-import-findings --findings "${finding//LOW/SEVERE}"
awsq securityhub get-findings --filters '{"Id":[{"Value":"cli-1","Comparison":"EQUALS"}]}' | check "securityhub get-findings" "
f, = out['Findings']
assert (f['Id'], f['ProductArn'], f['Title'], f['Severity']['Label']) == ('cli-1', '$product', 'drift', 'LOW'), f
"
awsq securityhub batch-update-findings --finding-identifiers Id=cli-1,ProductArn=$product --workflow Status=NOTIFIED | check "securityhub batch-update-findings" "
assert out['ProcessedFindings'] == [{'Id': 'cli-1', 'ProductArn': '$product'}] and out['UnprocessedFindings'] == [], out
"
awsq securityhub get-findings --filters '{"Id":[{"Value":"cli-1","Comparison":"EQUALS"}]}' | check "securityhub get-findings (after the update)" "
f, = out['Findings']
assert f['Workflow']['Status'] == 'NOTIFIED', f
"
}
sec_organizations() {
AWS_ACCESS_KEY_ID=AKIADEMO$MGMT awsq organizations list-accounts | check "organizations list-accounts" "
assert sorted(a['Id'] for a in out['Accounts']) == sorted(a['id'] for a in w['accounts']), out
"
awsq organizations describe-organization | check "organizations describe-organization" "
o = out['Organization']
assert o['Id'] == w['organization']['id'] and o['MasterAccountId'] == '$MGMT', o
assert o['Arn'] == 'arn:aws:organizations::$MGMT:organization/' + o['Id'], o
"
}

jobs=${SANDBOX_AWSCLI_JOBS:-$((2 * $(nproc)))}
case "$jobs" in ''|*[!0-9]*|0) echo "sandbox-awscli-check: SANDBOX_AWSCLI_JOBS wants a positive whole number, got '$jobs'" >&2; exit 2 ;; esac
mapfile -t sections < <(sed -n 's/^\(sec_[a-z0-9_]*\)() {$/\1/p' "$0")
failed=()
# reap waits for one running section, prints its output and notes a failure.
reap() {
	local pid="" rc=0
	wait -n -p pid "${!section_of[@]}" || rc=$?
	local sec=${section_of[$pid]}
	unset "section_of[$pid]"
	cat "$lib/$sec/log"
	if [ "$rc" -ne 0 ]; then failed+=("$sec"); fi
}
for sec in "${sections[@]}"; do
	while [ "${#section_of[@]}" -ge "$jobs" ]; do reap; done
	mkdir "$lib/$sec"
	(
		tmp=$lib/$sec
		"$sec"
	) >"$lib/$sec/log" 2>&1 &
	section_of[$!]=$sec
done
while [ "${#section_of[@]}" -gt 0 ]; do reap; done

# Every served operation (scripts/sandbox-awscli-ops.txt, generated from
# the sandbox's table of served operations) must have been answered to
# the CLI by some section, except those still listed in
# scripts/sandbox-awscli-unchecked.txt, a list that only shrinks.
sort -u "$lib"/sec_*/invoked >"$lib/invoked" 2>/dev/null || true
sed -n 's/^[^#][^	]*	//p' scripts/sandbox-awscli-ops.txt | sort -u >"$lib/served"
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' scripts/sandbox-awscli-unchecked.txt | sort -u >"$lib/unchecked"
unchecked=$(comm -23 "$lib/served" "$lib/invoked" | comm -23 - "$lib/unchecked")
if [ -n "$unchecked" ]; then
	echo "sandbox-awscli-check: served operations no section runs through the AWS CLI:" $unchecked >&2
	failed+=(coverage)
fi
stale=$(comm -12 "$lib/unchecked" "$lib/invoked")
if [ -n "$stale" ]; then
	echo "sandbox-awscli-check: checked now, take them off scripts/sandbox-awscli-unchecked.txt:" $stale >&2
	failed+=(coverage)
fi
echo "sandbox-awscli-check: $(comm -12 "$lib/served" "$lib/invoked" | wc -l) of $(wc -l <"$lib/served") served operations answered to the AWS CLI"

passed=$(cat "$lib"/sec_*/passed 2>/dev/null | wc -l)
if [ "${#failed[@]}" -gt 0 ]; then
	echo "sandbox-awscli-check: $passed checks passed; failed in ${failed[*]}" >&2
	exit 1
fi
echo "sandbox-awscli-check: $passed checks passed in ${#sections[@]} sections, $jobs at a time"
