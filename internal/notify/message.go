package notify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
	"github.com/realdrift/realdrift/internal/report"
)

// Source is the EventBridge source of realdrift's events.
const Source = "realdrift"

// maxValue bounds how much of one value a message shows.
const maxValue = 120

// Subject is the SNS subject: one ASCII line under 100 characters.
func Subject(s Summary) string {
	sub := fmt.Sprintf("[realdrift] %s: %s (%s/%s)", headline(s), s.Stack.Name, s.Stack.Account, s.Stack.Region)
	var b strings.Builder
	for _, r := range sub {
		if r < 0x20 || r > 0x7e {
			r = '?'
		}
		b.WriteRune(r)
	}
	return clip(b.String(), 99)
}

// clip shortens s to at most n bytes on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - len("...")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// renderValue shows a value through its JSON form (secrets redacted).
func renderValue(v any) string {
	if v == nil {
		return "(absent)"
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "(unprintable)"
	}
	return clip(strings.TrimSuffix(b.String(), "\n"), maxValue)
}

// countsLine renders tiers in report order: "declared 1, undeclared 2".
func countsLine(counts map[drift.Tier]int, drifty bool) string {
	var parts []string
	for _, t := range drift.Tiers() {
		if n := counts[t]; n > 0 && t.IsDrift() == drifty {
			parts = append(parts, fmt.Sprintf("%s %d", t, n))
		}
	}
	return strings.Join(parts, ", ")
}

// findingLine is one finding in a list, named as check prints it (the
// construct path within the stack, else the logical id, then the path):
// declared drift as "template X → live Y", undeclared drift against the
// baseline as "recorded X → live Y (changed since record)", an added
// child with what it is (report.AddedWhat: a subscription's protocol and
// endpoint) beside its identifier.
func findingLine(stack string, f drift.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] %s (%s)", f.Tier, ignore.DisplayPath(stack, f), f.ResourceType)
	switch f.Tier {
	case drift.Deleted:
		b.WriteString(": gone from AWS")
	case drift.Declared:
		fmt.Fprintf(&b, ": template %s → live %s", renderValue(f.Desired), renderValue(f.Actual))
	case drift.Undeclared:
		if f.Desired != nil {
			fmt.Fprintf(&b, ": recorded %s → live %s", renderValue(f.Desired), renderValue(f.Actual))
		} else {
			fmt.Fprintf(&b, ": live %s", renderValue(f.Actual))
		}
	case drift.Added:
		if f.PhysicalID != "" {
			fmt.Fprintf(&b, " %s", f.PhysicalID)
		}
		if what := report.AddedWhat(f); what != "" {
			fmt.Fprintf(&b, ": %s", what)
		}
	}
	if f.Note != "" {
		fmt.Fprintf(&b, " (%s)", f.Note)
	}
	if f.ChangedBy != nil {
		b.WriteString(" — " + f.ChangedBy.Line())
	}
	return b.String()
}

// Text is the plain-text summary (the SNS message body).
func Text(s Summary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", headline(s), s.Stack.Name)
	fmt.Fprintf(&b, "Account: %s  Region: %s  Run: %s\n", s.Stack.Account, s.Stack.Region, s.RunID)
	if !s.At.IsZero() {
		fmt.Fprintf(&b, "Finished: %s\n", s.At.UTC().Format(time.RFC3339))
	}
	switch {
	case s.Event == EventIncomplete, s.Event == EventResolved && s.Verdict.Unread() > 0:
		fmt.Fprintf(&b, "No drift found in what was read; %s.\n", s.Verdict.NotRead())
	case s.Event == EventResolved:
		b.WriteString("No drift remains.\n")
	default:
		fmt.Fprintf(&b, "Drift: %d (%s)\n", s.Drift, countsLine(s.Counts, true))
	}
	if s.Verdict.Unread() > 0 {
		fmt.Fprintf(&b, "Verdict: %s — coverage incomplete: drift on what was not read is unknown (the skipped findings say why)\n", s.Verdict)
	}
	if s.Potential > 0 {
		fmt.Fprintf(&b, "Potential drift (not yet recorded in the baseline): %d\n", s.Potential)
	}
	if info := countsLine(s.Counts, false); info != "" {
		fmt.Fprintf(&b, "Informational: %s\n", info)
	}
	if len(s.Top) > 0 {
		b.WriteString("\nTop findings:\n")
		for _, f := range s.Top {
			fmt.Fprintf(&b, "- %s\n", findingLine(s.Stack.Name, f))
		}
		if more := s.Drift - len(s.Top); more > 0 {
			fmt.Fprintf(&b, "... and %d more\n", more)
		}
	}
	fmt.Fprintf(&b, "\nConsole: %s\n", s.ConsoleURL)
	if s.RevertURL != "" {
		fmt.Fprintf(&b, "Revert (start an execution, input %s): %s\n", RevertInput(s.Stack), s.RevertURL)
	}
	if s.AcceptURL != "" {
		fmt.Fprintf(&b, "Accept the undeclared state as the baseline (start an execution, input %s): %s\n", AcceptInput(s.Stack), s.AcceptURL)
	}
	if s.Fingerprint != "" {
		fmt.Fprintf(&b, "Fingerprint: %s\n", s.Fingerprint)
	}
	return b.String()
}

