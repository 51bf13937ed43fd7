package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// centralRolesCopy is the committed copy of the central functions' role
// policies the end-to-end sweep seeds the sandbox with (internal/service
// e2e), each function then calling AWS with its own role's credentials.
var centralRolesCopy = filepath.Join("..", "testdata", "iam", "central-roles.json")

// centralRoles is the storage shape of centralRolesCopy: per function role
// (realdrift-<function>), its policy documents with every reference the
// template resolves at deploy time replaced by a {{Placeholder}} the e2e
// fills in (Placeholders says what each stands for).
type centralRoles struct {
	Comment      string            `json:"comment"`
	Placeholders map[string]string `json:"placeholders"`
	Roles        []centralRole     `json:"roles"`
}

type centralRole struct {
	Role      string `json:"role"`
	Documents []any  `json:"documents"`
}

// centralPlaceholders are the placeholders of the copy.
var centralPlaceholders = map[string]string{
	"{{Account}}":        "the central account id",
	"{{Region}}":         "the central region",
	"{{OrganizationId}}": "the OrganizationId parameter",
	"{{Table}}":          "the table's name",
	"{{SlackSecretArn}}": "the Slack webhook secret's ARN",
	"{{Topic}}":          "the alerts topic's name",
	"{{EventBus}}":       "the event bus's name",
	"{{TargetsBucket}}":  "the sweep's stack-list bucket",
}

// TestCentralRolePolicyCopy holds the committed copy equal to the
// synthesized function roles (go test -run TestCentralRolePolicyCopy
// -update rewrites it).
func TestCentralRolePolicyCopy(t *testing.T) {
	want := centralRoles{
		Comment:      "The central functions' role policies as infra synthesizes them, references resolved to placeholders (infra TestCentralRolePolicyCopy keeps this equal; -update rewrites it). The e2e sweep seeds the sandbox with them and calls each function with its own role.",
		Placeholders: centralPlaceholders,
	}
	names := roleNames(central)
	byRole := map[string][]any{}
	for _, p := range resourcesOf(central, "AWS::IAM::Policy") {
		doc, err := resolvePlaceholders(central, p.props["PolicyDocument"])
		if err != nil {
			t.Fatalf("%s: %v", p.id, err)
		}
		for _, r := range p.props["Roles"].([]any) {
			name := names[refID(r)]
			if strings.HasPrefix(name, "realdrift-") {
				byRole[name] = append(byRole[name], doc)
			}
		}
	}
	for _, r := range resourcesOf(central, "AWS::IAM::Role") {
		name, _ := r.props["RoleName"].(string)
		if !strings.HasPrefix(name, "realdrift-") {
			continue
		}
		if r.props["ManagedPolicyArns"] != nil || r.props["Policies"] != nil {
			t.Errorf("role %s has managed or inline policies the copy does not carry", name)
		}
	}
	for _, f := range functions() {
		name := "realdrift-" + f.Name
		docs, ok := byRole[name]
		if !ok {
			t.Errorf("function %s has no role policy", f.Name)
		}
		want.Roles = append(want.Roles, centralRole{Role: name, Documents: docs})
	}
	sort.Slice(want.Roles, func(i, j int) bool { return want.Roles[i].Role < want.Roles[j].Role })
	checkJSONCopy(t, want, centralRolesCopy, "function roles")
}

// resolvePlaceholders resolves the intrinsics of a policy document: pseudo
// parameters and OrganizationId to placeholders, references to the
// template's resources to their ARNs (by type), Fn::Join joined. Any other
// reference fails, so a new kind gets a rule here rather than a wrong copy.
func resolvePlaceholders(tpl map[string]any, v any) (any, error) {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			r, err := resolvePlaceholders(tpl, e)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	case map[string]any:
		if len(x) == 1 {
			for k, arg := range x {
				switch k {
				case "Ref":
					return refPlaceholder(tpl, arg.(string), "")
				case "Fn::GetAtt":
					ga := arg.([]any)
					return refPlaceholder(tpl, ga[0].(string), ga[1].(string))
				case "Fn::Join":
					ja := arg.([]any)
					parts, err := resolvePlaceholders(tpl, ja[1])
					if err != nil {
						return nil, err
					}
					var b strings.Builder
					for i, p := range parts.([]any) {
						s, ok := p.(string)
						if !ok {
							return nil, fmt.Errorf("Fn::Join part %d is %v", i, p)
						}
						if i > 0 {
							b.WriteString(ja[0].(string))
						}
						b.WriteString(s)
					}
					return b.String(), nil
				}
				if strings.HasPrefix(k, "Fn::") {
					return nil, fmt.Errorf("%s has no placeholder rule", k)
				}
			}
		}
		out := map[string]any{}
		for k, e := range x {
			r, err := resolvePlaceholders(tpl, e)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	}
	return v, nil
}

