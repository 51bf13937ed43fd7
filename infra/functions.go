package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Function is one Lambda function of the service.
type Function struct {
	Name string
	// Reader functions assume the member accounts' read role.
	Reader bool
	// Reverter functions assume the member accounts' opt-in revert role
	// (the revert's writes).
	Reverter bool
	// Table lists the function's table access: the actions it calls on
	// the items of each key prefix (table.go), nothing more.
	Table []tableGrant
	// TimeoutSeconds bounds one invocation.
	TimeoutSeconds float64
	// MemoryMB is the function's memory (512 when zero). The paced
	// readers spend most of an invocation waiting for their account-region's
	// schedule (internal/pace) and get less: Lambda bills GB-seconds.
	MemoryMB float64
	// Description is the function's description.
	Description string
}

// memory is the function's memory in MB.
func (f Function) memory() float64 {
	if f.MemoryMB > 0 {
		return f.MemoryMB
	}
	return 512
}

// ReadRateParameter is the central stack's parameter of the sweep's read
// rate per member account and region.
const ReadRateParameter = "ReadRatePerAccountRegion"

// ReadRoleName is the member accounts' read role, assumed by the reader
// functions.
const ReadRoleName = "realdrift-read"

// RevertRoleName is the member accounts' opt-in revert role (member.go),
// assumed by the reverter functions.
const RevertRoleName = "realdrift-revert"

// functions is the registration table of the service's Lambdas (the names
// are fixed: functions/<name>/main.go, statemachine's ${XFunctionArn}).
func functions() []Function {
	return []Function{
		{Name: "discover", Reader: true, TimeoutSeconds: 120, Description: "List organisation accounts and each account's stacks; open the run.",
			Table: []tableGrant{runState()}},
		{Name: "load-desired", Reader: true, TimeoutSeconds: 60, Description: "Load a stack's deployed template into the desired model.",
			Table: []tableGrant{runState()}},
		{Name: "read-resources", Reader: true, TimeoutSeconds: 120, MemoryMB: 256, Description: "Read one batch of live resources.",
			Table: []tableGrant{runState()}},
		{Name: "resolve", Reader: true, TimeoutSeconds: 60, Description: "Resolve declared properties with live attributes.",
			Table: []tableGrant{runState()}},
		{Name: "enumerate-children", Reader: true, TimeoutSeconds: 120, MemoryMB: 256, Description: "Enumerate live children of declared parents.",
			Table: []tableGrant{runState()}},
		// Reads the stack's baseline and the ignore rules; and, through the
		// member read role, the account facts (default security groups, KMS
		// aliases) and nested stacks' templates — so it assumes the role and
		// paces those calls like every reader.
		{Name: "classify", Reader: true, TimeoutSeconds: 60, Description: "Classify findings; apply baseline and ignore rules.",
			Table: []tableGrant{runState(), {Prefixes: []string{pkIgnore, pkStack}, Actions: valueRead()}}},
		// Reads the latest findings, writes run history and latest findings
		// (PutRun) and the resource index (PutIndex); reads the last alerted
		// fingerprint (run state of the alerts run).
		{Name: "persist", TimeoutSeconds: 30, Description: "Record a stack's findings, failures and run summaries.",
			Table: []tableGrant{{Prefixes: []string{pkRun, pkStack}, Actions: valueReadWrite()}, {Prefixes: []string{pkResource}, Actions: []string{"dynamodb:BatchWriteItem"}}}},
		// Writes what it sent (run state) and the last alerted fingerprint.
		{Name: "notify", TimeoutSeconds: 30, Description: "Send alerts to SNS, Slack and EventBridge.",
			Table: []tableGrant{runState(), {Prefixes: []string{pkAudit}, Actions: valueRead()}}},
		// Looks up the resource index; opens and extends debounce windows
		// (UpdateItem), and its flush lists them (Query) and closes them;
		// keeps each changed resource's last writer (the writers' run
		// state only, not every run's).
		{Name: "trigger", TimeoutSeconds: 30, Description: "Map a CloudTrail change to its stack; start check-stack once its debounce window closed.",
			Table: []tableGrant{{Prefixes: []string{pkResource}, Actions: []string{"dynamodb:Query"}}, {Prefixes: []string{pkTrigger}, Actions: []string{"dynamodb:DeleteItem", "dynamodb:Query", "dynamodb:UpdateItem"}},
				{Prefixes: []string{pkWriters}, Actions: valueReadWrite()}}},
		// The revert state machine's steps (revert.go). Plan and converge
		// check the whole stack in one invocation and read its baseline and
		// the ignore rules; write re-reads the resource it writes, reconciled
		// the same way (a stale plan is refused), and is the only one that
		// assumes the revert role.
		{Name: "revert-plan", Reader: true, TimeoutSeconds: 300, Description: "Check a stack and store the plan of its revert.",
			Table: []tableGrant{runState(), {Prefixes: []string{pkIgnore, pkStack}, Actions: valueRead()}}},
		{Name: "request-approval", TimeoutSeconds: 30, Description: "Store a revert's task token and ask for its approval.",
			Table: []tableGrant{runState()}},
		{Name: "revert-write", Reader: true, Reverter: true, TimeoutSeconds: 300, Description: "Write one resource of a revert plan through the member revert role.",
			Table: []tableGrant{runState(), {Prefixes: []string{pkIgnore, pkStack}, Actions: valueRead()}}},
		{Name: "revert-converge", Reader: true, TimeoutSeconds: 300, Description: "Check a stack again after a revert; decide each item's outcome.",
			Table: []tableGrant{runState(), {Prefixes: []string{pkIgnore, pkStack}, Actions: valueRead()}}},
		{Name: "revert-audit", TimeoutSeconds: 30, Description: "Record a revert's audit item.",
			Table: []tableGrant{runState(), {Prefixes: []string{pkAudit}, Actions: valueReadWrite()}}},
		// Behind a function URL with AuthType AWS_IAM (service.go): reads
		// the approval, records the decision with the signer Lambda
		// verified, answers the waiting execution.
		{Name: "approve-link", TimeoutSeconds: 30, Description: "Approve or reject a waiting revert from an IAM-signed call to its function URL.",
			Table: []tableGrant{runState()}},
		// The accept state machine's one step (internal/service accept.go):
		// checks the whole stack through the read role, reads the ignore
		// rules, writes the stack's baseline (STACK#: the document, its
		// chunks) and, once, the audit item (AUDIT#: conditional on its
		// absence). It keeps no run state.
		{Name: "accept", Reader: true, TimeoutSeconds: 300, Description: "Record a stack's current undeclared state as its baseline; audit it.",
			Table: []tableGrant{{Prefixes: []string{pkAudit, pkStack}, Actions: valueReadWrite()}, {Prefixes: []string{pkIgnore}, Actions: valueRead()}}},
	}
}

