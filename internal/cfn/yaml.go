package cfn

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// shortTags maps each YAML short-form tag to the long-form key it stands
// for. It is the one registration point for tags; nothing writes to it.
var shortTags = map[string]string{
	"!Ref":            "Ref",
	"!Condition":      "Condition",
	"!Sub":            "Fn::Sub",
	"!GetAtt":         "Fn::GetAtt",
	"!Join":           "Fn::Join",
	"!Select":         "Fn::Select",
	"!Split":          "Fn::Split",
	"!If":             "Fn::If",
	"!Equals":         "Fn::Equals",
	"!And":            "Fn::And",
	"!Or":             "Fn::Or",
	"!Not":            "Fn::Not",
	"!FindInMap":      "Fn::FindInMap",
	"!ImportValue":    "Fn::ImportValue",
	"!GetStackOutput": "Fn::GetStackOutput",
	"!Base64":         "Fn::Base64",
	"!Cidr":           "Fn::Cidr",
	"!GetAZs":         "Fn::GetAZs",
	"!Transform":      "Fn::Transform",
	"!Length":         "Fn::Length",
	"!ToJsonString":   "Fn::ToJsonString",
	// Rule functions.
	"!Contains":         "Fn::Contains",
	"!EachMemberEquals": "Fn::EachMemberEquals",
	"!EachMemberIn":     "Fn::EachMemberIn",
	"!RefAll":           "Fn::RefAll",
	"!ValueOf":          "Fn::ValueOf",
	"!ValueOfAll":       "Fn::ValueOfAll",
}

var yamlLine = regexp.MustCompile(`^line (\d+): `)

// parseYAML decodes a YAML document into JSON-shaped Go values with the
// short-form tags rewritten to the long form.
func parseYAML(data []byte) (doc any, err error) {
	var root yaml.Node
	if err := unmarshalYAML(data, &root); err != nil {
		return nil, yamlSyntaxError(data, err)
	}
	if root.Kind == 0 || (root.Kind == yaml.DocumentNode && len(root.Content) == 0) {
		return nil, &Error{Format: "yaml", Offset: -1, Msg: "empty template"}
	}
	c := &yamlConv{budget: nodeBudget(len(data)), scalars: map[*yaml.Node]any{}}
	return c.node(&root, 0)
}

// yamlSyntaxError turns a YAML library error into an *Error with a line.
// The library names the line for most errors; when it does not, the line is
// found as the shortest prefix of the document that fails the same way.
func yamlSyntaxError(data []byte, err error) *Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	e := &Error{Format: "yaml", Offset: -1, Msg: msg}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Msg = msg[len(m[0]):]
		return e
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	lo, hi := 1, len(lines)
	for lo < hi {
		mid := (lo + hi) / 2
		var n yaml.Node
		perr := unmarshalYAML(bytes.Join(lines[:mid], nil), &n)
		if perr != nil && perr.Error() == err.Error() {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	e.Line = lo
	return e
}

// unmarshalYAML reads exactly one YAML document into n (none leaves n
// empty). It shields callers from a panic inside the YAML library: a
// library must not panic on bad input, whoever's code it is.
func unmarshalYAML(data []byte, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: malformed document (%v)", r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(n); err != nil {
		if err == io.EOF {
			return nil
		}
		return err
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == io.EOF:
		return nil
	case err != nil:
		return err
	}
	line := extra.Line
	if extra.Kind == yaml.DocumentNode && len(extra.Content) > 0 {
		line = extra.Content[0].Line
	}
	return fmt.Errorf("yaml: line %d: a template is one YAML document; a second one starts here", line)
}

// nodeBudget bounds how many nodes a document of n bytes may expand to
// through aliases: a few times what it could hold without them, so an alias
// bomb stops early and cheaply.
func nodeBudget(n int) int {
	return min(4*n+10_000, maxNodes)
}

type yamlConv struct {
	budget int
	// scalars caches decoded scalars: an alias may repeat a node many times.
	scalars map[*yaml.Node]any
}

func (c *yamlConv) errAt(n *yaml.Node, format string, args ...any) *Error {
	return &Error{Format: "yaml", Line: n.Line, Column: n.Column, Offset: -1, Msg: fmt.Sprintf(format, args...)}
}