// slackEscape escapes the three characters Slack's mrkdwn reserves.
func slackEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

type slackText struct {
	Type  string `json:"type"`
	Text  string `json:"text"`
	Emoji bool   `json:"emoji,omitempty"`
}

type slackBlock struct {
	Type     string         `json:"type"`
	Text     *slackText     `json:"text,omitempty"`
	Fields   []slackText    `json:"fields,omitempty"`
	Elements []slackElement `json:"elements,omitempty"`
}

type slackElement struct {
	Type     string     `json:"type"`
	Text     *slackText `json:"text,omitempty"`
	URL      string     `json:"url,omitempty"`
	ActionID string     `json:"action_id,omitempty"`
	// A context element is a bare text object.
	TextValue string `json:"-"`
}

// slackPayload is an incoming-webhook message: fallback text plus blocks.
type slackPayload struct {
	Text   string       `json:"text"`
	Blocks []slackBlock `json:"blocks"`
}

// Slack section texts must stay under 3000 characters.
const slackSectionMax = 2900

// SlackPayload is the Block Kit message for an incoming webhook (JSON).
func SlackPayload(s Summary) ([]byte, error) {
	mrk := func(t string) *slackText { return &slackText{Type: "mrkdwn", Text: clip(t, slackSectionMax)} }
	blocks := []slackBlock{
		{Type: "header", Text: &slackText{Type: "plain_text", Text: clip(headline(s)+": "+s.Stack.Name, 150)}},
		{Type: "section", Fields: []slackText{
			{Type: "mrkdwn", Text: "*Stack*\n" + slackEscape(s.Stack.Name)},
			{Type: "mrkdwn", Text: "*Account*\n" + slackEscape(s.Stack.Account)},
			{Type: "mrkdwn", Text: "*Region*\n" + slackEscape(s.Stack.Region)},
			{Type: "mrkdwn", Text: "*Run*\n" + slackEscape(clip(s.RunID, 200))},
		}},
	}
	var counts strings.Builder
	switch {
	case s.Event == EventIncomplete, s.Event == EventResolved && s.Verdict.Unread() > 0:
		fmt.Fprintf(&counts, "*No drift found in what was read; %s.*", s.Verdict.NotRead())
	case s.Event == EventResolved:
		counts.WriteString("*No drift remains.*")
	default:
		fmt.Fprintf(&counts, "*Drift: %d*", s.Drift)
	}
	if s.Verdict.Unread() > 0 {
		fmt.Fprintf(&counts, "\n*Verdict: %s* — drift on what was not read is unknown", slackEscape(s.Verdict.String()))
	}
	for _, t := range drift.Tiers() {
		if n := s.Counts[t]; n > 0 {
			fmt.Fprintf(&counts, "\n• %s: %d", t, n)
		}
	}
	if s.Potential > 0 {
		fmt.Fprintf(&counts, "\n_Potential drift (not yet recorded): %d_", s.Potential)
	}
	blocks = append(blocks, slackBlock{Type: "section", Text: mrk(counts.String())})
	if len(s.Top) > 0 {
		var top strings.Builder
		top.WriteString("*Top findings*")
		for _, f := range s.Top {
			top.WriteString("\n• " + slackEscape(findingLine(s.Stack.Name, f)))
		}
		if more := s.Drift - len(s.Top); more > 0 {
			fmt.Fprintf(&top, "\n… and %d more", more)
		}
		blocks = append(blocks, slackBlock{Type: "section", Text: mrk(top.String())})
	}
	actions := []slackElement{{
		Type: "button", Text: &slackText{Type: "plain_text", Text: "Open in console"},
		URL: s.ConsoleURL, ActionID: "open-console",
	}}
	if s.RevertURL != "" {
		actions = append(actions, slackElement{
			Type: "button", Text: &slackText{Type: "plain_text", Text: "Revert…"},
			URL: s.RevertURL, ActionID: "start-revert",
		})
		blocks = append(blocks, slackBlock{Type: "section", Text: mrk("_Revert: start an execution with_ `" + slackEscape(RevertInput(s.Stack)) + "`")})
	}
	if s.AcceptURL != "" {
		actions = append(actions, slackElement{
			Type: "button", Text: &slackText{Type: "plain_text", Text: "Accept…"},
			URL: s.AcceptURL, ActionID: "start-accept",
		})
		blocks = append(blocks, slackBlock{Type: "section", Text: mrk("_Accept (record the undeclared state as the baseline): start an execution with_ `" + slackEscape(AcceptInput(s.Stack)) + "`")})
	}
	blocks = append(blocks, slackBlock{Type: "actions", Elements: actions})
	if s.Fingerprint != "" {
		blocks = append(blocks, slackBlock{Type: "context", Elements: []slackElement{{Type: "mrkdwn", TextValue: "realdrift · fingerprint " + s.Fingerprint[:min(12, len(s.Fingerprint))]}}})
	}
	p := slackPayload{Text: Subject(s), Blocks: blocks}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode slack message: %w", err)
	}
	return b, nil
}

