package notify_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/notify"
)

func TestRevertMessage(t *testing.T) {
	m := notify.Message{
		Stack:   drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: "App"},
		Title:   "Revert waiting for approval: App",
		Lines:   []string{"Queue.VisibilityTimeout: 300 → 30 via cloudcontrol:UpdateResource", "a <b> & c"},
		Links:   []notify.Link{{Label: "Approve or reject", URL: "https://example.com/?execution=r-1&code=x"}},
		Context: "execution r-1",
	}
	text := notify.MessageText(m)
	for _, want := range []string{"Revert waiting for approval: App", "Account: 111111111111", "  Queue.VisibilityTimeout: 300 → 30", "Approve or reject: https://example.com/?execution=r-1&code=x", "execution r-1"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	b, err := notify.MessageSlackPayload(m)
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Text   string
		Blocks []struct {
			Type     string
			Text     *struct{ Text string }
			Elements []struct{ URL string }
		}
	}
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	if p.Text != "realdrift: Revert waiting for approval: App" {
		t.Errorf("fallback text %q", p.Text)
	}
	var body, url string
	for _, bl := range p.Blocks {
		if bl.Type == "section" && bl.Text != nil {
			body = bl.Text.Text
		}
		if bl.Type == "actions" {
			url = bl.Elements[0].URL
		}
	}
	if !strings.Contains(body, "a &lt;b&gt; &amp; c") {
		t.Errorf("body %q: mrkdwn not escaped", body)
	}
	if url != m.Links[0].URL {
		t.Errorf("button URL %q, want %q", url, m.Links[0].URL)
	}
}

// TestRevertLinkInAlerts: an alert with a RevertURL offers the revert (a
// Slack button and the execution input; a line of the text); without one
// it offers nothing.
func TestRevertLinkInAlerts(t *testing.T) {
	stack := drift.StackRef{Account: "111111111111", Region: "eu-west-1", Name: "App"}
	arn := "arn:aws:states:us-east-1:999999999999:stateMachine:realdrift-revert"
	url := notify.RevertConsoleURL(arn)
	if want := "https://us-east-1.console.aws.amazon.com/states/home?region=us-east-1#/statemachines/view/arn%3Aaws%3Astates%3Aus-east-1%3A999999999999%3AstateMachine%3Arealdrift-revert"; url != want {
		t.Errorf("RevertConsoleURL = %s, want %s", url, want)
	}
	if got := notify.RevertConsoleURL("not-an-arn"); got != "" {
		t.Errorf("RevertConsoleURL(not an ARN) = %q", got)
	}
	input := `{"account":"111111111111","all":true,"region":"eu-west-1","stack":"App"}`
	if got := notify.RevertInput(stack); got != input {
		t.Errorf("RevertInput = %s, want %s", got, input)
	}
	s := notify.Summary{Event: notify.EventDetected, Stack: stack, RunID: "r", Drift: 1, ConsoleURL: notify.ConsoleURL(stack)}
	for _, withLink := range []bool{false, true} {
		if withLink {
			s.RevertURL = url
		}
		text := notify.Text(s)
		b, err := notify.SlackPayload(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(text, url) && strings.Contains(text, input); got != withLink {
			t.Errorf("text offers the revert %v, want %v:\n%s", got, withLink, text)
		}
		if got := strings.Contains(string(b), `"start-revert"`) && strings.Contains(string(b), url); got != withLink {
			t.Errorf("slack offers the revert %v, want %v:\n%s", got, withLink, b)
		}
	}
}

// TestAcceptLinkInAlerts: an alert with an AcceptURL offers the accept (a
// Slack "Accept…" button beside the revert's, the execution input; a line
// of the text); without one it offers nothing.
func TestAcceptLinkInAlerts(t *testing.T) {
	stack := drift.StackRef{Account: "111111111111", Region: "eu-west-1", Name: "App"}
	url := notify.RevertConsoleURL("arn:aws:states:us-east-1:999999999999:stateMachine:realdrift-accept")
	input := `{"account":"111111111111","region":"eu-west-1","stack":"App"}`
	if got := notify.AcceptInput(stack); got != input {
		t.Errorf("AcceptInput = %s, want %s", got, input)
	}
	s := notify.Summary{Event: notify.EventDetected, Stack: stack, RunID: "r", Drift: 1, ConsoleURL: notify.ConsoleURL(stack),
		RevertURL: notify.RevertConsoleURL("arn:aws:states:us-east-1:999999999999:stateMachine:realdrift-revert")}
	for _, withLink := range []bool{false, true} {
		if withLink {
			s.AcceptURL = url
		}
		text := notify.Text(s)
		b, err := notify.SlackPayload(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(text, url) && strings.Contains(text, input); got != withLink {
			t.Errorf("text offers the accept %v, want %v:\n%s", got, withLink, text)
		}
		if got := strings.Contains(string(b), `"start-accept"`) && strings.Contains(string(b), "Accept…") && strings.Contains(string(b), url); got != withLink {
			t.Errorf("slack offers the accept %v, want %v:\n%s", got, withLink, b)
		}
		if !strings.Contains(string(b), `"start-revert"`) {
			t.Errorf("the revert button is gone:\n%s", b)
		}
	}
}