// refPlaceholder resolves a Ref (attr "") or a GetAtt of the template.
func refPlaceholder(tpl map[string]any, id, attr string) (string, error) {
	switch id {
	case "AWS::Partition":
		return "aws", nil
	case "AWS::Region":
		return "{{Region}}", nil
	case "AWS::AccountId":
		return "{{Account}}", nil
	case "OrganizationId":
		return "{{OrganizationId}}", nil
	case "CentralAccountId": // the member template's
		return "{{CentralAccount}}", nil
	case "CentralEventBusArn": // the member template's
		return "{{CentralEventBusArn}}", nil
	}
	res, _ := tpl["Resources"].(map[string]any)
	body, ok := res[id].(map[string]any)
	if !ok {
		return "", fmt.Errorf("reference to %s, which is neither a resource nor a placeholder parameter", id)
	}
	typ, _ := body["Type"].(string)
	props, _ := body["Properties"].(map[string]any)
	regional := func(svc, rest string) string { return "arn:aws:" + svc + ":{{Region}}:{{Account}}:" + rest }
	type rule struct{ typ, attr string }
	switch (rule{typ, attr}) {
	case rule{"AWS::DynamoDB::Table", "Arn"}:
		return regional("dynamodb", "table/{{Table}}"), nil
	case rule{"AWS::SecretsManager::Secret", ""}:
		return "{{SlackSecretArn}}", nil
	case rule{"AWS::SNS::Topic", ""}:
		return regional("sns", "{{Topic}}"), nil
	case rule{"AWS::Events::EventBus", "Arn"}:
		return regional("events", "event-bus/{{EventBus}}"), nil
	case rule{"AWS::S3::Bucket", "Arn"}:
		return "arn:aws:s3:::{{TargetsBucket}}", nil
	case rule{"AWS::Logs::LogGroup", "Arn"}:
		return regional("logs", "log-group:"+id+":*"), nil
	case rule{"AWS::SQS::Queue", "Arn"}:
		return regional("sqs", id), nil
	case rule{"AWS::Lambda::Function", "Arn"}:
		// A function is named by its handler (the local runner invokes
		// function:<name>); its construct id is Fn<Name> plus CDK's hash.
		for _, f := range functions() {
			if len(id) == len("Fn"+pascal(f.Name))+8 && strings.HasPrefix(id, "Fn"+pascal(f.Name)) {
				return regional("lambda", "function:"+f.Name), nil
			}
		}
		return "", fmt.Errorf("function %s is none of functions()", id)
	case rule{"AWS::IAM::Role", "Arn"}:
		// A role by the name the template gives it (realdrift-<function>,
		// realdrift-<name>-states); one whose name CloudFormation
		// generates is named by its logical id. IAM is global: no region.
		name, _ := props["RoleName"].(string)
		if name == "" {
			name = id
		}
		return "arn:aws:iam::{{Account}}:role/" + name, nil
	case rule{"AWS::KMS::Key", "Arn"}:
		return regional("kms", "key/"+id), nil
	case rule{"AWS::StepFunctions::StateMachine", ""}:
		name, _ := props["StateMachineName"].(string)
		if name == "" {
			name = id
		}
		return regional("states", "stateMachine:"+name), nil
	}
	return "", fmt.Errorf("reference to %s.%s (%s) has no placeholder rule", id, attr, typ)
}

// checkJSONCopy holds a committed copy equal to want (-update rewrites
// the copy first), compared as generic JSON.
func checkJSONCopy(t *testing.T, want any, path, what string) {
	t.Helper()
	if *update {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(want); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	wb, _ := json.Marshal(want)
	var wantGeneric, gotGeneric any
	_ = json.Unmarshal(wb, &wantGeneric)
	if err := json.Unmarshal(b, &gotGeneric); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if diff := cmp.Diff(gotGeneric, wantGeneric); diff != "" {
		t.Errorf("%s differs from the synthesized %s (-committed +synthesized; rerun with -update):\n%s", path, what, diff)
	}
}