// substitutionName is the DefinitionSubstitutions key of a function's ARN
// (enumerate-children → EnumerateChildrenFunctionArn), as statemachine
// names it.
func substitutionName(fn string) string { return pascal(fn) + "FunctionArn" }

// pascal turns a function name into a construct id: load-desired → LoadDesired.
func pascal(fn string) string {
	var b strings.Builder
	for _, part := range strings.Split(fn, "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// assetDirs maps each function to its asset directory, and lists the
// functions that fell back to the placeholder.
func (c Config) assetDirs() (map[string]string, []string, error) {
	dirs := map[string]string{}
	var missing []string
	for _, fn := range functions() {
		dir := filepath.Join(c.LambdaDir, fn.Name)
		if st, err := os.Stat(filepath.Join(dir, "bootstrap")); err == nil && st.Mode().IsRegular() {
			dirs[fn.Name] = dir
			continue
		}
		missing = append(missing, fn.Name)
		dirs[fn.Name] = c.PlaceholderDir
	}
	if len(missing) > 0 && !c.AllowMissingLambdas {
		return nil, nil, fmt.Errorf("lambda assets missing in %s for %s: run `make lambdas` (or allow placeholders with %s=true)",
			c.LambdaDir, strings.Join(missing, ", "), envAllowMissing)
	}
	if len(missing) > 0 {
		if _, err := os.Stat(filepath.Join(c.PlaceholderDir, "README.txt")); err != nil {
			return nil, nil, fmt.Errorf("placeholder lambda asset: %w", err)
		}
	}
	return dirs, missing, nil
}
