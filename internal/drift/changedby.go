package drift

import (
	"fmt"
	"strings"
	"time"
)

// Agent is the family of the user agent that made a change, as CloudTrail
// records it.
type Agent uint8

// The user agent families.
const (
	AgentOther Agent = iota
	AgentConsole
	AgentCLI
	AgentSDK
	AgentCloudFormation
	// AgentAWS is a call AWS made on the principal's behalf ("AWS
	// Internal", a service's own endpoint).
	AgentAWS
)

var agentNames = [...]string{AgentOther: "other", AgentConsole: "console", AgentCLI: "CLI", AgentSDK: "SDK", AgentCloudFormation: "CloudFormation", AgentAWS: "AWS"}

// String names the family ("console", "CLI", "SDK", "CloudFormation").
func (a Agent) String() string {
	if int(a) < len(agentNames) {
		return agentNames[a]
	}
	return fmt.Sprintf("Agent(%d)", uint8(a))
}

// MarshalText writes the family's name.
func (a Agent) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText reads a family's name.
func (a *Agent) UnmarshalText(b []byte) error {
	for i, n := range agentNames {
		if n == string(b) {
			*a = Agent(i)
			return nil
		}
	}
	return fmt.Errorf("unknown user agent family %q", b)
}

// ChangedBy says who last wrote a drifted resource: the CloudTrail
// management event that did, or, when none is known, why (Unknown). It
// never changes a verdict.
type ChangedBy struct {
	// Principal is the caller's ARN; Name what to call it (the IAM user's
	// name, the role session's source identity or session name, "root").
	Principal string `json:"principal,omitempty"`
	Name      string `json:"name,omitempty"`
	// SourceIdentity and SessionName are an assumed role session's.
	SourceIdentity string    `json:"sourceIdentity,omitempty"`
	SessionName    string    `json:"sessionName,omitempty"`
	EventName      string    `json:"eventName,omitempty"`
	EventSource    string    `json:"eventSource,omitempty"`
	Time           time.Time `json:"time,omitzero"`
	// SourceIP is the caller's address, or "AWS Internal".
	SourceIP  string `json:"sourceIP,omitempty"`
	UserAgent string `json:"userAgent,omitempty"`
	Agent     Agent  `json:"agent"`
	EventID   string `json:"eventId,omitempty"`
	Region    string `json:"region,omitempty"`
	// Unknown says why no event names the writer: none found (older than
	// the 90 days CloudTrail's event history keeps, or not a management
	// event: a data event, a change a service made itself), or the lookup
	// failed (access denied, throttled out).
	Unknown string `json:"unknown,omitempty"`
}

// Known reports whether an event names the writer.
func (c ChangedBy) Known() bool { return c.Unknown == "" && c.EventID != "" }

// Line is the one-line form reports show: "changed by alice (console)
// 2026-12-05 09:14 UTC", or "changed by: unknown (why)".
func (c ChangedBy) Line() string {
	if !c.Known() {
		return "changed by: unknown (" + c.Unknown + ")"
	}
	who := c.Name
	if who == "" {
		who = c.Principal
	}
	return fmt.Sprintf("changed by %s (%s) %s", who, c.Agent, c.Time.UTC().Format("2006-01-02 15:04 UTC"))
}

// Detail is the event behind Line: "SetQueueAttributes by
// arn:aws:sts::…:assumed-role/Admin/alice from 198.51.100.7, event 1f2e…".
func (c ChangedBy) Detail() string {
	if !c.Known() {
		return ""
	}
	parts := []string{c.EventName + " by " + c.Principal}
	if c.SourceIP != "" {
		parts = append(parts, "from "+c.SourceIP)
	}
	parts = append(parts, "event "+c.EventID)
	return strings.Join(parts, ", ")
}

// AgentOf is the family of a CloudTrail userAgent.
func AgentOf(userAgent string) Agent {
	ua := strings.ToLower(userAgent)
	for _, r := range agentRules {
		for _, p := range r.marks {
			if strings.Contains(ua, p) {
				return r.agent
			}
		}
	}
	return AgentOther
}

// agentRules map user agent marks to families, first match wins: the AWS
// CLI is built on an SDK (botocore), and CloudFormation's calls name it.
var agentRules = []struct {
	agent Agent
	marks []string
}{
	{AgentCloudFormation, []string{"cloudformation.amazonaws.com"}},
	{AgentConsole, []string{"console.amazonaws.com", "console.aws.amazon.com", "signin.amazonaws.com", "mozilla/"}},
	{AgentCLI, []string{"aws-cli/"}},
	{AgentSDK, []string{"aws-sdk-", "boto3/", "botocore/", "aws-internal/3 aws-sdk", "aws-cdk"}},
	{AgentAWS, []string{"aws internal", ".amazonaws.com"}},
}
