package service_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/cli"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// The planted secrets: what the vault stack's references resolve to. The
// live models hold them, as AWS returns them; nothing realdrift writes may.
const (
	vaultName = "Vault"
	// plantedToken is the Secrets Manager value of the function's API token.
	plantedToken = "sM-PLANTED-tok-5f1c9a7e3b"
	// plantedDBPassword is the SSM SecureString the database password is.
	plantedDBPassword = "sSm-PLANTED-pw-0b3d6e21aa"
	// plantedNoEcho is the NoEcho parameter's supplied value.
	plantedNoEcho = "nOeCho-PLANTED-pw-7a2e4c90cc"
)

func plantedSecrets() []string { return []string{plantedToken, plantedDBPassword, plantedNoEcho} }

// vaultTemplate declares every secret kind: a secretsmanager and an
// ssm-secure dynamic reference and a NoEcho parameter, two of them in one
// environment map beside a plain key.
func vaultTemplate(account string) string {
	return `{
  "Parameters": {"DbPassword": {"Type": "String", "NoEcho": true}},
  "Resources": {
    "Fn": {"Type": "AWS::Lambda::Function", "Properties": {
      "FunctionName": "Vault-Fn", "Runtime": "python3.12", "Handler": "index.handler",
      "Role": "arn:aws:iam::` + account + `:role/vault-fn",
      "Environment": {"Variables": {
        "API_TOKEN": "{{resolve:secretsmanager:vault/api:SecretString:token}}",
        "DB_PASSWORD": {"Ref": "DbPassword"},
        "LOG_LEVEL": "info"}}}},
    "Db": {"Type": "AWS::RDS::DBInstance", "Properties": {
      "DBInstanceIdentifier": "vault-db", "DBInstanceClass": "db.t3.micro", "Engine": "postgres",
      "MasterUsername": "vaultadmin", "AllocatedStorage": "20",
      "MasterUserPassword": "{{resolve:ssm-secure:/vault/db/password}}"}}
  }
}`
}

// addVaultStack adds the vault stack to account 1's us-east-1. Its live
// models hold the plaintexts at the declared places, the NoEcho value also
// inside an undeclared description, and the environment's plain key
// changed out of band (declared drift beside the secrets).
func addVaultStack(w *sandbox.World) drift.StackRef {
	ref := drift.StackRef{Account: demoAccount(0), Region: "us-east-1", Name: vaultName}
	fnARN := "arn:aws:lambda:" + ref.Region + ":" + ref.Account + ":function:Vault-Fn"
	fn := map[string]any{
		"FunctionName": "Vault-Fn", "Arn": fnARN, "Runtime": "python3.12", "Handler": "index.handler",
		"Role": "arn:aws:iam::" + ref.Account + ":role/vault-fn", "PackageType": "Zip",
		"Description": "password rotated to " + plantedNoEcho,
		"Environment": map[string]any{"Variables": map[string]any{
			"API_TOKEN": plantedToken, "DB_PASSWORD": plantedNoEcho, "LOG_LEVEL": "debug"}},
	}
	db := map[string]any{
		"DBInstanceIdentifier": "vault-db", "DBInstanceClass": "db.t3.micro", "Engine": "postgres",
		"MasterUsername": "vaultadmin", "AllocatedStorage": "20", "MasterUserPassword": plantedDBPassword,
	}
	st := &sandbox.Stack{
		Name: ref.Name, Description: "realdrift e2e: planted secrets", TemplateBody: vaultTemplate(ref.Account),
		Parameters: []sandbox.Parameter{{Key: "DbPassword", Value: plantedNoEcho, NoEcho: true}},
		Resources: []*sandbox.Resource{
			{LogicalID: "Fn", Type: "AWS::Lambda::Function", PhysicalID: "Vault-Fn", Properties: mustJSON(fn)},
			{LogicalID: "Db", Type: "AWS::RDS::DBInstance", PhysicalID: "vault-db", Properties: mustJSON(db)},
		},
	}
	for _, a := range w.Accounts {
		for _, r := range a.Regions {
			if a.ID == ref.Account && r.Name == ref.Region {
				r.Stacks = append(r.Stacks, st)
			}
		}
	}
	return ref
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// TestSecretsNeverPersisted plants secrets, runs sweeps through the real
// state machine, `realdrift check` (JSON and text) and `realdrift record`,
// and then scans every DynamoDB item, every handler log line, every report,
// alert and baseline for the plaintexts: none may hold one. The secrets
// stay unresolved; the changed plain key beside them is declared drift.
func TestSecretsNeverPersisted(t *testing.T) {
	e := startE2E(t, addVaultStack)
	vault := drift.StackRef{Account: demoAccount(0), Region: "us-east-1", Name: vaultName}
	var reports []string
	for i := 1; i <= 2; i++ {
		sum := e.sweep(t, fmt.Sprintf("secrets-%d", i))
		reports = append(reports, mustJSONString(sum))
	}

	got, _ := e.storedFindings(t, vault)
	want := e.cliFindings(t, vault)
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("vault: stored findings differ from `realdrift check --json` (-stored +cli):\n%s", diff)
	}
	reports = append(reports, mustJSONString(got), mustJSONString(want))
	briefs := findingBriefs(got)
	for _, b := range []string{
		"declared Fn Environment.Variables.LOG_LEVEL",
		"unresolved Fn Environment.Variables.API_TOKEN",
		"unresolved Fn Environment.Variables.DB_PASSWORD",
		"undeclared Fn Description",
	} {
		if !briefs[b] {
			t.Errorf("vault findings lack %q; have %v", b, briefs)
		}
	}
	for b := range briefs {
		if strings.HasPrefix(b, "declared Fn Environment.Variables.") && b != "declared Fn Environment.Variables.LOG_LEVEL" {
			t.Errorf("a secret is drift: %q", b)
		}
	}

	// The text report, then a recorded baseline, stored for the service
	// too, and two more sweeps over it.
	reports = append(reports, e.cliText(t, vault))
	e.record(t, vault)
	for i := 3; i <= 4; i++ {
		sum := e.sweep(t, fmt.Sprintf("secrets-%d", i))
		reports = append(reports, mustJSONString(sum))
	}
	after, _ := e.storedFindings(t, vault)
	if hasUnrecorded(after) {
		t.Errorf("vault after record: unrecorded findings remain: %v", findingBriefs(after))
	}
	reports = append(reports, mustJSONString(after), e.cliText(t, vault))

	table := e.scanTable(t)
	if !strings.Contains(table, drift.Redacted) {
		t.Errorf("no withheld value in the table: the planted secrets were never read")
	}
	e.hook.mu.Lock()
	alerts := strings.Join(e.hook.posts, "\n")
	e.hook.mu.Unlock()
	e.events.mu.Lock()
	events := mustJSONString(e.events.entries)
	e.events.mu.Unlock()
	logs := e.logs.String()
	if !strings.Contains(logs, `"function":"classify"`) {
		t.Errorf("no classify log line captured:\n%s", logs)
	}
	sources := map[string]string{
		"DynamoDB items": table,
		"handler logs":   logs,
		"reports":        strings.Join(reports, "\n"),
		"alerts":         alerts + "\n" + events,
		"state dir":      dirText(t, e.stateDir),
	}
	for name, text := range sources {
		for _, p := range plantedSecrets() {
			if n := strings.Count(text, p); n != 0 {
				t.Errorf("%s: %d occurrences of planted secret %q", name, n, p)
			}
		}
	}
}

