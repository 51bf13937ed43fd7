package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sns"

	"github.com/realdrift/realdrift/internal/drift"
)

// Message is a revert's message to people: the request to approve a plan,
// or a finished revert's outcome. It is plain text with links; values are
// rendered by the caller through their JSON form (never a secret).
type Message struct {
	Stack drift.StackRef
	// Title is the headline ("Revert waiting for approval: App").
	Title string
	// Lines are the body, one point each (items, counts, commands).
	Lines []string
	// Links are buttons in Slack and lines in the text.
	Links []Link
	// Context is a small footer (the execution).
	Context string
}

// Link is one button of a message.
type Link struct {
	Label string
	URL   string
}

// MessageSubject is the SNS subject of m (100 characters at most).
func MessageSubject(m Message) string { return clip("realdrift: "+m.Title, 100) }

// MessageText is m as plain text (the SNS message).
func MessageText(m Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\nStack:   %s\nAccount: %s\nRegion:  %s\n", m.Title, m.Stack.Name, m.Stack.Account, m.Stack.Region)
	if len(m.Lines) > 0 {
		b.WriteString("\n")
		for _, l := range m.Lines {
			b.WriteString("  " + l + "\n")
		}
	}
	if len(m.Links) > 0 {
		b.WriteString("\n")
		for _, l := range m.Links {
			fmt.Fprintf(&b, "%s: %s\n", l.Label, l.URL)
		}
	}
	if m.Context != "" {
		b.WriteString("\n" + m.Context + "\n")
	}
	return b.String()
}

// MessageSlackPayload is m as an incoming-webhook message (Block Kit).
func MessageSlackPayload(m Message) ([]byte, error) {
	blocks := []slackBlock{
		{Type: "header", Text: &slackText{Type: "plain_text", Text: clip(m.Title, 150)}},
		{Type: "section", Fields: []slackText{
			{Type: "mrkdwn", Text: "*Stack*\n" + slackEscape(m.Stack.Name)},
			{Type: "mrkdwn", Text: "*Account*\n" + slackEscape(m.Stack.Account)},
			{Type: "mrkdwn", Text: "*Region*\n" + slackEscape(m.Stack.Region)},
		}},
	}
	if len(m.Lines) > 0 {
		var body strings.Builder
		for i, l := range m.Lines {
			if i > 0 {
				body.WriteString("\n")
			}
			body.WriteString("• " + slackEscape(l))
		}
		blocks = append(blocks, slackBlock{Type: "section", Text: &slackText{Type: "mrkdwn", Text: clip(body.String(), slackSectionMax)}})
	}
	if len(m.Links) > 0 {
		var els []slackElement
		for i, l := range m.Links {
			els = append(els, slackElement{Type: "button", Text: &slackText{Type: "plain_text", Text: clip(l.Label, 75)}, URL: l.URL, ActionID: fmt.Sprintf("link-%d", i)})
		}
		blocks = append(blocks, slackBlock{Type: "actions", Elements: els})
	}
	if m.Context != "" {
		blocks = append(blocks, slackBlock{Type: "context", Elements: []slackElement{{Type: "mrkdwn", TextValue: slackEscape(clip(m.Context, 300))}}})
	}
	b, err := json.MarshalIndent(slackPayload{Text: MessageSubject(m), Blocks: blocks}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode slack message: %w", err)
	}
	return b, nil
}

// SendMessage posts m to the webhook.
func (k *Slack) SendMessage(ctx context.Context, m Message) error {
	payload, err := MessageSlackPayload(m)
	if err != nil {
		return fmt.Errorf("slack %s: %w", m.Stack, err)
	}
	hook, err := k.webhook(ctx)
	if err != nil {
		return fmt.Errorf("slack %s: %w", m.Stack, err)
	}
	if err := k.post(ctx, hook, payload); err != nil {
		return fmt.Errorf("slack message for %s: %w", m.Stack, err)
	}
	return nil
}

// SendMessage publishes m to the topic.
func (p *SNS) SendMessage(ctx context.Context, m Message) error {
	in := &sns.PublishInput{TopicArn: aws.String(p.topicARN), Subject: aws.String(MessageSubject(m)), Message: aws.String(MessageText(m))}
	if _, err := p.client.Publish(ctx, in); err != nil {
		return fmt.Errorf("publish message for %s to %s: %w", m.Stack, p.topicARN, err)
	}
	return nil
}
