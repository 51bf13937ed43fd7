package classify

import (
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/normalize"
)

// A value template is a value's canonical JSON with the facts of its own
// resource replaced by placeholders, so one table entry holds for every
// resource of a type: the resource's physical id, its stack name, the
// account and region. Each placeholder stands for one exact value of the
// resource being classified, so the fold stays equality-gated: a value
// moved to anything else (another id, another account) still differs. No
// placeholder stands for a shape ("any subnet", "any AZ").
const (
	phPhysicalID = "⟨pid⟩"
	phStack      = "⟨stack⟩"
	phAccount    = "⟨account⟩"
	phRegion     = "⟨region⟩"
)

// TemplateContext holds the facts a template substitutes.
type TemplateContext struct {
	PhysicalID string
	StackName  string
	AccountID  string
	Region     string
}

// Template renders v as a value template. An array whose elements all
// render to the same placeholder template is written once with a "…"
// marker, so a list of one or more AZs, say, is one template.
func Template(v any, c TemplateContext) string {
	var b strings.Builder
	writeTemplate(&b, v, c)
	return b.String()
}

func writeTemplate(b *strings.Builder, v any, c TemplateContext) {
	switch t := v.(type) {
	case string:
		b.WriteString(templateString(normalize.Canonical(t), c))
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(normalize.Canonical(k))
			b.WriteByte(':')
			writeTemplate(b, t[k], c)
		}
		b.WriteByte('}')
	case []any:
		if len(t) > 0 {
			var first string
			same := true
			for i, e := range t {
				s, ok := e.(string)
				if !ok {
					same = false
					break
				}
				ts := templateString(normalize.Canonical(s), c)
				if i == 0 {
					first = ts
				} else if ts != first {
					same = false
					break
				}
			}
			if same && strings.Contains(first, "⟨") {
				b.WriteString("[" + first + ",…]")
				return
			}
		}
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			writeTemplate(b, e, c)
		}
		b.WriteByte(']')
	default:
		b.WriteString(normalize.Canonical(v))
	}
}

func templateString(s string, c TemplateContext) string {
	if len(c.PhysicalID) >= 4 && strings.Contains(s, c.PhysicalID) {
		s = strings.ReplaceAll(s, c.PhysicalID, phPhysicalID)
	}
	if len(c.StackName) >= 4 && strings.Contains(s, c.StackName) {
		s = strings.ReplaceAll(s, c.StackName, phStack)
	}
	if c.AccountID != "" && strings.Contains(s, c.AccountID) {
		s = strings.ReplaceAll(s, c.AccountID, phAccount)
	}
	if c.Region != "" && strings.Contains(s, c.Region) {
		s = strings.ReplaceAll(s, c.Region, phRegion)
	}
	return s
}

// KeyPath is the path form the known-values table is keyed on: array
// indices become "*", and every identity key but a trailing one becomes
// "[*]" — a trailing key names the setting itself (an attribute bag's key),
// an inner one is a user-chosen element id.
func KeyPath(rp string) string {
	if !strings.ContainsAny(rp, "[0123456789") {
		return rp
	}
	var buf [8]pathSeg
	segs := appendSegs(buf[:0], rp)
	var b strings.Builder
	b.Grow(len(rp))
	for i, s := range segs {
		if i > 0 {
			b.WriteByte('.')
		}
		switch {
		case s.index:
			b.WriteByte('*')
		case s.key != "":
			b.WriteString(s.name)
			if i == len(segs)-1 {
				b.WriteByte('[')
				b.WriteString(s.key)
				b.WriteByte(']')
			} else {
				b.WriteString("[*]")
			}
		default:
			b.WriteString(s.name)
		}
	}
	return b.String()
}

// ContextFor returns the template context of a resource, the same one the
// classifier uses.
func ContextFor(s Subject, live map[string]any, opts Options) TemplateContext {
	return TemplateContext{PhysicalID: s.Ref.PhysicalID, StackName: stackName(s, live, opts), AccountID: opts.AccountID, Region: opts.Region}
}

// stackName is the resource's stack name: from the options, else the live
// aws:cloudformation:stack-name tag, else the first segment of the CDK
// construct path (the stack's construct id, which CDK uses as the stack
// name unless overridden).
func stackName(s Subject, live map[string]any, opts Options) string {
	if opts.StackName != "" {
		return opts.StackName
	}
	if n := stackNameFromTags(live["Tags"]); n != "" {
		return n
	}
	if i := strings.IndexByte(s.Ref.ConstructPath, '/'); i > 0 {
		return s.Ref.ConstructPath[:i]
	}
	return ""
}
