#!/usr/bin/env bash
# Acceptance run of the realdrift service in one AWS account, end to end:
# deploy the central stack (infra's synthesized template) and the member
# template into the account, make one out-of-band change, run a sweep, check
# that the finding (DynamoDB), the alert and the Security Hub finding
# arrive, revert the change through an approval, probe which aws:CalledVia
# value Cloud Control's handler calls carry, and tear everything down,
# printing each step's result. Exit 0 when every step passed, 1 when one
# failed (the rest is skipped, the teardown still runs), 2 on bad usage or a
# refused confirmation.
#
# It writes to a real account: it refuses to run without an explicit
# --account that the credentials must belong to, and without a confirmation
# (--yes, or the account id typed at the prompt). --dry-run prints every
# call it would make and makes none.
#
# With --endpoint-url (the local harness of TestAcceptanceScript in
# internal/service, which CI runs) the same steps run against the sandbox;
# what cannot be emulated there is said by the step:
#   - deploy: nothing is deployed; the harness runs infra's synthesized
#     state machine definitions (scripts/sfn), the real handlers with the
#     function roles infra synthesizes and the member roles seeded from
#     infra's policies. The steps read the central stack's outputs with
#     describe-stacks as on AWS (the harness's world holds a Realdrift stack
#     with them) and the target stack, whose template is the one deployed
#     on AWS (testdata/acceptance/target.template.json).
#   - sts, cloudformation, sqs, securityhub: the sandbox. stepfunctions:
#     the harness's executions of the synthesized definitions. dynamodb:
#     DynamoDB Local behind the sandbox's IAM. The approval: the harness's
#     AWS_IAM function URL front of the approve-link function.
#   - the alert: on AWS the SNS topic, read through an SQS queue the script
#     subscribes; against the endpoint the Slack webhook the harness serves
#     (GET <endpoint>/_acceptance/slack), as the sandbox has no SNS Publish.
#   - the aws:CalledVia probe needs IAM role writes the sandbox does not
#     evaluate: skipped there (internal/sandbox's
#     TestCloudControlWriteHandlerPermissions holds the same rule).
#   - teardown: nothing to delete.
#
# On AWS it needs: AWS CLI v2, python3, zip-free (python3 zips assets), the
# realdrift CLI (--realdrift, default realdrift on PATH, else go run
# ./cmd/realdrift), `make lambdas synth` done (infra/cdk.out), the account
# bootstrapped for the CDK (its assets bucket), in an AWS Organization
# (--ou: the organizational units the member StackSet deploys to; use one
# holding only test accounts, or an empty one), administrator credentials.
# The member template is also deployed into the account itself as a stack
# (the StackSet skips the management account); run it in a test
# organisation's management account or an account outside --ou.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
	cat <<'EOF'
usage: scripts/aws-acceptance.sh --account ID [--region REGION] [--yes] [--dry-run]
                                 [--endpoint-url URL] [--ou OU[,OU...]] [--keep]
                                 [--realdrift CMD] [--timeout SECONDS]

  --account ID        the account to deploy into (required; the credentials must be its)
  --region REGION     the region (default: $AWS_REGION, $AWS_DEFAULT_REGION, else us-east-1)
  --yes               do not ask for the typed confirmation
  --dry-run           print every call it would make, make none
  --endpoint-url URL  run against the local harness at URL (CI) instead of AWS
  --ou OU[,OU...]     organizational units the member StackSet deploys to (required on AWS)
  --keep              leave everything deployed (no teardown)
  --realdrift CMD     the realdrift CLI (default: realdrift on PATH, else go run ./cmd/realdrift)
  --timeout SECONDS   how long each wait may take (default 900 on AWS, 120 against an endpoint)
EOF
}

ACCOUNT="" REGION="${AWS_REGION:-${AWS_DEFAULT_REGION:-us-east-1}}" YES=false DRY=false ENDPOINT="" OU="" KEEP=false
REALDRIFT_CMD="" TIMEOUT=""
while [ $# -gt 0 ]; do
	case "$1" in
	--account) ACCOUNT=${2:-}; shift 2 || { usage >&2; exit 2; } ;;
	--region) REGION=${2:-}; shift 2 || { usage >&2; exit 2; } ;;
	--yes) YES=true; shift ;;
	--dry-run) DRY=true; shift ;;
	--endpoint-url) ENDPOINT=${2:-}; shift 2 || { usage >&2; exit 2; } ;;
	--ou) OU=${2:-}; shift 2 || { usage >&2; exit 2; } ;;
	--keep) KEEP=true; shift ;;
	--realdrift) REALDRIFT_CMD=${2:-}; shift 2 || { usage >&2; exit 2; } ;;
	--timeout) TIMEOUT=${2:-}; shift 2 || { usage >&2; exit 2; } ;;
	-h | --help) usage; exit 0 ;;
	*) echo "aws-acceptance: unknown argument $1" >&2; usage >&2; exit 2 ;;
	esac
