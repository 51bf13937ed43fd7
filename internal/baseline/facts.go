package baseline

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// sourceRule says that a recordable generated value (a content hash AWS
// computes) derives from declared write-only source properties.
type sourceRule struct {
	Type, Path string
	// Sources are dotted declared paths; more than one is an ordered tuple.
	Sources []string
}

// sourceRules is the one table of content hashes whose declared source is
// fingerprinted at record, so a redeploy through CloudFormation voids the
// recorded hash instead of reporting it changed.
func sourceRules() []sourceRule {
	return []sourceRule{
		{"AWS::Lambda::Function", "CodeSha256", []string{"Code"}},
		{"AWS::Glue::Job", "ScriptSha256", []string{"Command.ScriptLocation"}},
		{"AWS::ElasticLoadBalancingV2::TrustStore", "CaCertificatesBundleSha256", []string{
			"CaCertificatesBundleS3Bucket", "CaCertificatesBundleS3Key", "CaCertificatesBundleS3ObjectVersion",
		}},
	}
}

// observedDefaultPaths is the one table of top-level paths whose being at
// the AWS default is recorded, so deleting them out of band is detected.
func observedDefaultPaths() map[string][]string {
	return map[string][]string{
		"AWS::S3::Bucket": {"PublicAccessBlockConfiguration"},
	}
}

func sourceRuleFor(typ, path string) (sourceRule, bool) {
	for _, r := range sourceRules() {
		if r.Type == typ && r.Path == path {
			return r, true
		}
	}
	return sourceRule{}, false
}

// recordableGenerated reports whether a generated-tier value may be recorded.
func recordableGenerated(typ, path string) bool {
	_, ok := sourceRuleFor(typ, path)
	return ok
}

func tracksObservedDefault(typ, path string) bool {
	for _, p := range observedDefaultPaths()[typ] {
		if p == path {
			return true
		}
	}
	return false
}

// Fingerprint hashes the declared source of a recordable content hash at
// (typ, path) from a resource's declared properties. ok is false when the
// path has no source rule or the source cannot be known (absent, or holding
// an unresolved value): then nothing is voided (fail safe: surface).
func Fingerprint(typ, path string, declared map[string]any) (string, bool) {
	r, ok := sourceRuleFor(typ, path)
	if !ok {
		return "", false
	}
	vals := make([]any, len(r.Sources))
	known := 0
	for i, src := range r.Sources {
		v, found := lookupDotted(declared, src)
		if found && drift.ContainsUnknown(v) {
			return "", false
		}
		if found {
			known++
			vals[i] = v
		}
	}
	if known == 0 {
		return "", false
	}
	var subject any = vals
	if len(vals) == 1 {
		subject = vals[0]
	}
	b, err := marshal(subject) // sorts map keys; a Secret hashes as Redacted
	if err != nil {
		return "", false
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), true
}

// lookupDotted walks a dotted path through nested objects.
func lookupDotted(m map[string]any, path string) (any, bool) {
	var cur any = m
	for _, seg := range strings.Split(path, ".") {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur, ok = obj[seg]
		if !ok {
			return nil, false
		}
	}
	return cur, true
}
