package classify

import (
	"regexp"
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/normalize"
)

// A value template is a value's canonical JSON with the facts of its own
// resource replaced by placeholders, so one table entry holds for every
// resource of a type: the resource's physical id, its stack name, the
// account and region, and AWS-minted id tokens (subnet-…, sg-…, UUIDs,
// IPv4 addresses). Placeholders match only their own token shape, so a
// value moved to anything else still differs.
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

var (
	reAWSID         = regexp.MustCompile(`\b(subnet|sg|vpc|vol|eni|igw|nat|rtb|lt|ami|snap|i|acl|eipalloc|eipassoc|tgw|tgw-attach|tgw-rtb|vpce|pl|fs|fsap|cvpn-endpoint|rslvr-rr|rslvr-frg|dopt|cgw|vgw|vpn|lb)-[0-9a-f]{8,17}\b`)
	reUUID          = regexp.MustCompile(`(?:key/)?\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	reStackAutoName = regexp.MustCompile(`⟨stack⟩-[A-Za-z0-9]+-[A-Za-z0-9]{12,16}\b`)
	reAZ            = regexp.MustCompile(`⟨region⟩[a-z]\b`)
	reAZID          = regexp.MustCompile(`\b[a-z]{2,4}[0-9]-az[0-9]{1,2}\b`)
	reIPv4          = regexp.MustCompile(`\b(?:\d{1,3}\.){3}\d{1,3}\b`)
)

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

// Shape reduces a template string to its character classes: letter runs
// become "a", digit runs "9"; punctuation and placeholders stay. It is the
// fold for string paths the corpus shows with several different default
// values of one form (maintenance windows, default parameter groups).
func Shape(tmpl string) string {
	var b strings.Builder
	last := byte(0)
	for _, r := range tmpl {
		var cls byte
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
			cls = 'a'
		case r >= '0' && r <= '9':
			cls = '9'
		}
		if cls != 0 {
			if cls != last {
				b.WriteByte(cls)
			}
			last = cls
			continue
		}
		last = 0
		b.WriteRune(r)
	}
	return b.String()
}

func templateString(s string, c TemplateContext) string {
	if len(c.PhysicalID) >= 4 && strings.Contains(s, c.PhysicalID) {
		s = strings.ReplaceAll(s, c.PhysicalID, phPhysicalID)
	}
	if len(c.StackName) >= 4 && strings.Contains(s, c.StackName) {
		s = strings.ReplaceAll(s, c.StackName, phStack)
		// A name CloudFormation minted for another resource of the stack:
		// <stack>-<resource>-<random suffix>.
		s = reStackAutoName.ReplaceAllString(s, phStack+"-⟨name⟩")
	}
	if c.AccountID != "" && strings.Contains(s, c.AccountID) {
		s = strings.ReplaceAll(s, c.AccountID, phAccount)
	}
	if c.Region != "" && strings.Contains(s, c.Region) {
		s = strings.ReplaceAll(s, c.Region, phRegion)
		s = reAZ.ReplaceAllString(s, "⟨az⟩")
	}
	if strings.Contains(s, "-az") {
		s = reAZID.ReplaceAllString(s, "⟨azid⟩")
	}
	if hasHexRun(s) {
		// A KMS key id stays literal: a key swapped in is a security
		// change, and AWS-managed keys repeat per service and account.
		s = reUUID.ReplaceAllStringFunc(s, func(m string) string {
			if strings.HasPrefix(m, "key/") {
				return m
			}
			return "⟨uuid⟩"
		})
		s = reAWSID.ReplaceAllString(s, "$1-⟨hex⟩")
	}
	if strings.Count(s, ".") >= 3 {
		s = reIPv4.ReplaceAllString(s, "⟨ip⟩")
	}
	return s
}

// hasHexRun reports whether s has a "-" followed by at least 8 hex
// digits, the precondition of the UUID and AWS id token patterns.
func hasHexRun(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '-' {
			continue
		}
		n := 0
		for j := i + 1; j < len(s) && n < 8; j++ {
			c := s[j]
			if c >= '0' && c <= '9' || c >= 'a' && c <= 'f' {
				n++
				continue
			}
			break
		}
		if n >= 8 {
			return true
		}
	}
	// A UUID starts with 8 hex digits before its first "-".
	return strings.Count(s, "-") >= 4
}

// KeyPath is the path form the known-values table is keyed on: array
// indices become "*", and every identity key but a trailing one becomes
// "[*]" — a trailing key names the setting itself (an attribute bag's key),
// an inner one is a user-chosen element id.
func KeyPath(rp string) string {
	if !strings.ContainsAny(rp, "[0123456789") {
		return rp
	}
	segs := splitPath(rp)
	var b strings.Builder
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
				b.WriteString("[" + s.key + "]")
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
