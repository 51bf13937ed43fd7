package normalize

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// StringlyEqual reports whether two scalars are the same value written as
// different JSON types (true vs "true", 5432 vs "5432", 40 vs "40.0").
func StringlyEqual(a, b any) bool {
	sa, ok1 := ScalarString(a)
	sb, ok2 := ScalarString(b)
	if !ok1 || !ok2 {
		return false
	}
	if sa == sb {
		return true
	}
	_, aNum := Number(a)
	_, bNum := Number(b)
	if !aNum && !bNum {
		return false // two strings: only exact equality counts
	}
	fa, err1 := strconv.ParseFloat(sa, 64)
	fb, err2 := strconv.ParseFloat(sb, 64)
	return err1 == nil && err2 == nil && fa == fb
}

// SameScalarOrEqual is Equal, widened by StringlyEqual for scalars and
// element-wise for scalar arrays.
func SameScalarOrEqual(a, b any) bool {
	if Equal(a, b) || StringlyEqual(a, b) {
		return true
	}
	x, ok1 := a.([]any)
	y, ok2 := b.([]any)
	if !ok1 || !ok2 || len(x) != len(y) {
		return false
	}
	for i := range x {
		if !Equal(x[i], y[i]) && !StringlyEqual(x[i], y[i]) {
			return false
		}
	}
	return true
}

// StringlyEqualDeep folds a free-form string map against a typed one,
// key by key; a key added or removed, or a value changed, still differs.
func StringlyEqualDeep(a, b any) bool {
	if SameScalarOrEqual(a, b) {
		return true
	}
	x, ok1 := a.(map[string]any)
	y, ok2 := b.(map[string]any)
	if !ok1 || !ok2 || len(x) != len(y) {
		return false
	}
	for k, e := range x {
		f, ok := y[k]
		if !ok || !StringlyEqualDeep(e, f) {
			return false
		}
	}
	return true
}

// JSONStringEqual reports whether a declared object equals a live value
// that is its JSON text.
func JSONStringEqual(declared any, live string) bool {
	live = strings.TrimSpace(live)
	if live == "" || (live[0] != '{' && live[0] != '[') {
		return false
	}
	var v any
	if err := json.Unmarshal([]byte(live), &v); err != nil {
		return false
	}
	return StringlyEqualDeep(declared, v)
}

// PEMEqual reports whether two PEM-armoured values differ only in
// surrounding whitespace. Both sides must be PEM.
func PEMEqual(a, b string) bool {
	if !strings.Contains(a, "-----BEGIN ") || !strings.Contains(b, "-----BEGIN ") {
		return false
	}
	return strings.TrimSpace(a) == strings.TrimSpace(b)
}

// LatestSentinelMatch folds a declared "LATEST" against the concrete
// version live reads back. Only the literal sentinel folds.
func LatestSentinelMatch(declared, live any) bool {
	d, ok := declared.(string)
	l, ok2 := live.(string)
	return ok && ok2 && d == "LATEST" && l != ""
}

// VersionPrefixMatch reports whether the shorter version is a leading run
// of the longer one's dotted segments ("8.0" vs "8.0.45").
func VersionPrefixMatch(a, b any) bool {
	x, ok1 := ScalarString(a)
	y, ok2 := ScalarString(b)
	if !ok1 || !ok2 || x == "" || y == "" {
		return false
	}
	xs, ys := strings.Split(x, "."), strings.Split(y, ".")
	if len(xs) > len(ys) {
		xs, ys = ys, xs
	}
	for i := range xs {
		if xs[i] != ys[i] {
			return false
		}
	}
	return true
}

// CaseInsensitiveEqual folds two strings that differ only in case (and a
// trailing dot, as DNS names do).
func CaseInsensitiveEqual(a, b any) bool {
	x, ok1 := a.(string)
	y, ok2 := b.(string)
	if !ok1 || !ok2 {
		return false
	}
	return strings.EqualFold(strings.TrimSuffix(x, "."), strings.TrimSuffix(y, "."))
}

// ARN is a parsed Amazon Resource Name.
type ARN struct {
	Partition, Service, Region, Account, Resource string
}

// ParseARN splits an ARN; ok is false for anything else.
func ParseARN(s string) (ARN, bool) {
	if !strings.HasPrefix(s, "arn:") {
		return ARN{}, false
	}
	p := strings.SplitN(s, ":", 6)
	if len(p) != 6 {
		return ARN{}, false
	}
	return ARN{Partition: p[1], Service: p[2], Region: p[3], Account: p[4], Resource: p[5]}, true
}

