package main

import (
	"strings"
	"testing"
)

// TestAcceptStateMachine: the accept state machine is Standard, logged like the others (TestStateMachineLogging, TestStateMachines hold
// the definition and logging), substitutes only its own function, and its
// role invokes only that function; the accept function assumes only the
// member read role (never the revert role) and its table access is its
// handler's (TestTablePermissions); drift alerts (notify) name the state
// machine; the stack outputs its ARN.
func TestAcceptStateMachine(t *testing.T) {
	sm := resourceByPrefix(t, central, "AWS::StepFunctions::StateMachine", "Accept")
	if sm.props["StateMachineName"] != AcceptStateMachineName || sm.props["StateMachineType"] != "STANDARD" {
		t.Errorf("accept state machine %v %v, want %s STANDARD", sm.props["StateMachineName"], sm.props["StateMachineType"], AcceptStateMachineName)
	}
	subs, _ := sm.props["DefinitionSubstitutions"].(map[string]any)
	if len(subs) != 1 || !strings.HasPrefix(refID(subs["AcceptFunctionArn"]), "FnAccept") {
		t.Errorf("accept substitutions %v, want only AcceptFunctionArn", subs)
	}
	smRole := refID(sm.props["RoleArn"])
	names := roleNames(central)
	for _, st := range statements(t, central) {
		if st.role == smRole {
			for _, a := range st.actions {
				if !strings.HasPrefix(a, "lambda:Invoke") && !strings.HasPrefix(a, "logs:") && !strings.HasPrefix(a, "kms:") {
					t.Errorf("accept state machine role may %s (%v)", a, st.resources)
				}
				if strings.HasPrefix(a, "lambda:") {
					for _, r := range st.resources {
						if !strings.Contains(r, "FnAccept") {
							t.Errorf("accept state machine may %s on %s, want only the accept function", a, r)
						}
					}
				}
			}
		}
		if names[st.role] != "realdrift-accept" {
			continue
		}
		for _, a := range st.actions {
			if a != "sts:AssumeRole" {
				continue
			}
			if len(st.resources) != 1 || !strings.Contains(st.resources[0], ":role/"+ReadRoleName) {
				t.Errorf("accept may assume %v, want only the member read role", st.resources)
			}
		}
	}
	notify := resourceByPrefix(t, central, "AWS::Lambda::Function", "FnNotify")
	vars, _ := notify.props["Environment"].(map[string]any)["Variables"].(map[string]any)
	if refID(vars["REALDRIFT_ACCEPT_STATE_MACHINE_ARN"]) != sm.id {
		t.Errorf("notify REALDRIFT_ACCEPT_STATE_MACHINE_ARN = %s, want the accept state machine %s", js(vars["REALDRIFT_ACCEPT_STATE_MACHINE_ARN"]), sm.id)
	}
	outputs, _ := central["Outputs"].(map[string]any)
	if out, ok := outputs["AcceptStateMachineArn"].(map[string]any); !ok || refID(out["Value"]) != sm.id {
		t.Errorf("output AcceptStateMachineArn = %v, want the accept state machine", outputs["AcceptStateMachineArn"])
	}
}