done
if ! [[ "$ACCOUNT" =~ ^[0-9]{12}$ ]]; then
	echo "aws-acceptance: --account ID (12 digits) is required: it names the account this deploys into" >&2
	exit 2
fi
if ! [[ "$REGION" =~ ^[a-z]{2}(-[a-z]+)+-[0-9]$ ]]; then
	echo "aws-acceptance: --region $REGION is not a region name" >&2
	exit 2
fi
if [ -z "$ENDPOINT" ] && [ -z "$OU" ] && ! $DRY; then
	echo "aws-acceptance: --ou is required on AWS: the member StackSet deploys to every account of those organizational units" >&2
	exit 2
fi
[ -n "$TIMEOUT" ] || { if [ -n "$ENDPOINT" ]; then TIMEOUT=120; else TIMEOUT=900; fi; }
POLL=5 # seconds between polls of an execution or a pending approval
[ -z "$ENDPOINT" ] || POLL=1
[[ "$TIMEOUT" =~ ^[0-9]+$ ]] || { echo "aws-acceptance: --timeout $TIMEOUT is not a number of seconds" >&2; exit 2; }

# Prefer AWS CLI v2 (Debian's awscli package installs it as /usr/bin/aws).
if [ -z "${AWS_CLI:-}" ]; then
	AWS_CLI=aws
	if ! aws --version 2>/dev/null | grep -q '^aws-cli/2' && /usr/bin/aws --version 2>/dev/null | grep -q '^aws-cli/2'; then
		AWS_CLI=/usr/bin/aws
	fi
fi
if ! $DRY; then
	command -v "$AWS_CLI" >/dev/null || { echo "aws-acceptance: $AWS_CLI not found" >&2; exit 2; }
	command -v python3 >/dev/null || { echo "aws-acceptance: python3 not found" >&2; exit 2; }
fi
if [ -z "$REALDRIFT_CMD" ]; then
	if command -v realdrift >/dev/null; then REALDRIFT_CMD=realdrift; else REALDRIFT_CMD="go run ./cmd/realdrift"; fi
fi
export AWS_PAGER="" AWS_DEFAULT_OUTPUT=json

MODE="AWS account $ACCOUNT, $REGION"
[ -z "$ENDPOINT" ] || MODE="the endpoint $ENDPOINT (account $ACCOUNT, $REGION)"
CENTRAL=Realdrift
MEMBER=realdrift-acceptance-member
TARGET=realdrift-acceptance-target
PROBE_ROLE=realdrift-acceptance-probe
ALERT_QUEUE=realdrift-acceptance-alerts
RUN_ID=$(date -u +%Y%m%dT%H%M%S)

if ! $DRY && ! $YES; then
	if [ ! -t 0 ]; then
		echo "aws-acceptance: refusing to write to $MODE without a confirmation: pass --yes, or run it at a terminal and type the account id" >&2
		exit 2
	fi
	printf 'This deploys realdrift into %s, changes a queue out of band, reverts it and deletes what it deployed.\nType the account id to continue: ' "$MODE" >&2
	read -r typed || typed=""
	if [ "$typed" != "$ACCOUNT" ]; then
		echo "aws-acceptance: confirmation did not match; nothing was done" >&2
		exit 2
	fi
fi

tmp=$(mktemp -d)
exec 3>&1 # the dry run's printed calls, also from inside $(...)

# awsx ARGS...: the AWS CLI against the account (or the endpoint); under
# --dry-run the call is printed and nothing is run (the output is empty).
awsx() {
	if $DRY; then
		printf '  would run: aws' >&3
		printf ' %q' "$@" ${ENDPOINT:+--endpoint-url "$ENDPOINT"} --region "$REGION" >&3
		printf '\n' >&3
		return 0
	fi
	"$AWS_CLI" ${ENDPOINT:+--endpoint-url "$ENDPOINT"} --region "$REGION" "$@"
}
# runx CMD...: any other command, printed under --dry-run.
runx() {
	if $DRY; then
		printf '  would run:' >&3
		printf ' %q' "$@" >&3
		printf '\n' >&3
		return 0
	fi
	"$@"
}
# or_placeholder VALUE NAME: VALUE, or <NAME> under --dry-run.
or_placeholder() { if $DRY; then echo "<$2>"; else echo "$1"; fi; }