// ARNNameMatch reports whether exactly one side is an ARN and the other is
// its final name segment. With account and region known, a non-empty ARN
// account or region segment must match them too.
func ARNNameMatch(a, b any, account, region string) bool {
	x, ok1 := a.(string)
	y, ok2 := b.(string)
	if !ok1 || !ok2 || x == "" || y == "" {
		return false
	}
	arn, isA := ParseARN(x)
	name := y
	if _, isB := ParseARN(y); isB == isA {
		return false
	} else if isB {
		arn, _ = ParseARN(y)
		name = x
	}
	if account != "" && arn.Account != "" && arn.Account != account {
		return false
	}
	if region != "" && arn.Region != "" && arn.Region != region {
		return false
	}
	res := arn.Resource
	if res == name {
		return true
	}
	if i := strings.LastIndexAny(res, "/:"); i >= 0 {
		res = res[i+1:]
	}
	return res == name
}

// KMSAliasMatch folds a declared AWS-managed alias (alias/aws/…) against the
// key live reads back. With the alias's target known (targets), the live key
// must be that key; without it the fold is by shape only. Custom aliases
// never fold.
func KMSAliasMatch(declared, live any, targets map[string]string) bool {
	d, ok1 := declared.(string)
	l, ok2 := live.(string)
	if !ok1 || !ok2 || l == "" {
		return false
	}
	alias := d
	if a, ok := ParseARN(d); ok && a.Service == "kms" {
		alias = a.Resource
	}
	if !strings.HasPrefix(alias, "alias/aws/") {
		return false
	}
	keyID := l
	if a, ok := ParseARN(l); ok {
		if a.Service != "kms" {
			return false
		}
		keyID = strings.TrimPrefix(a.Resource, "key/")
	}
	if t, ok := targets[alias]; ok {
		if a, ok := ParseARN(t); ok {
			t = strings.TrimPrefix(a.Resource, "key/")
		}
		return t == keyID
	}
	return !strings.HasPrefix(keyID, "alias/")
}

// TriviallyEmptyCollection reports whether a declared collection is empty
// ({} or []), so its absence from live is not drift.
func TriviallyEmptyCollection(v any) bool {
	switch t := v.(type) {
	case []any:
		return len(t) == 0
	case map[string]any:
		return len(t) == 0
	}
	return false
}

// ServiceCaseEqual folds a value a service stores re-cased: the two differ
// only in case and the live side is all lower or all upper case (the
// service's canonical form), e.g. an enum "source" read back "SOURCE".
func ServiceCaseEqual(declared, live string) bool {
	if declared == live || !strings.EqualFold(declared, live) {
		return false
	}
	return live == strings.ToLower(live) || live == strings.ToUpper(live)
}

// TrailingDotEqual folds a DNS name written with and without its root dot.
func TrailingDotEqual(a, b string) bool {
	if !strings.Contains(a, ".") || a == b {
		return false
	}
	return a+"." == b || b+"." == a
}

// SSHPublicKeyEqual folds an OpenSSH public key written with and without
// its trailing comment: the key type and the key material must be equal.
func SSHPublicKeyEqual(a, b string) bool {
	if a == b {
		return false
	}
	fa, fb := strings.Fields(a), strings.Fields(b)
	if len(fa) < 2 || len(fb) < 2 || (len(fa) > 2 && len(fb) > 2) {
		return false
	}
	if !sshKeyType(fa[0]) {
		return false
	}
	return fa[0] == fb[0] && fa[1] == fb[1] && len(fa[1]) >= 64
}

// sshKeyType reports whether s names an OpenSSH public key algorithm
// (ssh-rsa, ssh-ed25519, ecdsa-sha2-*, and the security-key forms
// sk-ssh-ed25519@openssh.com, sk-ecdsa-sha2-*@openssh.com).
func sshKeyType(s string) bool {
	s = strings.TrimPrefix(s, "sk-")
	return strings.HasPrefix(s, "ssh-") || strings.HasPrefix(s, "ecdsa-")
}

