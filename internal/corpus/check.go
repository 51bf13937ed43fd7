package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// ErrBadCase marks a case file that cannot be replayed: errors.Is matches
// every *CaseError.
var ErrBadCase = errors.New("bad corpus case")

// Problem is one thing wrong with one field of a case.
type Problem struct {
	// Field is the field's JSON path, e.g. "opts.accountId" or
	// "expected[2].tier"; "" for the document itself.
	Field string
	Msg   string
}

// CaseError is a case that cannot be replayed, with every problem found in
// it. It prints one "path: field: problem" line per problem.
type CaseError struct {
	Path     string
	Problems []Problem
}

func (e *CaseError) Error() string {
	lines := make([]string, 0, len(e.Problems))
	for _, p := range e.Problems {
		field := p.Field
		if field == "" {
			field = "(document)"
		}
		lines = append(lines, e.Path+": "+field+": "+p.Msg)
	}
	return strings.Join(lines, "\n")
}

// Is lets errors.Is(err, ErrBadCase) match.
func (e *CaseError) Is(target error) bool { return target == ErrBadCase }

// Versions are the corpusVersion values this package reads.
var Versions = []int{1}

// shape checks one JSON value (decoded as encoding/json does into any) at a
// field path, reporting what is wrong to c.
type shape func(c *checker, at string, v any)

// field is one known key of an object: its shape, and whether the format
// requires it.
type field struct {
	name     string
	required bool
	shape    shape
}

func req(name string, s shape) field { return field{name, true, s} }
func opt(name string, s shape) field { return field{name, false, s} }

// caseShape is the corpus case format (../shared/corpus/README.md). Keys it
// does not list are tolerated at every level, since newer recordings add
// fields; a listed key must have its type, and a required one must be
// there.
var caseShape = object(
	req("corpusVersion", version),
	opt("description", str),
	req("resource", object(
		req("logicalId", nonEmpty),
		req("resourceType", nonEmpty),
		req("physicalId", nonEmpty),
		opt("constructPath", str),
		req("declared", anyObject),
		opt("siblingPolicyNames", listOf(str)),
	)),
	req("liveRaw", anyObject),
	req("schema", object(
		req("readOnly", listOf(str)),
		req("writeOnly", listOf(str)),
		req("createOnly", listOf(str)),
		req("readOnlyPaths", listOf(str)),
		req("writeOnlyPaths", listOf(str)),
		req("createOnlyPaths", listOf(str)),
		req("defaults", anyObject),
		opt("defaultPaths", anyObject),
		opt("unorderedScalarPaths", listOf(str)),
		opt("unorderedObjectArrayPaths", listOf(str)),
		opt("freeFormMapPaths", listOf(str)),
	)),
	req("opts", object(
		opt("accountId", str),
		opt("region", str),
		opt("stackName", str),
		opt("kmsAliasTargets", mapOf(str)),
		opt("oaiCanonicalIds", mapOf(str)),
		opt("stackTags", mapOf(str)),
		opt("clusterEchoModel", anyObject),
		opt("rdsOptionSettingDefaults", anyObject),
		opt("accountDefaults", anyObject),
		opt("siblingRdsSourceModels", anyObject),
		opt("siblingEipAssociations", anyList),
		opt("siblingSubnetCidrBlocks", anyList),
		opt("siblingClientVpnEndpointVpcs", anyObject),
		opt("siblingCloudFrontCdPolicyIds", anyObject),
		opt("ecsBgGovernedListenerRules", anyObject),
		opt("ebSgNamesById", anyObject),
	)),
	req("expected", listOf(findingShape)),
)

var findingShape = object(
	req("tier", tier),
	req("logicalId", str),
	req("resourceType", str),
	req("physicalId", str),
	opt("constructPath", str),
	req("path", str),
	opt("actual", anyValue),
	opt("desired", anyValue),
	opt("nested", boolean),
	opt("note", str),
	opt("writeOnly", boolean),
	opt("attributeKey", str),
	opt("freeFormKey", boolean),
	opt("wholeArrayRevert", object(req("path", str), req("value", anyValue))),
)

// checker collects problems.
type checker struct{ problems []Problem }