passed=0 failed=0 skipped=0 current="" started=0
declare -a results=()
step() {
	current=$1
	started=$SECONDS
	printf '== %s\n' "$current"
}
ok() {
	if $DRY; then
		passed=$((passed + 1))
		results+=("dry  $current")
		printf 'dry  %s: printed, not run\n' "$current"
		return 0
	fi
	passed=$((passed + 1))
	results+=("ok   $current ($((SECONDS - started)) s): $*")
	printf 'ok   %s (%d s): %s\n' "$current" $((SECONDS - started)) "$*"
}
skip() {
	skipped=$((skipped + 1))
	results+=("skip $current: $*")
	printf 'skip %s: %s\n' "$current" "$*"
}
fail() {
	failed=$((failed + 1))
	results+=("FAIL $current ($((SECONDS - started)) s): $*")
	printf 'FAIL %s (%d s): %s\n' "$current" $((SECONDS - started)) "$*"
	exit 1
}

# What the teardown deletes, recorded as it is created.
deployed_central=false deployed_member=false deployed_target=false hub_enabled=false alert_queue_url="" probe_role=false
declare -a retained=()

teardown() {
	local rc=$?
	set +e
	current=teardown
	started=$SECONDS
	printf '== teardown\n'
	if [ -n "$ENDPOINT" ]; then
		skip "nothing was deployed against the endpoint (the revert restored the queue)"
	elif $KEEP; then
		skip "--keep: left deployed: ${CENTRAL} ${MEMBER} ${TARGET}"
	else
		local left=()
		if $probe_role || $DRY; then
			awsx iam delete-role-policy --role-name "$PROBE_ROLE" --policy-name probe >/dev/null
			awsx iam delete-role --role-name "$PROBE_ROLE" >/dev/null || left+=("role $PROBE_ROLE")
		fi
		if [ -n "$alert_queue_url" ] || $DRY; then
			awsx sqs delete-queue --queue-url "$(or_placeholder "$alert_queue_url" AlertQueueUrl)" >/dev/null || left+=("queue $ALERT_QUEUE")
		fi
		for s in "$TARGET:$deployed_target" "$MEMBER:$deployed_member" "$CENTRAL:$deployed_central"; do
			if [ "${s#*:}" = true ] || $DRY; then
				awsx cloudformation delete-stack --stack-name "${s%%:*}" &&
					awsx cloudformation wait stack-delete-complete --stack-name "${s%%:*}" || left+=("stack ${s%%:*}")
			fi
		done
		# The central stack retains its table, buckets, keys and logs
		# (DeletionPolicy Retain): delete them too.
		local r
		for r in "${retained[@]}"; do
			delete_retained "${r%%	*}" "${r#*	}" || left+=("$r")
		done
		if $hub_enabled || $DRY; then
			awsx securityhub disable-security-hub >/dev/null || left+=("Security Hub enabled")
		fi
		if [ ${#left[@]} -eq 0 ]; then ok "deleted everything the run created"; else
			failed=$((failed + 1))
			printf 'FAIL teardown: left behind: %s\n' "${left[*]}"
			rc=1
		fi
	fi
	printf '\naws-acceptance against %s:\n' "$MODE"
	printf '  %s\n' "${results[@]}"
	if $DRY; then
		printf 'dry run: %d steps printed, no call made\n' "$passed"
	else
		printf '%d passed, %d failed, %d skipped\n' "$passed" "$failed" "$skipped"
	fi
	rm -rf "$tmp"
	[ "$failed" -eq 0 ] || rc=1
	exit "$rc"
}
trap teardown EXIT

# delete_retained TYPE ID: delete one resource the central stack retained.
delete_retained() {
	case "$1" in
	AWS::DynamoDB::Table)
		awsx dynamodb update-table --table-name "$2" --no-deletion-protection-enabled >/dev/null &&
			awsx dynamodb delete-table --table-name "$2" >/dev/null ;;
	AWS::S3::Bucket)
		awsx s3 rm "s3://$2" --recursive >/dev/null && awsx s3api delete-bucket --bucket "$2" ;;
	AWS::KMS::Key) awsx kms schedule-key-deletion --key-id "$2" --pending-window-in-days 7 >/dev/null ;;
	AWS::Logs::LogGroup) awsx logs delete-log-group --log-group-name "$2" ;;
	AWS::SQS::Queue) awsx sqs delete-queue --queue-url "$2" ;;
	*) echo "left $1 $2 (no deleter)"; return 1 ;;
	esac
}