// MarshalJSON writes a context element as a text object and other elements
// with their fields.
func (e slackElement) MarshalJSON() ([]byte, error) {
	if e.TextValue != "" {
		return json.Marshal(slackText{Type: e.Type, Text: e.TextValue})
	}
	type plain slackElement
	return json.Marshal(plain(e))
}

// eventDetail is the EventBridge detail of a drift event.
type eventDetail struct {
	Stack               drift.StackRef  `json:"stack"`
	RunID               string          `json:"runId"`
	Status              string          `json:"status"`
	Fingerprint         string          `json:"fingerprint"`
	PreviousFingerprint string          `json:"previousFingerprint"`
	Counts              map[string]int  `json:"counts"`
	DriftCount          int             `json:"driftCount"`
	PotentialDriftCount int             `json:"potentialDriftCount"`
	TopFindings         []drift.Finding `json:"topFindings"`
	Verdict             drift.Outcome   `json:"verdict"`
	Resources           int             `json:"resources"`
	NotRead             int             `json:"notRead"`
	ValuesOmitted       bool            `json:"valuesOmitted,omitempty"`
	ConsoleURL          string          `json:"consoleUrl"`
}

// maxDetail keeps an event well under EventBridge's 256 KB entry limit.
const maxDetail = 200_000

// EventDetail is the JSON detail of the stack's EventBridge event. If the
// top findings' values would make it too large, they are left out (and
// valuesOmitted says so); the findings themselves stay listed.
func EventDetail(s Summary) ([]byte, error) {
	d := eventDetail{
		Stack: s.Stack, RunID: s.RunID, Status: s.Event.String(),
		Fingerprint: s.Fingerprint, PreviousFingerprint: s.PreviousFingerprint,
		Counts: countsMap(s.Counts), DriftCount: s.Drift, PotentialDriftCount: s.Potential,
		TopFindings: s.Top, ConsoleURL: s.ConsoleURL,
		Verdict: s.Verdict.Outcome(), Resources: s.Verdict.Resources(), NotRead: s.Verdict.Unread(),
	}
	if d.Verdict == drift.OutcomeUnknown {
		d.Verdict = drift.Judge(nil, 0, false).Outcome() // a Summary built by hand
	}
	if d.TopFindings == nil {
		d.TopFindings = []drift.Finding{}
	}
	b, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("encode event detail: %w", err)
	}
	if len(b) <= maxDetail {
		return b, nil
	}
	d.TopFindings = make([]drift.Finding, len(s.Top))
	for i, f := range s.Top {
		f.Actual, f.Desired, f.WholeArrayRevert = nil, nil, nil
		d.TopFindings[i] = f
	}
	d.ValuesOmitted = true
	b, err = json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("encode event detail: %w", err)
	}
	return b, nil
}

func countsMap(c map[drift.Tier]int) map[string]int {
	m := map[string]int{}
	for t, n := range c {
		if n > 0 {
			m[t.String()] = n
		}
	}
	return m
}

// Attribute is one SNS message attribute (String or Number).
type Attribute struct {
	DataType string
	Value    string
}

// SNSAttributes are the message attributes subscribers can filter on.
// "counts" holds the per-tier counts as a JSON object.
func SNSAttributes(s Summary) (map[string]Attribute, error) {
	counts, err := json.Marshal(countsMap(s.Counts))
	if err != nil {
		return nil, fmt.Errorf("encode counts: %w", err)
	}
	return map[string]Attribute{
		"event":      {DataType: "String", Value: headline(s)},
		"status":     {DataType: "String", Value: s.Event.String()},
		"account":    {DataType: "String", Value: s.Stack.Account},
		"region":     {DataType: "String", Value: s.Stack.Region},
		"stack":      {DataType: "String", Value: s.Stack.Name},
		"driftCount": {DataType: "Number", Value: strconv.Itoa(s.Drift)},
		"verdict":    {DataType: "String", Value: s.Verdict.Outcome().String()},
		"notRead":    {DataType: "Number", Value: strconv.Itoa(s.Verdict.Unread())},
		"counts":     {DataType: "String", Value: string(counts)},
	}, nil
}
