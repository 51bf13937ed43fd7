package cli

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// The planted secrets the vault stack's references resolve to; its live
// models hold them as AWS returns them.
const (
	cliPlantedToken    = "sM-PLANTED-cli-tok-91e3a0"
	cliPlantedPassword = "sSm-PLANTED-cli-pw-4d7b22"
	cliPlantedNoEcho   = "nOeCho-PLANTED-cli-pw-c58f1e"
)

// vaultEnv serves a stack "Vault" whose template declares a secretsmanager
// and an ssm-secure dynamic reference and a NoEcho parameter (two of them
// in one environment map beside a plain key that drifted), and whose live
// models hold the plaintexts, the NoEcho value also in an undeclared
// description.
func vaultEnv(t *testing.T) *sandboxEnv {
	t.Helper()
	fn := appResource{logicalID: "Fn", typ: "AWS::Lambda::Function", physicalID: "Vault-Fn",
		declared: map[string]any{
			"Handler": "index.handler", "Runtime": "nodejs20.x", "MemorySize": 128,
			"Role": "arn:aws:iam::" + testAccount + ":role/Vault-FnRole",
			"Environment": map[string]any{"Variables": map[string]any{
				"API_TOKEN":   "{{resolve:secretsmanager:vault/api:SecretString:token}}",
				"DB_PASSWORD": map[string]any{"Ref": "DbPassword"},
				"LOG_LEVEL":   "info",
			}},
		},
		live: map[string]any{
			"FunctionName": "Vault-Fn", "Handler": "index.handler", "Runtime": "nodejs20.x", "MemorySize": 128,
			"Role": "arn:aws:iam::" + testAccount + ":role/Vault-FnRole", "Timeout": 3, "PackageType": "Zip",
			"Arn":         "arn:aws:lambda:" + testRegion + ":" + testAccount + ":function:Vault-Fn",
			"Description": "password rotated to " + cliPlantedNoEcho,
			"Environment": map[string]any{"Variables": map[string]any{
				"API_TOKEN": cliPlantedToken, "DB_PASSWORD": cliPlantedNoEcho, "LOG_LEVEL": "debug",
			}},
		},
	}
	db := appResource{logicalID: "Db", typ: "AWS::RDS::DBInstance", physicalID: "vault-db",
		declared: map[string]any{
			"DBInstanceIdentifier": "vault-db", "DBInstanceClass": "db.t3.micro", "Engine": "postgres",
			"MasterUsername": "vaultadmin", "AllocatedStorage": "20",
			"MasterUserPassword": "{{resolve:ssm-secure:/vault/db/password}}",
		},
		live: map[string]any{
			"DBInstanceIdentifier": "vault-db", "DBInstanceClass": "db.t3.micro", "Engine": "postgres",
			"MasterUsername": "vaultadmin", "AllocatedStorage": "20", "MasterUserPassword": cliPlantedPassword,
		},
	}
	w := appWorld(t, map[string][]appResource{"Vault": {fn, db}})
	st := w.Accounts[0].Regions[0].Stacks[0]
	var tmpl map[string]any
	if err := json.Unmarshal([]byte(st.TemplateBody), &tmpl); err != nil {
		t.Fatal(err)
	}
	tmpl["Parameters"] = map[string]any{"DbPassword": map[string]any{"Type": "String", "NoEcho": true}}
	body, err := json.Marshal(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	st.TemplateBody = string(body)
	st.Parameters = []sandbox.Parameter{{Key: "DbPassword", Value: cliPlantedNoEcho, NoEcho: true}}
	return startSandbox(t, w, testKey, testRegion)
}

// TestCheckAndRecordNeverWriteSecrets runs check (JSON and text), record
// and check again over planted secrets, and scans every report, message and
// file under the state directory: no plaintext. The secrets stay
// unresolved; the drifted plain key beside them is declared drift.
func TestCheckAndRecordNeverWriteSecrets(t *testing.T) {
	env := vaultEnv(t)
	var outputs []string
	run := func(verb string, args ...string) string {
		out, errs, code := env.run(verb, args...)
		if code == ExitError {
			t.Fatalf("%s %v: exit %d\n%s\n%s", verb, args, code, out, errs)
		}
		outputs = append(outputs, out, errs)
		return out
	}
	checkJSON := func() jsonReport {
		var rep jsonReport
		if err := json.Unmarshal([]byte(run("check", "--json", "Vault")), &rep); err != nil {
			t.Fatal(err)
		}
		return rep
	}

	rep := checkJSON()
	for _, p := range []struct{ logicalID, path string }{
		{"Fn", "Environment.Variables.API_TOKEN"},
		{"Fn", "Environment.Variables.DB_PASSWORD"},
	} {
		if f, ok := rep.find(p.logicalID, p.path); !ok || f.Tier != drift.Unresolved {
			t.Errorf("%s.%s: %+v (found %v), want unresolved", p.logicalID, p.path, f, ok)
		}
	}
	if f, ok := rep.find("Fn", "Environment.Variables.LOG_LEVEL"); !ok || f.Tier != drift.Declared {
		t.Errorf("the drifted plain key beside the secrets: %+v (found %v), want declared drift", f, ok)
	}
	if f, ok := rep.find("Fn", "Description"); !ok || f.Actual != drift.Redacted {
		t.Errorf("the undeclared copy of the NoEcho value: %+v (found %v), want it redacted", f, ok)
	}
	run("check", "Vault")
	run("record", "--yes", "Vault")
	checkJSON()
	run("check", "Vault")

	var files strings.Builder
	err := filepath.WalkDir(env.stateDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		files.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(files.String(), drift.Redacted) {
		t.Errorf("the baseline holds no redacted value; was it written?\n%s", files.String())
	}
	for name, text := range map[string]string{"reports": strings.Join(outputs, "\n"), "state dir": files.String()} {
		for _, p := range []string{cliPlantedToken, cliPlantedPassword, cliPlantedNoEcho} {
			if n := strings.Count(text, p); n != 0 {
				t.Errorf("%s: %d occurrences of planted secret %q", name, n, p)
			}
		}
	}
}