# outputs KEY...: reads the central stack's outputs into OUT[KEY] in one
# call (placeholders under --dry-run); a missing one fails the step.
declare -A OUT=()
outputs() {
	local raw k
	raw=$(awsx cloudformation describe-stacks --stack-name "$CENTRAL" --query "Stacks[0].Outputs" --output json) ||
		fail "describe-stacks $CENTRAL"
	for k in "$@"; do
		if $DRY; then OUT[$k]="<$k>"; continue; fi
		OUT[$k]=$(python3 -c 'import json,sys; print(next((o["OutputValue"] for o in json.load(sys.stdin) or [] if o["OutputKey"]==sys.argv[1]), ""))' "$k" <<<"$raw")
		[ -n "${OUT[$k]}" ] || fail "the central stack $CENTRAL has no output $k"
	done
}

# wait_execution ARN: waits until the execution is no longer RUNNING and
# prints its describe-execution answer.
wait_execution() {
	local deadline=$((SECONDS + TIMEOUT)) out status
	while :; do
		out=$(awsx stepfunctions describe-execution --execution-arn "$1") || return 1
		$DRY && return 0
		status=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])' <<<"$out")
		if [ "$status" != RUNNING ]; then echo "$out"; return 0; fi
		[ $SECONDS -lt $deadline ] || { echo "$out"; return 1; }
		sleep "$POLL"
	done
}

# jsonfield FIELD: a top-level field of the JSON on stdin.
jsonfield() { python3 -c 'import json,sys; v=json.load(sys.stdin).get(sys.argv[1]); print(v if isinstance(v,str) else json.dumps(v))' "$1"; }

# --- the steps ---

step "preflight: the credentials are the account's"
who=$(awsx sts get-caller-identity --query Account --output text) || fail "sts get-caller-identity: no usable credentials"
who=$(or_placeholder "$who" "$ACCOUNT")
[ "$who" = "$ACCOUNT" ] || $DRY || { echo "aws-acceptance: the credentials are for account $who, not --account $ACCOUNT" >&2; exit 2; }
ok "account $ACCOUNT, $REGION"

step "deploy the central stack"
if [ -n "$ENDPOINT" ]; then
	ok "not emulated: the harness runs infra's synthesized definitions, function roles and handlers; reading its outputs"
else
	template=infra/cdk.out/$CENTRAL.template.json
	[ -f "$template" ] || $DRY || fail "$template is missing: run make lambdas synth"
	ORG=$(awsx organizations describe-organization --query Organization.Id --output text) || fail "the account is in no organisation"
	ORG=$(or_placeholder "$ORG" OrganizationId)
	assets_bucket=cdk-hnb659fds-assets-$ACCOUNT-$REGION
	# Publish the Lambda assets as the CDK would (zip each asset directory
	# to its object key in the bootstrap bucket).
	if $DRY; then
		printf '  would run: python3 (zip each file asset of infra/cdk.out/%s.assets.json)\n' "$CENTRAL" >&3
		awsx s3 cp '<asset>.zip' "s3://$assets_bucket/<asset hash>.zip"
	else
		python3 - "infra/cdk.out/$CENTRAL.assets.json" "$tmp" "$ACCOUNT" "$REGION" >"$tmp/assets" <<'EOF' || fail "cannot read the asset manifest"
import json, os, sys, zipfile
manifest, out, account, region = sys.argv[1:]
base = os.path.dirname(manifest)
for h, a in json.load(open(manifest)).get("files", {}).items():
    src = os.path.join(base, a["source"]["path"])
    if a["source"].get("packaging") == "zip":
        z = os.path.join(out, h + ".zip")
        with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
            for root, _, files in os.walk(src):
                for f in files:
                    p = os.path.join(root, f)
                    zi = zipfile.ZipInfo.from_file(p, os.path.relpath(p, src))
                    zi.date_time = (1980, 1, 1, 0, 0, 0)
                    zf.writestr(zi, open(p, "rb").read(), zipfile.ZIP_DEFLATED)
        src = z
    for d in a["destinations"].values():
        sub = lambda s: s.replace("${AWS::AccountId}", account).replace("${AWS::Region}", region).replace("${AWS::Partition}", "aws")
        print(src + "\t" + sub(d["bucketName"]) + "\t" + sub(d["objectKey"]))
