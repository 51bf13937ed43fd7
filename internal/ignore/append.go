package ignore

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// header starts a new ignore file.
const header = `# realdrift ignore rules — properties realdrift should stop reporting as drift.
# Each rule: path (a glob against <logicalId>.<path>, <constructPath>.<path>
# or <stack>/<constructPath>.<path>) and optional stack / account / region.
`

// AppendBytes adds rules to an ignore document held in memory, creating it
// (with a header) when data is empty. It keeps the document's comments and
// order, appends only rules not already present, and fails when the
// document is malformed; name is used in errors. It returns the new
// document and the rules added; with none added the document is returned
// unchanged. AppendStored writes the result to a store.
func AppendBytes(name string, data []byte, rules []Rule) ([]byte, []Rule, error) {
	existing, err := Parse(name, data)
	if err != nil {
		return nil, nil, err
	}
	var added []Rule
	for _, r := range rules {
		if err := r.validate(); err != nil {
			return nil, nil, err
		}
		r.Source = ""
		if !containsRule(existing, r) && !containsRule(added, r) {
			added = append(added, r)
		}
	}
	if len(added) == 0 {
		return data, nil, nil
	}
	want := append(append([]Rule(nil), existing...), added...)
	out, err := appendText(name, data, added)
	if err == nil {
		err = verify(name, out, want)
	}
	if err != nil {
		// The text append could not be used (flow style, an explicit null,
		// a document end marker): rewrite through the node tree, which keeps
		// comments but may re-indent.
		out, err = appendNode(name, data, added)
		if err != nil {
			return nil, nil, err
		}
		if err := verify(name, out, want); err != nil {
			return nil, nil, err
		}
	}
	return out, added, nil
}

func containsRule(rules []Rule, r Rule) bool {
	for _, o := range rules {
		if o.same(r) {
			return true
		}
	}
	return false
}

// appendText appends rule lines at the end of the file, indented like the
// existing items.
func appendText(name string, data []byte, rules []Rule) ([]byte, error) {
	var buf bytes.Buffer
	buf.Write(data)
	if len(data) > 0 && data[len(data)-1] != '\n' {
		buf.WriteByte('\n')
	}
	root, err := parseDoc(name, data)
	if err != nil {
		return nil, err
	}
	dash, key := "  ", "    "
	switch {
	case root == nil || isNull(root):
		if len(bytes.TrimSpace(data)) == 0 {
			buf.Reset()
			buf.WriteString(header)
		}
		buf.WriteString("ignore:\n")
	default:
		_, seq, err := ignoreSeq(name, root)
		if err != nil {
			return nil, err
		}
		switch {
		case seq == nil && len(root.Content) == 0:
			buf.WriteString("ignore:\n") // an empty flow mapping: verify rejects
		case seq == nil:
			// "ignore:" with no value: items may follow at the end.
		case seq.Style&yaml.FlowStyle != 0:
			return nil, errors.New("flow-style list")
		case len(seq.Content) > 0:
			lines := strings.Split(string(data), "\n")
			first := seq.Content[0]
			if first.Line-1 >= len(lines) {
				return nil, errors.New("item line out of range")
			}
			line := lines[first.Line-1]
			d := strings.Index(line, "-")
			if d < 0 || strings.TrimSpace(line[:d]) != "" || first.Column-1 <= d {
				return nil, errors.New("item is not on its dash line")
			}
			dash, key = line[:d], strings.Repeat(" ", first.Column-1)
		}
	}
	for _, r := range rules {
		fmt.Fprintf(&buf, "%s-%s path: %s\n", dash, strings.Repeat(" ", len(key)-len(dash)-2), quote(r.Path))
		for _, kv := range [][2]string{{"stack", r.Stack}, {"account", r.Account}, {"region", r.Region}} {
			if kv[1] != "" {
				fmt.Fprintf(&buf, "%s%s: %s\n", key, kv[0], quote(kv[1]))
			}
		}
	}
	return buf.Bytes(), nil
}

// appendNode appends through the yaml.v3 node tree.
func appendNode(name string, data []byte, rules []Rule) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &FileError{File: name, Problem: "invalid YAML: " + err.Error()}
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, HeadComment: strings.TrimSpace(header)}
	}
	if len(doc.Content) == 0 || isNull(doc.Content[0]) {
		doc.Content = []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}
	}
	root := doc.Content[0]
	root.Style = 0
	var seq *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "ignore" {
			v := root.Content[i+1]
			if v.Kind != yaml.SequenceNode {
				*v = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", LineComment: v.LineComment, HeadComment: v.HeadComment}
			}
			seq = v
		}
	}
	if seq == nil {
		seq = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "ignore"}, seq)
	}
	if seq.Style&yaml.FlowStyle != 0 && seq.LineComment != "" {
		// A block list cannot carry the flow list's line comment: keep it
		// on the key.
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i+1] == seq && root.Content[i].LineComment == "" {
				root.Content[i].LineComment, seq.LineComment = seq.LineComment, ""
			}
		}
	}
	seq.Style = 0
	for _, r := range rules {
		m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, kv := range [][2]string{{"path", r.Path}, {"stack", r.Stack}, {"account", r.Account}, {"region", r.Region}} {
			if kv[1] != "" {
				m.Content = append(m.Content,
					&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: kv[0]},
					&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: kv[1], Style: yaml.SingleQuotedStyle})
			}
		}
		seq.Content = append(seq.Content, m)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, fmt.Errorf("append ignore rules to %s: %w", name, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("append ignore rules to %s: %w", name, err)
	}
	return buf.Bytes(), nil
}

// verify checks that out parses to exactly want.
func verify(name string, out []byte, want []Rule) error {
	got, err := Parse(name, out)
	if err != nil {
		return fmt.Errorf("append ignore rules: result does not parse: %w", err)
	}
	if len(got) != len(want) {
		return fmt.Errorf("append ignore rules to %s: result has %d rules, want %d", name, len(got), len(want))
	}
	for i := range got {
		if !got[i].same(want[i]) {
			return fmt.Errorf("append ignore rules to %s: rule %d reads back as %s, want %s", name, i+1, got[i], want[i])
		}
	}
	return nil
}

// quote writes a YAML single-quoted scalar.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
