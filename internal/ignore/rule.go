package ignore

import (
	"fmt"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// Rule is one ignore rule.
type Rule struct {
	// Path is the glob matched against a finding's targets.
	Path string
	// Stack, Account and Region are optional glob scopes; empty matches any.
	Stack   string
	Account string
	Region  string
	// Source is "file:line" for a loaded rule; empty for a new one.
	Source string
}

// String renders the rule as "path [stack=… account=… region=…]".
func (r Rule) String() string {
	s := r.Path
	for _, kv := range [][2]string{{"stack", r.Stack}, {"account", r.Account}, {"region", r.Region}} {
		if kv[1] != "" {
			s += " " + kv[0] + "=" + kv[1]
		}
	}
	return s
}

func (r Rule) same(o Rule) bool {
	return r.Path == o.Path && r.Stack == o.Stack && r.Account == o.Account && r.Region == o.Region
}

// validate checks a rule built in code (Parse checks loaded ones).
func (r Rule) validate() error {
	if r.Path == "" {
		return fmt.Errorf("ignore rule: empty path")
	}
	for _, v := range []string{r.Path, r.Stack, r.Account, r.Region} {
		if strings.ContainsFunc(v, func(c rune) bool { return c < 0x20 || c == 0x7f }) {
			return fmt.Errorf("ignore rule %q: control character in a value", r.Path)
		}
	}
	return nil
}

// InScope reports whether the rule applies to stack.
func (r Rule) InScope(stack drift.StackRef) bool {
	return (r.Stack == "" || Glob(r.Stack, stack.Name)) &&
		(r.Account == "" || Glob(r.Account, stack.Account)) &&
		(r.Region == "" || Glob(r.Region, stack.Region))
}

// Matches reports whether the rule covers finding f of stack: in scope, and
// its path glob matches one of f's targets or a parent path of one.
func (r Rule) Matches(stack drift.StackRef, f drift.Finding) bool {
	if !r.InScope(stack) {
		return false
	}
	for _, t := range Targets(stack.Name, f) {
		if globCovers(r.Path, t) {
			return true
		}
	}
	return false
}

// RuleFor returns the rule the ignore verb writes for a finding: its
// displayed path, unscoped. Callers add scopes as asked.
func RuleFor(stackName string, f drift.Finding) Rule {
	return Rule{Path: DisplayPath(stackName, f)}
}

// Glob matches s against pattern: * is any run, ? is one character.
func Glob(pattern, s string) bool {
	p, t := []rune(pattern), []rune(s)
	pi, ti := 0, 0
	star, mark := -1, 0
	for ti < len(t) {
		switch {
		case pi < len(p) && (p[pi] == '?' || p[pi] == t[ti]):
			pi++
			ti++
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, ti
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			ti = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// globCovers matches t or any parent path of t (a prefix ending before a
// '.' or '[' segment boundary).
func globCovers(pattern, t string) bool {
	if Glob(pattern, t) {
		return true
	}
	for i := 1; i < len(t); i++ {
		if (t[i] == '.' || t[i] == '[') && Glob(pattern, t[:i]) {
			return true
		}
	}
	return false
}