EOF
		while IFS=$'\t' read -r src bucket key; do
			awsx s3 cp "$src" "s3://$bucket/$key" --only-show-errors || fail "upload asset $key to $bucket"
		done <"$tmp/assets"
	fi
	deployed_central=true
	awsx cloudformation deploy --stack-name "$CENTRAL" --template-file "$template" --s3-bucket "$assets_bucket" \
		--capabilities CAPABILITY_IAM CAPABILITY_NAMED_IAM CAPABILITY_AUTO_EXPAND --no-fail-on-empty-changeset \
		--parameter-overrides "OrganizationId=$ORG" "MemberOrganizationalUnitIds=${OU:-<OU>}" "MemberRegions=$REGION" \
		EnableRevert=true EnableSecurityHub=true || fail "cloudformation deploy $CENTRAL"
	# What the stack retains on deletion, for the teardown.
	if ! $DRY; then
		awsx cloudformation list-stack-resources --stack-name "$CENTRAL" >"$tmp/central-resources" || fail "list-stack-resources $CENTRAL"
		while IFS= read -r line; do retained+=("$line"); done < <(python3 - "$template" "$tmp/central-resources" <<'EOF'
import json, sys
tpl = json.load(open(sys.argv[1]))
keep = {k for k, r in tpl.get("Resources", {}).items() if r.get("DeletionPolicy") == "Retain"}
for r in json.load(open(sys.argv[2]))["StackResourceSummaries"]:
    if r["LogicalResourceId"] in keep and r.get("PhysicalResourceId"):
        print(r["ResourceType"] + "\t" + r["PhysicalResourceId"])
EOF
		)
	else
		retained=("AWS::DynamoDB::Table	<TableName>" "AWS::S3::Bucket	<SweepTargets>" "AWS::KMS::Key	<LogsKey>" "AWS::KMS::Key	<MessagesKey>")
	fi
	ok "$CENTRAL deployed (EnableRevert, EnableSecurityHub)"
fi
outputs SweepStateMachineArn RevertStateMachineArn TableName ApprovalUrl AlertTopicArn
SWEEP_ARN=${OUT[SweepStateMachineArn]} REVERT_ARN=${OUT[RevertStateMachineArn]} TABLE=${OUT[TableName]}
APPROVAL_URL=${OUT[ApprovalUrl]} TOPIC_ARN=${OUT[AlertTopicArn]}

step "deploy the member template into the account"
if [ -n "$ENDPOINT" ]; then
	ok "not emulated: the harness seeds the read, revert and findings roles with infra's synthesized policies"
else
	if ! $DRY; then
		python3 - "$template" >"$tmp/member.json" <<'EOF' || fail "no member StackSet template in $template"
import json, sys
for r in json.load(open(sys.argv[1]))["Resources"].values():
    if r["Type"] == "AWS::CloudFormation::StackSet" and r["Properties"].get("StackSetName") == "realdrift-member":
        print(r["Properties"]["TemplateBody"]); break
else:
    raise SystemExit("no realdrift-member StackSet")
EOF
	fi
	deployed_member=true
	awsx cloudformation deploy --stack-name "$MEMBER" --template-file "$tmp/member.json" --s3-bucket "$assets_bucket" \
		--capabilities CAPABILITY_NAMED_IAM --no-fail-on-empty-changeset \
		--parameter-overrides "CentralAccountId=$ACCOUNT" "CentralEventBusArn=arn:aws:events:$REGION:$ACCOUNT:event-bus/realdrift" \
		"OrganizationId=$ORG" "RoleRegion=$REGION" EnableRevert=true EnableSecurityHub=true || fail "cloudformation deploy $MEMBER"
	ok "$MEMBER deployed (read, revert and findings roles, change forwarding)"
fi

step "deploy the target stack (one queue, VisibilityTimeout 30)"
if [ -n "$ENDPOINT" ]; then
	ok "not emulated: the harness's world holds $TARGET from testdata/acceptance/target.template.json"
else
	deployed_target=true
	awsx cloudformation deploy --stack-name "$TARGET" --template-file testdata/acceptance/target.template.json \
		--no-fail-on-empty-changeset || fail "cloudformation deploy $TARGET"
	ok "$TARGET deployed"
fi
QUEUE_URL=$(awsx cloudformation list-stack-resources --stack-name "$TARGET" \
	--query "StackResourceSummaries[?LogicalResourceId=='Queue'].PhysicalResourceId | [0]" --output text) || fail "list-stack-resources $TARGET"
QUEUE_URL=$(or_placeholder "$QUEUE_URL" QueueUrl)

step "alert channel"
if [ -n "$ENDPOINT" ]; then
	ok "the harness's Slack webhook (the sandbox has no SNS Publish)"
