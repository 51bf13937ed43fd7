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
