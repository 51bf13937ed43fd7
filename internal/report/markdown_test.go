package report

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/drift"
)

func TestMarkdownGolden(t *testing.T) {
	for name, stacks := range cases() {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Markdown(&buf, stacks, MarkdownOptions{}); err != nil {
				t.Fatal(err)
			}
			golden(t, name+".md", buf.Bytes())
			if strings.Contains(buf.String(), "hunter2") {
				t.Error("secret in plaintext")
			}
		})
	}
	t.Run("nested-and-clean", func(t *testing.T) {
		stacks := []Stack{
			{Ref: prod, Findings: mixed()[:2]},
			{Ref: drift.StackRef{Account: prod.Account, Region: prod.Region, Name: "Prod-DbNested1A2B"}, Parent: "Prod", ParentLogicalID: "DbNested", Findings: mixed()[3:4]},
			{Ref: dev}, {Ref: drift.StackRef{Account: dev.Account, Region: dev.Region, Name: "Web"}},
		}
		var buf bytes.Buffer
		if err := Markdown(&buf, stacks, MarkdownOptions{}); err != nil {
			t.Fatal(err)
		}
		golden(t, "nested-and-clean.md", buf.Bytes())
	})
}

// TestMarkdownLimit: a report larger than the limit stops between whole
// rows, closes what it opened, counts what it left out, and stays within
// the limit; a report that fits is not cut.
func TestMarkdownLimit(t *testing.T) {
	var stacks []Stack
	total := 0
	for i := range 40 {
		s := Stack{Ref: drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: fmt.Sprintf("Stack%02d", i)}}
		for j := range 60 {
			s.Findings = append(s.Findings, fnd(drift.Declared, fmt.Sprintf("Fn%03d", j), "AWS::Lambda::Function", "Description", strings.Repeat("d", 30), strings.Repeat("a", 30)))
			s.Findings = append(s.Findings, fnd(drift.AtDefault, fmt.Sprintf("Q%03d", j), "AWS::SQS::Queue", "DelaySeconds", 0.0, nil))
		}
		total += len(s.Findings)
		stacks = append(stacks, s)
	}
	var full bytes.Buffer
	if err := Markdown(&full, stacks, MarkdownOptions{Limit: 1 << 30}); err != nil {
		t.Fatal(err)
	}
	if full.Len() <= CommentLimit || strings.Contains(full.String(), "truncated") {
		t.Fatalf("the uncut report is %d bytes (want over %d, not truncated)", full.Len(), CommentLimit)
	}
	var buf bytes.Buffer
	if err := Markdown(&buf, stacks, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	if len(got) > CommentLimit {
		t.Errorf("truncated report is %d bytes, over %d", len(got), CommentLimit)
	}
	shown := strings.Count(got, "\n| `") + strings.Count(got, "\n- `")
	var left, leftStacks int
	if _, err := fmt.Sscanf(got[strings.Index(got, "_… truncated"):], "_… truncated to GitHub's 65536-character limit: %d more findings (%d more stacks)", &left, &leftStacks); err != nil {
		t.Fatalf("no truncation count: %v\n%s", err, got[len(got)-300:])
	}
	if shown+left != total {
		t.Errorf("shown %d + left out %d = %d findings, want %d", shown, left, shown+left, total)
	}
	if leftStacks == 0 || strings.Count(got, "<details>") != strings.Count(got, "</details>") {
		t.Errorf("left out %d stacks; <details> %d, </details> %d", leftStacks, strings.Count(got, "<details>"), strings.Count(got, "</details>"))
	}
}

// TestMarkdownEscapes: values and reasons from AWS cannot open HTML, links
// or break a table row.
func TestMarkdownEscapes(t *testing.T) {
	f := fnd(drift.Declared, "Fn", "AWS::Lambda::Function", "Description", "a|b`c<script>", "x")
	f.Note = "<img src=x> [link](http://x) | cell"
	var buf bytes.Buffer
	if err := Markdown(&buf, []Stack{{Ref: prod, Findings: []drift.Finding{f}}, {Ref: dev, Err: errors.New("<b>denied</b>")}}, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	outside := regexp.MustCompile("``[^`]*(`[^`]+)*``|`[^`]*`").ReplaceAllString(got, "")
	if m := regexp.MustCompile(`(^|[^\\])[<\[&]`).FindString(outside); m != "" {
		t.Errorf("unescaped %q outside code spans in:\n%s", m, got)
	}
	for _, want := range []string{`\<img src=x\>`, `\[link\](http://x) \| cell`, `\<b\>denied\</b\>`, "`` \"a\\|b`c<script>\" ``"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %s in:\n%s", want, got)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(l, "| `Fn") {
			if n := strings.Count(l, "|") - strings.Count(l, `\|`); n != 5 {
				t.Errorf("row has %d cell separators, want 5: %s", n, l)
			}
		}
	}
}