else
	alert_queue_url=$(awsx sqs create-queue --queue-name "$ALERT_QUEUE" --query QueueUrl --output text) || fail "create the alert queue"
	alert_queue_url=$(or_placeholder "$alert_queue_url" AlertQueueUrl)
	alert_queue_arn=$(awsx sqs get-queue-attributes --queue-url "$alert_queue_url" --attribute-names QueueArn --query Attributes.QueueArn --output text)
	alert_queue_arn=$(or_placeholder "$alert_queue_arn" AlertQueueArn)
	policy=$(printf '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"sns.amazonaws.com"},"Action":"sqs:SendMessage","Resource":"%s","Condition":{"ArnEquals":{"aws:SourceArn":"%s"}}}]}' "$alert_queue_arn" "$TOPIC_ARN")
	awsx sqs set-queue-attributes --queue-url "$alert_queue_url" --attributes "$(python3 -c 'import json,sys; print(json.dumps({"Policy": sys.argv[1]}))' "$policy" 2>/dev/null || echo '{"Policy":"…"}')" ||
		fail "alert queue policy"
	awsx sns subscribe --topic-arn "$TOPIC_ARN" --protocol sqs --notification-endpoint "$alert_queue_arn" \
		--attributes RawMessageDelivery=true >/dev/null || fail "subscribe the alert queue to $TOPIC_ARN"
	hub=$(awsx securityhub enable-security-hub --no-enable-default-standards 2>&1) && hub_enabled=true ||
		grep -q ResourceConflictException <<<"$hub" || fail "enable Security Hub: $hub"
	ok "SNS $TOPIC_ARN → SQS $ALERT_QUEUE; Security Hub on"
fi

step "out-of-band change: VisibilityTimeout 30 → 45"
awsx sqs set-queue-attributes --queue-url "$QUEUE_URL" --attributes VisibilityTimeout=45 || fail "sqs set-queue-attributes"
vt=$(awsx sqs get-queue-attributes --queue-url "$QUEUE_URL" --attribute-names VisibilityTimeout --query Attributes.VisibilityTimeout --output text)
$DRY || [ "$vt" = 45 ] || fail "the queue reads VisibilityTimeout $vt after the change"
ok "$QUEUE_URL"

step "sweep"
sweep_arn=$(awsx stepfunctions start-execution --state-machine-arn "$SWEEP_ARN" --name "acceptance-$RUN_ID" \
	--input '{}' --query executionArn --output text) || fail "start the sweep"
sweep_arn=$(or_placeholder "$sweep_arn" SweepExecutionArn)
ex=$(wait_execution "$sweep_arn") || fail "the sweep did not finish in $TIMEOUT s: $ex"
if ! $DRY; then
	status=$(jsonfield status <<<"$ex")
	[ "$status" = SUCCEEDED ] || fail "sweep $status: $(jsonfield error <<<"$ex") $(jsonfield cause <<<"$ex")"
	ok "SUCCEEDED: $(jsonfield output <<<"$ex" | cut -c1-300)"
else ok "started and waited for"; fi