// MaskedNonASCII reports whether live is declared as a read returns it
// with its non-ASCII characters masked: every non-ASCII character of
// declared written as one '?' (or one '?' per UTF-8 byte), every other
// character equal. Declared must hold a non-ASCII character, so two ASCII
// strings never match; a changed ASCII character, or a '?' where declared
// holds an ASCII one, still differs. The value cannot be read back, so it
// is a read gap, never drift and never equal.
func MaskedNonASCII(declared, live string) bool {
	if declared == live || len(live) > len(declared) {
		return false
	}
	masked := false
	j := 0
	for _, c := range declared {
		if c < 0x80 {
			if j >= len(live) || live[j] != byte(c) {
				return false
			}
			j++
			continue
		}
		masked = true
		if j >= len(live) || live[j] != '?' {
			return false
		}
		// One '?' per character, or one per byte of its encoding.
		n := 1
		for n < utf8.RuneLen(c) && j+n < len(live) && live[j+n] == '?' {
			n++
		}
		if n != 1 && n != utf8.RuneLen(c) {
			n = 1
		}
		j += n
	}
	return masked && j == len(live)
}

// RateExpressionEqual folds two schedule rate expressions of the same
// period ("rate(60 minutes)" vs "rate(1 hour)").
func RateExpressionEqual(a, b string) bool {
	x, ok1 := rateMinutes(a)
	y, ok2 := rateMinutes(b)
	return ok1 && ok2 && x == y
}

func rateMinutes(s string) (int, bool) {
	if !strings.HasPrefix(s, "rate(") || !strings.HasSuffix(s, ")") {
		return 0, false
	}
	f := strings.Fields(s[5 : len(s)-1])
	if len(f) != 2 {
		return 0, false
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || n <= 0 {
		return 0, false
	}
	switch strings.TrimSuffix(f[1], "s") {
	case "minute":
		return n, true
	case "hour":
		return n * 60, true
	case "day":
		return n * 1440, true
	}
	return 0, false
}

// RoundedDownMatch folds a declared number the service stores rounded down
// to a multiple of unit (an expiry kept to the hour).
func RoundedDownMatch(declared, live any, unit float64) bool {
	d, ok1 := Number(declared)
	l, ok2 := Number(live)
	if !ok1 || !ok2 || unit <= 0 {
		return false
	}
	return l <= d && d-l < unit && float64(int64(l/unit))*unit == l
}

// ACLResetEqual folds a Redis ACL access string the service stores with
// an explicit "-@all" reset before the first command category: the reset
// is what an ACL starts from anyway.
func ACLResetEqual(declared, live string) bool {
	if declared == live || !strings.Contains(live, "-@all") || strings.Contains(declared, "-@all") {
		return false
	}
	return strings.Join(strings.Fields(strings.Replace(live, "-@all", "", 1)), " ") == strings.Join(strings.Fields(declared), " ")
}

// TrailingSlashEqual folds a prefix written with and without its final
// slash ("team/" vs "team").
func TrailingSlashEqual(a, b string) bool {
	if a == b || a == "" || b == "" {
		return false
	}
	return a+"/" == b || b+"/" == a
}

// IntelligentTieringMatch folds a declared "Intelligent-Tiering" tier with
// the concrete tier AWS chose for the value (Standard or Advanced).
func IntelligentTieringMatch(declared, live string) bool {
	return declared == "Intelligent-Tiering" && (live == "Standard" || live == "Advanced")
}

// BooleanStringEqual folds two spellings of one boolean parameter value
// ("1" vs "true", "ON" vs "1", "0" vs "false"); other strings never fold.
func BooleanStringEqual(a, b string) bool {
	x, ok1 := boolWord(a)
	y, ok2 := boolWord(b)
	return a != b && ok1 && ok2 && x == y
}

func boolWord(s string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true", "on", "yes":
		return true, true
	case "0", "false", "off", "no":
		return false, true
	}
	return false, false
}

// PropertiesEqual folds two Java properties texts that set the same keys
// to the same values, whatever their order, blank lines, comments and the
// spaces around "=".
func PropertiesEqual(a, b string) bool {
	if a == b {
		return false
	}
	pa, ok1 := properties(a)
	pb, ok2 := properties(b)
	if !ok1 || !ok2 || len(pa) != len(pb) {
		return false
	}
	for k, v := range pa {
		if w, ok := pb[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func properties(s string) (map[string]string, bool) {
	out := map[string]string{}
	for _, line := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return nil, false
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out, len(out) > 0
}