func (c *yamlConv) node(n *yaml.Node, depth int) (any, error) {
	c.budget--
	if c.budget < 0 {
		return nil, c.errAt(n, "document too large after alias expansion")
	}
	if depth > maxDepth {
		return nil, c.errAt(n, "nesting deeper than %d", maxDepth)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, c.errAt(n, "empty document")
		}
		return c.node(n.Content[0], depth)
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, c.errAt(n, "unknown alias")
		}
		return c.node(n.Alias, depth+1)
	}
	tag := n.ShortTag()
	if strings.HasPrefix(tag, "!") && !strings.HasPrefix(tag, "!!") {
		return c.tagged(n, tag, depth)
	}
	switch n.Kind {
	case yaml.MappingNode:
		return c.mapping(n, depth)
	case yaml.SequenceNode:
		return c.sequence(n, depth)
	case yaml.ScalarNode:
		return c.scalar(n, tag)
	}
	return nil, c.errAt(n, "unexpected YAML node")
}

// tagged rewrites a short-form tag node into its long form.
func (c *yamlConv) tagged(n *yaml.Node, tag string, depth int) (any, error) {
	key, ok := shortTags[tag]
	if !ok {
		return nil, c.errAt(n, "unknown tag %s", tag)
	}
	var content any
	switch n.Kind {
	case yaml.ScalarNode:
		// A tagged scalar is always text: !Ref 123 refers to "123".
		content = n.Value
		if key == "Fn::GetAtt" {
			if res, attr, ok := strings.Cut(n.Value, "."); ok {
				content = []any{res, attr}
			}
		}
	case yaml.MappingNode:
		m, err := c.mapping(n, depth)
		if err != nil {
			return nil, err
		}
		content = m
	case yaml.SequenceNode:
		s, err := c.sequence(n, depth)
		if err != nil {
			return nil, err
		}
		content = s
	default:
		return nil, c.errAt(n, "tag %s on an unexpected node", tag)
	}
	return map[string]any{key: content}, nil
}

func (c *yamlConv) mapping(n *yaml.Node, depth int) (map[string]any, error) {
	if len(n.Content)%2 != 0 {
		return nil, c.errAt(n, "mapping with an odd number of nodes")
	}
	m := make(map[string]any, len(n.Content)/2)
	for i := 0; i < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.AliasNode && k.Alias != nil {
			k = k.Alias
		}
		if k.Kind != yaml.ScalarNode {
			return nil, c.errAt(k, "mapping key must be a scalar")
		}
		switch kt := k.ShortTag(); {
		case kt == "!!merge":
			return nil, c.errAt(k, "merge keys (<<) are not supported in templates")
		case strings.HasPrefix(kt, "!") && !strings.HasPrefix(kt, "!!"):
			return nil, c.errAt(k, "tag %s on a mapping key", kt)
		}
		if _, dup := m[k.Value]; dup {
			return nil, c.errAt(k, "duplicate key %q", k.Value)
		}
		val, err := c.node(v, depth+1)
		if err != nil {
			return nil, err
		}
		m[k.Value] = val
	}
	return m, nil
}

func (c *yamlConv) sequence(n *yaml.Node, depth int) ([]any, error) {
	list := make([]any, 0, len(n.Content))
	for _, e := range n.Content {
		v, err := c.node(e, depth+1)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
	}
	return list, nil
}

func (c *yamlConv) scalar(n *yaml.Node, tag string) (any, error) {
	switch tag {
	case "!!str", "!!timestamp", "!!binary", "":
		return n.Value, nil
	case "!!null":
		return nil, nil
	case "!!bool", "!!int", "!!float":
		if v, ok := c.scalars[n]; ok {
			return v, nil
		}
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, c.errAt(n, "cannot read %s %q", tag, n.Value)
		}
		out, err := c.number(n, v)
		if err != nil {
			return nil, err
		}
		c.scalars[n] = out
		return out, nil
	}
	return nil, c.errAt(n, "unsupported tag %s", tag)
}

// number normalises a decoded YAML scalar to a JSON-shaped value.
func (c *yamlConv) number(n *yaml.Node, v any) (any, error) {
	var f float64
	switch t := v.(type) {
	case bool, string, nil:
		return t, nil
	case time.Time:
		return n.Value, nil
	case int:
		f = float64(t)
	case int64:
		f = float64(t)
	case uint64:
		f = float64(t)
	case float64:
		f = t
	default:
		return nil, c.errAt(n, "unsupported scalar %q", n.Value)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, c.errAt(n, "number %q is not a finite value", n.Value)
	}
	return f, nil
}