step "the finding is stored (DynamoDB)"
key=$(printf '{"pk":{"S":"STACK#%s#%s#%s"},"sk":{"S":"FINDINGS#LATEST"}}' "$ACCOUNT" "$REGION" "$TARGET")
item=$(awsx dynamodb get-item --table-name "$TABLE" --key "$key" --consistent-read) || fail "dynamodb get-item"
if ! $DRY; then
	got=$(python3 -c '
import base64, json, sys
it = json.load(sys.stdin).get("Item")
if not it: raise SystemExit("no FINDINGS#LATEST item")
rec = json.loads(it["record"]["S"])
data = base64.b64decode(it["data"]["B"]).decode() if "data" in it else ""
if rec.get("verdict") != "drift": raise SystemExit("verdict %r, want drift: %s" % (rec.get("verdict"), rec))
if "VisibilityTimeout" not in data: raise SystemExit("no VisibilityTimeout finding in " + data[:300])
print("verdict drift, counts %s, run %s" % (json.dumps(rec.get("counts")), rec.get("runId")))
' <<<"$item" 2>&1) || fail "$got"
	ok "$got"
else ok "read"; fi

step "the alert arrives"
contains_target='
import json, sys
msgs = [m for m in sys.stdin.read().split("\x1e") if m.strip()]
hit = [m for m in msgs if sys.argv[1] in m]
if not hit: raise SystemExit("%d messages, none names %s" % (len(msgs), sys.argv[1]))
print("%d of %d messages name %s" % (len(hit), len(msgs), sys.argv[1]))
'
if [ -n "$ENDPOINT" ]; then
	posts=$(runx curl -sf "$ENDPOINT/_acceptance/slack") || fail "read the harness's Slack webhook"
	if ! $DRY; then
		got=$(python3 -c 'import json,sys; print("\x1e".join(json.load(sys.stdin)))' <<<"$posts" | python3 -c "$contains_target" "$TARGET" 2>&1) || fail "Slack: $got"
		ok "Slack: $got"
	else ok "read"; fi
else
	deadline=$((SECONDS + TIMEOUT))
	: >"$tmp/alerts"
	while :; do
		awsx sqs receive-message --queue-url "$alert_queue_url" --max-number-of-messages 10 --wait-time-seconds 10 \
			--query 'Messages[].Body' --output json >"$tmp/batch" || fail "sqs receive-message"
		$DRY && break
		python3 -c 'import json,sys; print("\x1e".join(json.load(sys.stdin) or []), end="\x1e")' <"$tmp/batch" >>"$tmp/alerts"
		got=$(python3 -c "$contains_target" "$TARGET" <"$tmp/alerts" 2>&1) && break
		[ $SECONDS -lt $deadline ] || fail "SNS: $got"
	done
	$DRY && ok "read" || ok "SNS: $got"
fi

step "the Security Hub finding arrives"
filters=$(printf '{"ProductFields":[{"Key":"realdrift/stack","Value":"%s","Comparison":"EQUALS"}],"RecordState":[{"Value":"ACTIVE","Comparison":"EQUALS"}]}' "$TARGET")
hub=$(awsx securityhub get-findings --filters "$filters" --query 'length(Findings)' --output text) || fail "securityhub get-findings"
$DRY || [ "${hub:-0}" -gt 0 ] || fail "no ACTIVE finding of $TARGET"
ok "$(or_placeholder "$hub" N) ACTIVE finding(s) of $TARGET"

step "revert through an approval"
input=$(printf '{"account":"%s","region":"%s","stack":"%s","all":true}' "$ACCOUNT" "$REGION" "$TARGET")
revert_name="acceptance-revert-$RUN_ID"
revert_arn=$(awsx stepfunctions start-execution --state-machine-arn "$REVERT_ARN" --name "$revert_name" \
	--input "$input" --query executionArn --output text) || fail "start the revert"
revert_arn=$(or_placeholder "$revert_arn" RevertExecutionArn)
# The approval: an IAM-signed call to the approve-link function's URL, as
# an operator runs it from the approval message; it is retried until the
# execution waits for it.
deadline=$((SECONDS + TIMEOUT))
while :; do
	if approved=$(runx $REALDRIFT_CMD approve --url "$APPROVAL_URL" "$revert_name" 2>&1); then break; fi
	grep -q "no approval is pending" <<<"$approved" || fail "realdrift approve: $approved"
	[ $SECONDS -lt $deadline ] || fail "the revert never asked for approval: $approved"
	sleep "$POLL"
done
ex=$(wait_execution "$revert_arn") || fail "the revert did not finish in $TIMEOUT s: $ex"
if ! $DRY; then
	status=$(jsonfield status <<<"$ex")
	[ "$status" = SUCCEEDED ] || fail "revert $status: $(jsonfield error <<<"$ex") $(jsonfield cause <<<"$ex")"
	out=$(jsonfield output <<<"$ex")
	ok "approved ($(tr '\n' ' ' <<<"$approved" | cut -c1-120)); $(cut -c1-300 <<<"$out")"
else ok "approved and waited for"; fi

step "the queue is reverted"
vt=$(awsx sqs get-queue-attributes --queue-url "$QUEUE_URL" --attribute-names VisibilityTimeout --query Attributes.VisibilityTimeout --output text) ||
	fail "sqs get-queue-attributes"
$DRY || [ "$vt" = 30 ] || fail "VisibilityTimeout $vt after the revert, want 30"
ok "VisibilityTimeout 30"

step "aws:CalledVia of Cloud Control's handler calls"
if [ -n "$ENDPOINT" ]; then
	skip "needs IAM role writes the sandbox does not evaluate (TestCloudControlWriteHandlerPermissions holds the rule locally)"
else
	# A probe role whose queue permissions (and GetSecretValue) hold only
	# under one aws:CalledVia value: a Cloud Control update that succeeds
	# under it names the value Cloud Control's handlers carry; the role's
	# direct calls are refused.
	trust=$(printf '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::%s:root"},"Action":"sts:AssumeRole"}]}' "$ACCOUNT")
	awsx iam create-role --role-name "$PROBE_ROLE" --assume-role-policy-document "$trust" >/dev/null || fail "create the probe role"
	probe_role=true
	found=""
	for via in cloudformation.amazonaws.com cloudcontrolapi.amazonaws.com; do
		pol=$(printf '{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["cloudformation:GetResource","cloudformation:UpdateResource","cloudformation:GetResourceRequestStatus"],"Resource":"*"},{"Effect":"Allow","Action":["sqs:GetQueueAttributes","sqs:SetQueueAttributes","sqs:ListQueueTags","sqs:TagQueue","sqs:UntagQueue","secretsmanager:GetSecretValue"],"Resource":"*","Condition":{"ForAnyValue:StringEquals":{"aws:CalledVia":"%s"}}}]}' "$via")
		awsx iam put-role-policy --role-name "$PROBE_ROLE" --policy-name probe --policy-document "$pol" || fail "probe policy"
		$DRY || sleep 15 # IAM is eventually consistent
		creds=$(awsx sts assume-role --role-arn "arn:aws:iam::$ACCOUNT:role/$PROBE_ROLE" --role-session-name probe \
			--query 'Credentials.[AccessKeyId,SecretAccessKey,SessionToken]' --output text) || fail "assume the probe role"
		read -r pk ps pt <<<"${creds:-x x x}"
		token=$(AWS_ACCESS_KEY_ID=$pk AWS_SECRET_ACCESS_KEY=$ps AWS_SESSION_TOKEN=$pt awsx cloudcontrol update-resource \
			--type-name AWS::SQS::Queue --identifier "$QUEUE_URL" \
			--patch-document '[{"op":"replace","path":"/VisibilityTimeout","value":31}]' \
			--query ProgressEvent.RequestToken --output text) || fail "cloudcontrol update-resource as the probe"
		st=IN_PROGRESS
		while ! $DRY && [ "$st" = IN_PROGRESS ] || [ "$st" = PENDING ]; do
			sleep 3
			st=$(AWS_ACCESS_KEY_ID=$pk AWS_SECRET_ACCESS_KEY=$ps AWS_SESSION_TOKEN=$pt awsx cloudcontrol get-resource-request-status \
				--request-token "$token" --query ProgressEvent.OperationStatus --output text) || st=FAILED
		done
		if $DRY || [ "$st" = SUCCESS ]; then found=$via; $DRY || break; fi
	done
	$DRY || [ -n "$found" ] || fail "no candidate aws:CalledVia value let Cloud Control's update handler write"
	direct=$(AWS_ACCESS_KEY_ID=${pk:-} AWS_SECRET_ACCESS_KEY=${ps:-} AWS_SESSION_TOKEN=${pt:-} awsx sqs set-queue-attributes \
		--queue-url "$QUEUE_URL" --attributes VisibilityTimeout=32 2>&1) && ! $DRY && fail "the probe role's direct SetQueueAttributes succeeded"
	$DRY || grep -q AccessDenied <<<"$direct" || fail "the direct call failed otherwise: $direct"
	# The deployed revert role: the data reads its handler grants hold
	# (through AWS services only) are refused to the role's own calls.
	outputs SlackSecretArn
	direct=$(AWS_ACCESS_KEY_ID=${pk:-} AWS_SECRET_ACCESS_KEY=${ps:-} AWS_SESSION_TOKEN=${pt:-} awsx secretsmanager get-secret-value \
		--secret-id "${OUT[SlackSecretArn]}" 2>&1) && ! $DRY && fail "the probe role read the Slack secret directly"
	$DRY || grep -q AccessDenied <<<"$direct" || fail "the direct GetSecretValue failed otherwise: $direct"
	sim=$(awsx iam simulate-principal-policy --policy-source-arn "arn:aws:iam::$ACCOUNT:role/realdrift-revert" \
		--action-names secretsmanager:GetSecretValue kms:Decrypt s3:GetObject dynamodb:Scan \
		--context-entries ContextKeyName=aws:ViaAWSService,ContextKeyValues=false,ContextKeyType=boolean \
		--query 'EvaluationResults[?EvalDecision==`allowed`].EvalActionName' --output text) || fail "iam simulate-principal-policy of realdrift-revert"
	$DRY || [ -z "$sim" ] || [ "$sim" = None ] || fail "realdrift-revert may call $sim itself"
	ok "Cloud Control's handler calls carry aws:CalledVia $(or_placeholder "$found" value); the probe's direct SetQueueAttributes and GetSecretValue are denied; realdrift-revert's own GetSecretValue, Decrypt, GetObject and Scan are not allowed; deploy the central stack with HandlerCalledVia=$(or_placeholder "$found" value) to hold realdrift-revert's handler grants to those calls"
fi