func (c *checker) add(at, format string, args ...any) {
	c.problems = append(c.problems, Problem{Field: at, Msg: fmt.Sprintf(format, args...)})
}

// wrongType reports v where want was expected.
func (c *checker) wrongType(at string, v any, want string) {
	c.add(at, "got %s, want %s", kindOf(v), want)
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return fmt.Sprintf("%T", v)
}

func join(at, name string) string {
	if at == "" {
		return name
	}
	return at + "." + name
}

func object(fields ...field) shape {
	return func(c *checker, at string, v any) {
		m, ok := v.(map[string]any)
		if !ok {
			c.wrongType(at, v, "an object")
			return
		}
		for _, f := range fields {
			e, ok := m[f.name]
			if !ok {
				if f.required {
					c.add(join(at, f.name), "missing")
				}
				continue
			}
			f.shape(c, join(at, f.name), e)
		}
	}
}

func listOf(item shape) shape {
	return func(c *checker, at string, v any) {
		l, ok := v.([]any)
		if !ok {
			c.wrongType(at, v, "an array")
			return
		}
		for i, e := range l {
			item(c, fmt.Sprintf("%s[%d]", at, i), e)
		}
	}
}

func mapOf(value shape) shape {
	return func(c *checker, at string, v any) {
		m, ok := v.(map[string]any)
		if !ok {
			c.wrongType(at, v, "an object")
			return
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			value(c, join(at, k), m[k])
		}
	}
}

func str(c *checker, at string, v any) {
	if _, ok := v.(string); !ok {
		c.wrongType(at, v, "a string")
	}
}

func nonEmpty(c *checker, at string, v any) {
	s, ok := v.(string)
	switch {
	case !ok:
		c.wrongType(at, v, "a string")
	case s == "":
		c.add(at, "empty")
	}
}

func boolean(c *checker, at string, v any) {
	if _, ok := v.(bool); !ok {
		c.wrongType(at, v, "a boolean")
	}
}

func anyObject(c *checker, at string, v any) {
	if _, ok := v.(map[string]any); !ok {
		c.wrongType(at, v, "an object")
	}
}

func anyList(c *checker, at string, v any) {
	if _, ok := v.([]any); !ok {
		c.wrongType(at, v, "an array")
	}
}

func anyValue(*checker, string, any) {}

func version(c *checker, at string, v any) {
	n, ok := v.(float64)
	if !ok {
		c.wrongType(at, v, "a number")
		return
	}
	for _, k := range Versions {
		if n == float64(k) {
			return
		}
	}
	c.add(at, "unknown version %v (this realdrift reads %v)", n, Versions)
}

func tier(c *checker, at string, v any) {
	s, ok := v.(string)
	if !ok {
		c.wrongType(at, v, "a string")
		return
	}
	if _, err := drift.ParseTier(s); err != nil {
		c.add(at, "%v", err)
	}
}

// check validates a case's JSON text against the format and returns every
// problem, in document order of the format's fields.
func check(data []byte) []Problem {
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			// Offset counts the offending byte.
			line, col := lineCol(data, se.Offset-1)
			return []Problem{{Msg: fmt.Sprintf("invalid JSON at %d:%d: %v", line, col, err)}}
		}
		return []Problem{{Msg: fmt.Sprintf("invalid JSON: %v", err)}}
	}
	var c checker
	caseShape(&c, "", doc)
	if len(c.problems) == 0 {
		c.duplicateFindings(doc.(map[string]any)["expected"].([]any))
	}
	return c.problems
}

// duplicateFindings reports an expected finding whose tier and path an
// earlier one has: the comparison pairs findings by that key.
func (c *checker) duplicateFindings(expected []any) {
	seen := map[string]int{}
	for i, e := range expected {
		f := e.(map[string]any)
		k := f["tier"].(string) + " " + f["path"].(string)
		if j, ok := seen[k]; ok {
			c.add(fmt.Sprintf("expected[%d]", i), "same tier and path as expected[%d] (%s)", j, k)
			continue
		}
		seen[k] = i
	}
}

// lineCol converts a byte offset into a 1-based line and column.
func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	before := string(data[:off])
	line := strings.Count(before, "\n") + 1
	return line, len(before) - strings.LastIndexByte(before, '\n')
}