// findingBriefs renders generic findings as "tier logicalId path".
func findingBriefs(findings any) map[string]bool {
	out := map[string]bool{}
	list, _ := findings.([]any)
	for _, f := range list {
		m, _ := f.(map[string]any)
		out[fmt.Sprintf("%v %v %v", m["tier"], m["logicalId"], m["path"])] = true
	}
	return out
}

func mustJSONString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// cliText runs `realdrift check` with the text report and returns its
// output (the exit code says drift; it is not checked here).
func (e *e2e) cliText(t *testing.T, ref drift.StackRef) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Run(t.Context(), cli.IO{Stdout: &stdout, Stderr: &stderr, Getenv: e.cliEnv(t, ref)},
		[]string{"check", "--region", ref.Region, "--endpoint-url", e.sandboxURL, "--state-dir", e.stateDir, ref.Name})
	if code > 1 {
		t.Fatalf("realdrift check %s: exit %d\n%s", ref, code, stderr.String())
	}
	return stdout.String() + stderr.String()
}

// record runs `realdrift record --yes` for the stack and stores the
// baseline it wrote for the service as well.
func (e *e2e) record(t *testing.T, ref drift.StackRef) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := cli.Run(t.Context(), cli.IO{Stdout: &stdout, Stderr: &stderr, Getenv: e.cliEnv(t, ref)},
		[]string{"record", "--yes", "--region", ref.Region, "--endpoint-url", e.sandboxURL, "--state-dir", e.stateDir, ref.Name}); code != 0 {
		t.Fatalf("realdrift record %s: exit %d\n%s", ref, code, stderr.String())
	}
	doc, err := os.ReadFile(filepath.Join(e.stateDir, "baselines", ref.Name+"."+ref.Account+"."+ref.Region+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.PutBaseline(t.Context(), ref, doc, 0); err != nil {
		t.Fatal(err)
	}
}

// scanTable renders every item of the table (a full Scan) as text, in key
// order, so a value split over chunk items reads joined.
func (e *e2e) scanTable(t *testing.T) string {
	t.Helper()
	var items []string
	p := dynamodb.NewScanPaginator(e.db, &dynamodb.ScanInput{TableName: aws.String(e.table)})
	for p.HasMorePages() {
		page, err := p.NextPage(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			keys := make([]string, 0, len(it))
			for k := range it {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var b strings.Builder
			for _, k := range keys {
				b.WriteString(k + "=" + attrText(it[k]) + " ")
			}
			items = append(items, b.String())
		}
	}
	if len(items) == 0 {
		t.Fatal("the table is empty")
	}
	sort.Strings(items)
	return strings.Join(items, "\n")
}

func attrText(v types.AttributeValue) string {
	switch a := v.(type) {
	case *types.AttributeValueMemberS:
		return a.Value
	case *types.AttributeValueMemberN:
		return a.Value
	case *types.AttributeValueMemberB:
		return string(a.Value)
	case *types.AttributeValueMemberSS:
		return strings.Join(a.Value, ",")
	case *types.AttributeValueMemberNS:
		return strings.Join(a.Value, ",")
	case *types.AttributeValueMemberBS:
		var parts []string
		for _, b := range a.Value {
			parts = append(parts, string(b))
		}
		return strings.Join(parts, ",")
	case *types.AttributeValueMemberM:
		var parts []string
		for k, e := range a.Value {
			parts = append(parts, k+":"+attrText(e))
		}
		sort.Strings(parts)
		return "{" + strings.Join(parts, ",") + "}"
	case *types.AttributeValueMemberL:
		var parts []string
		for _, e := range a.Value {
			parts = append(parts, attrText(e))
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return ""
}

// dirText concatenates every file under dir (baselines, ignore rules,
// whatever the CLI keeps there).
func dirText(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		b.WriteString(path + "\n")
		b.Write(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
