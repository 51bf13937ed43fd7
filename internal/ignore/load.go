package ignore

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"

	"gopkg.in/yaml.v3"
)

// ErrMalformed marks an ignore file that cannot be used as it is.
var ErrMalformed = errors.New("malformed ignore file")

// FileError says which file is malformed, where and why.
type FileError struct {
	File    string
	Line    int // 0 when unknown
	Problem string
}

func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Problem)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Problem)
}

// Is lets errors.Is(err, ErrMalformed) match.
func (e *FileError) Is(target error) bool { return target == ErrMalformed }

// Parse reads the rules of one ignore file; name is used in errors and in
// each rule's Source. An empty or comment-only file has no rules.
func Parse(name string, data []byte) ([]Rule, error) {
	doc, err := parseDoc(name, data)
	if err != nil || doc == nil {
		return nil, err
	}
	_, seq, err := ignoreSeq(name, doc)
	if err != nil || seq == nil {
		return nil, err
	}
	var rules []Rule
	for _, item := range seq.Content {
		r, err := parseRule(name, item)
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	return rules, nil
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// parseDoc returns the single document's root node, nil when the file holds
// no document.
func parseDoc(name string, data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		line := 0
		if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
			line, _ = strconv.Atoi(m[1])
		}
		return nil, &FileError{File: name, Line: line, Problem: "invalid YAML: " + err.Error()}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		line := extra.Line
		if err != nil {
			line = 0
		}
		return nil, &FileError{File: name, Line: line, Problem: "more than one YAML document; put every rule under one ignore: list"}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

// ignoreSeq checks the root mapping and returns the ignore key node and its
// sequence (nil when ignore is absent or null).
func ignoreSeq(name string, root *yaml.Node) (key, seq *yaml.Node, err error) {
	bad := func(n *yaml.Node, format string, a ...any) error {
		return &FileError{File: name, Line: n.Line, Problem: fmt.Sprintf(format, a...)}
	}
	if isNull(root) {
		return nil, nil, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, nil, bad(root, "the top level must be a mapping with an ignore: list, not %s", kindName(root))
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value != "ignore" {
			return nil, nil, bad(k, "unknown top-level key %q (the only key is ignore)", k.Value)
		}
		if key != nil {
			return nil, nil, bad(k, "ignore: appears twice")
		}
		key = k
		switch {
		case isNull(v):
		case v.Kind == yaml.SequenceNode:
			seq = v
		default:
			return nil, nil, bad(v, "ignore must be a list of rules, not %s", kindName(v))
		}
	}
	return key, seq, nil
}

func parseRule(name string, n *yaml.Node) (Rule, error) {
	bad := func(at *yaml.Node, format string, a ...any) error {
		return &FileError{File: name, Line: at.Line, Problem: fmt.Sprintf(format, a...)}
	}
	if n.Kind != yaml.MappingNode {
		return Rule{}, bad(n, "a rule must be a mapping {path, stack?, account?, region?}, not %s", kindName(n))
	}
	r := Rule{Source: fmt.Sprintf("%s:%d", name, n.Line)}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		var dst *string
		switch k.Value {
		case "path":
			dst = &r.Path
		case "stack":
			dst = &r.Stack
		case "account":
			dst = &r.Account
		case "region":
			dst = &r.Region
		default:
			return Rule{}, bad(k, "unknown rule key %q (want path, stack, account or region)", k.Value)
		}
		if seen[k.Value] {
			return Rule{}, bad(k, "rule key %s appears twice", k.Value)
		}
		seen[k.Value] = true
		if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" {
			hint := ""
			if k.Value == "account" && v.Kind == yaml.ScalarNode {
				hint = " (quote an account id: '" + v.Value + "')"
			}
			return Rule{}, bad(v, "%s must be a string, not %s%s", k.Value, kindName(v), hint)
		}
		*dst = v.Value
	}
	if r.Path == "" {
		return Rule{}, bad(n, "rule has no path")
	}
	if err := r.validate(); err != nil {
		return Rule{}, bad(n, "%v", err)
	}
	return r, nil
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!int", "!!float":
			return "a number"
		case "!!bool":
			return "a boolean"
		case "!!null":
			return "null"
		case "!!str":
			return "a string"
		}
		return "a " + n.ShortTag() + " value"
	}
	return "an unexpected node"
}
