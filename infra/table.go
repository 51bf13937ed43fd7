package main

import (
	"sort"
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/jsii-runtime-go"
)

// Partition-key prefixes of the table's items. They mirror the pk*
// constants of internal/store/layout.go and internal/service/debounce.go's
// pkTrigger (infra cannot import the root module); change them together.
const (
	pkStack    = "STACK#"   // baseline, latest findings, run history of a stack
	pkIgnore   = "IGNORE#"  // ignore rules of a scope
	pkResource = "RES#"     // resource index entries of a physical id
	pkRun      = "RUN#"     // run state, and the last alerted fingerprints (run id realdrift-alerts)
	pkTrigger  = "TRIGGER#" // the trigger's per-stack debounce window
	pkPace     = "PACE#"    // a member account-region's call schedule (internal/pace)
	pkAudit    = "AUDIT#"   // audit items: written once by revert-audit (read by notify) and accept
	// pkWriters is the run state of the last writer of each resource
	// (internal/service writers.go: run id realdrift-writers, one
	// partition per stack), which the trigger keeps.
	pkWriters = pkRun + "realdrift-writers."
)

// The DynamoDB calls behind the store's operations (internal/store
// dynamo*.go). A value (state, document, findings) is a manifest item plus,
// when large, chunks under the same partition key.
//
//   - reading a value: GetItem (manifest), Query (its chunks);
//   - writing a value: BatchWriteItem (chunks, and deleting the chunks of
//     the replaced generation), PutItem (manifest, conditional for
//     documents and the latest findings);
//   - LookupIndex: Query; PutIndex: BatchWriteItem;
//   - the debounce window: PutItem (conditional), DeleteItem;
//   - an audit item: PutItem conditional on its absence (and
//     BatchWriteItem for a large one's chunks), only by revert-audit (a
//     revert's) and accept (an accept's, which keeps no run state); no
//     function that writes findings or run state has any grant on AUDIT#.
//
// No function scans the table or queries gsi1 (only the CLI reads runs by
// id), so no grant names the index or Scan.
func valueRead() []string  { return []string{"dynamodb:GetItem", "dynamodb:Query"} }
func valueWrite() []string { return []string{"dynamodb:BatchWriteItem", "dynamodb:PutItem"} }
func valueReadWrite() []string {
	return append(valueRead(), valueWrite()...)
}

// tableGrant lets a function call Actions on the items whose partition key
// starts with one of Prefixes.
type tableGrant struct {
	Prefixes []string
	Actions  []string
}

// paceGrant is the grant of a reader: moving its account-regions' call
// schedules (one conditional UpdateItem per block of calls, internal/pace).
func paceGrant() tableGrant {
	return tableGrant{Prefixes: []string{pkPace}, Actions: []string{"dynamodb:UpdateItem"}}
}

// runState is the grant every step function needs: its run's state.
func runState() tableGrant { return tableGrant{Prefixes: []string{pkRun}, Actions: valueReadWrite()} }

// leadingKeys is the condition scoping a statement to partition-key
// prefixes. ForAllValues holds every key of a batch request to them.
// (ForAllValues is also true for a request without keys, Scan: which is
// why no statement may grant Scan; the tests hold that.)
func leadingKeys(prefixes []string) map[string]any {
	likes := make([]string, len(prefixes))
	for i, p := range prefixes {
		likes[i] = p + "*"
	}
	sort.Strings(likes)
	return map[string]any{"ForAllValues:StringLike": map[string]any{"dynamodb:LeadingKeys": likes}}
}

// tableStatements turns a function's grants into policy statements on the
// table (not its indexes), one per grant, each scoped to its prefixes.
func tableStatements(tableArn *string, grants []tableGrant) []awsiam.PolicyStatement {
	var out []awsiam.PolicyStatement
	for _, g := range grants {
		actions := append([]string(nil), g.Actions...)
		sort.Strings(actions)
		cond := leadingKeys(g.Prefixes)
		out = append(out, awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
			Sid:        jsii.String("Table" + sidOf(g.Prefixes)),
			Actions:    jsii.Strings(actions...),
			Resources:  jsii.Strings(*tableArn),
			Conditions: &cond,
		}))
	}
	return out
}

// sidOf names a grant's statement by its prefixes: [RUN#, STACK#] →
// RunStack; a prefix that goes on past its '#' is named by its words
// (RUN#realdrift-writers. → RunRealdriftWriters), a Sid being
// alphanumeric.
func sidOf(prefixes []string) string {
	var b strings.Builder
	for _, p := range prefixes {
		for _, w := range strings.FieldsFunc(strings.ToLower(p), func(r rune) bool { return r == '#' || r == '.' }) {
			b.WriteString(pascal(w))
		}
	}
	return b.String()
}
