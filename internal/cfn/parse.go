package cfn

import (
	"bytes"
	"fmt"
	"strconv"
)

// Limits that keep hostile input from exhausting the stack or memory.
const (
	// maxDepth bounds the nesting of objects and arrays.
	maxDepth = 512
	// maxNodes caps the number of YAML nodes visited, aliases expanded.
	maxNodes = 1 << 20
)

// Error is a template that cannot be parsed or does not have a
// CloudFormation template's shape. It names where the problem is.
type Error struct {
	// Format is "json" or "yaml" for a syntax error, "" for a model error.
	Format string
	// Line and Column are 1-based; zero when not known.
	Line, Column int
	// Offset is the byte offset of a JSON error; -1 when not known.
	Offset int64
	// Path is the template path of a model error, e.g. "Resources.B.Type".
	Path string
	Msg  string
}

func (e *Error) Error() string {
	switch {
	case e.Path != "":
		return e.Path + ": " + e.Msg
	case e.Format == "json" && e.Line > 0:
		return fmt.Sprintf("json: line %d, column %d (byte %d): %s", e.Line, e.Column, e.Offset, e.Msg)
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("%s: %d:%d: %s", e.Format, e.Line, e.Column, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s: line %d: %s", e.Format, e.Line, e.Msg)
	case e.Format != "":
		return e.Format + ": " + e.Msg
	}
	return e.Msg
}

// Parse reads a CloudFormation template in JSON or YAML. A body whose first
// non-blank character is '{' followed by a quoted key (or '}') is JSON and
// gets JSON's exact error positions; anything else, including a YAML flow
// mapping such as {Resources: …}, is read as YAML.
func Parse(data []byte) (*Template, error) {
	body := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var (
		doc any
		err error
	)
	if looksLikeJSON(body) {
		doc, err = parseJSON(body)
	} else {
		doc, err = parseYAML(body)
	}
	if err != nil {
		return nil, err
	}
	return build(doc)
}

func looksLikeJSON(body []byte) bool {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return false
	}
	rest := bytes.TrimLeft(trimmed[1:], " \t\r\n")
	return len(rest) == 0 || rest[0] == '"' || rest[0] == '}'
}

// scalarString renders a scalar the way CloudFormation sees it as a string.
func scalarString(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), true
	case bool:
		return strconv.FormatBool(t), true
	}
	return "", false
}
