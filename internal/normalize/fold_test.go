package normalize

import "testing"

// Every fold has a pair: the noise it folds and a real change it must not.
func TestFolds(t *testing.T) {
	targets := map[string]string{"alias/aws/rds": "arn:aws:kms:us-east-1:111111111111:key/1111aaaa-2222-3333-4444-555566667777"}
	tests := []struct {
		name string
		fold func(a, b any) bool
		a, b any
		want bool
	}{
		{"stringly bool folds", StringlyEqual, true, "true", true},
		{"stringly bool change surfaces", StringlyEqual, true, "false", false},
		{"stringly number folds", StringlyEqual, 5432.0, "5432", true},
		{"stringly decimal folds", StringlyEqual, 40.0, "40.0", true},
		{"stringly number change surfaces", StringlyEqual, 5432.0, "5433", false},
		{"two strings never fold numerically", StringlyEqual, "1.0", "1", false},
		{"stringly array folds", SameScalarOrEqual, []any{80.0, 443.0}, []any{"80", "443"}, true},
		{"stringly array change surfaces", SameScalarOrEqual, []any{80.0, 443.0}, []any{"80", "8443"}, false},
		{"stringly map folds", StringlyEqualDeep, map[string]any{"a": true}, map[string]any{"a": "true"}, true},
		{"stringly map added key surfaces", StringlyEqualDeep, map[string]any{"a": true}, map[string]any{"a": "true", "b": "x"}, false},
		{"LATEST folds", LatestSentinelMatch, "LATEST", "1.4.0", true},
		{"concrete version change surfaces", LatestSentinelMatch, "1.3.0", "1.4.0", false},
		{"version precision folds", VersionPrefixMatch, "8.0", "8.0.45", true},
		{"version precision folds concrete to partial", VersionPrefixMatch, "1.6.22", "1.6", true},
		{"version track change surfaces", VersionPrefixMatch, "8.0", "8.4.1", false},
		{"dotted segments, not characters", VersionPrefixMatch, "8.1", "8.10.2", false},
		{"DNS case folds", CaseInsensitiveEqual, "Foo.example.com", "foo.example.com.", true},
		{"DNS name change surfaces", CaseInsensitiveEqual, "foo.example.com", "bar.example.com", false},
		{"name to ARN folds", func(a, b any) bool { return ARNNameMatch(a, b, "111111111111", "us-east-1") },
			"fn", "arn:aws:lambda:us-east-1:111111111111:function:fn", true},
		{"ARN to name folds", func(a, b any) bool { return ARNNameMatch(a, b, "111111111111", "us-east-1") },
			"arn:aws:lambda:us-east-1:111111111111:function:fn", "fn", true},
		{"other name surfaces", func(a, b any) bool { return ARNNameMatch(a, b, "111111111111", "us-east-1") },
			"fn", "arn:aws:lambda:us-east-1:111111111111:function:other", false},
		{"same name in another account surfaces", func(a, b any) bool { return ARNNameMatch(a, b, "111111111111", "us-east-1") },
			"fn", "arn:aws:lambda:us-east-1:222222222222:function:fn", false},
		{"same name in another region surfaces", func(a, b any) bool { return ARNNameMatch(a, b, "111111111111", "us-east-1") },
			"fn", "arn:aws:lambda:eu-west-1:111111111111:function:fn", false},
		{"managed alias to its key folds", func(a, b any) bool { return KMSAliasMatch(a, b, targets) },
			"alias/aws/rds", "arn:aws:kms:us-east-1:111111111111:key/1111aaaa-2222-3333-4444-555566667777", true},
		{"customer key swapped in surfaces", func(a, b any) bool { return KMSAliasMatch(a, b, targets) },
			"alias/aws/rds", "arn:aws:kms:us-east-1:111111111111:key/9999aaaa-2222-3333-4444-555566667777", false},
		{"managed alias without targets folds by shape", func(a, b any) bool { return KMSAliasMatch(a, b, nil) },
			"alias/aws/sqs", "arn:aws:kms:us-east-1:111111111111:key/9999aaaa-2222-3333-4444-555566667777", true},
		{"custom alias never folds", func(a, b any) bool { return KMSAliasMatch(a, b, nil) },
			"alias/mine", "arn:aws:kms:us-east-1:111111111111:key/9999aaaa-2222-3333-4444-555566667777", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.fold(tt.a, tt.b); got != tt.want {
				t.Errorf("fold(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

func TestStringFolds(t *testing.T) {
	pem := "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----"
	tests := []struct {
		name string
		fold func(a, b string) bool
		a, b string
		want bool
	}{
		{"PEM trailing newline folds", PEMEqual, pem, pem + "\n", true},
		{"PEM key change surfaces", PEMEqual, pem, "-----BEGIN PUBLIC KEY-----\nMIIC\n-----END PUBLIC KEY-----", false},
		{"service re-cased enum folds", ServiceCaseEqual, "source", "SOURCE", true},
		{"mixed-case live value surfaces", ServiceCaseEqual, "Source", "SoUrce", false},
		{"other enum surfaces", ServiceCaseEqual, "source", "TARGET", false},
		{"DNS root dot folds", TrailingDotEqual, "a.example.com", "a.example.com.", true},
		{"other DNS name surfaces", TrailingDotEqual, "a.example.com", "b.example.com.", false},
		{"rate period folds", RateExpressionEqual, "rate(60 minutes)", "rate(1 hour)", true},
		{"rate change surfaces", RateExpressionEqual, "rate(30 minutes)", "rate(1 hour)", false},
		{"ACL reset folds", ACLResetEqual, "on ~* &* +@read", "on ~* &* -@all +@read", true},
		{"ACL grant change surfaces", ACLResetEqual, "on ~* &* +@read", "on ~* &* -@all +@write", false},
		{"public key comment folds", SSHPublicKeyEqual, "ssh-ed25519 " + sshKey + " me@host", "ssh-ed25519 " + sshKey, true},
		{"another public key surfaces", SSHPublicKeyEqual, "ssh-ed25519 " + sshKey + " me@host", "ssh-ed25519 " + sshKey[1:] + "A", false},
		{"a changed comment on both sides surfaces", SSHPublicKeyEqual, "ssh-ed25519 " + sshKey + " a", "ssh-ed25519 " + sshKey + " b", false},
		{"security-key public key comment folds", SSHPublicKeyEqual, "sk-ssh-ed25519@openssh.com " + sshKey + " me@host", "sk-ssh-ed25519@openssh.com " + sshKey, true},
		{"masked non-ASCII folds to a read gap", MaskedNonASCII, "Caf\u00e9 \u65e5\u672c", "Caf? ??", true},
		{"masked per byte folds to a read gap", MaskedNonASCII, "Caf\u00e9", "Caf??", true},
		{"a changed ASCII character beside a mask surfaces", MaskedNonASCII, "Caf\u00e9 bar", "Cof? bar", false},
		{"a question mark for an ASCII character surfaces", MaskedNonASCII, "Cafe", "Caf?", false},
		{"two ASCII strings never mask", MaskedNonASCII, "a?", "a?", false},
		{"account root principal folds", AccountPrincipalEqual, "111111111111", "arn:aws:iam::111111111111:root", true},
		{"another account surfaces", AccountPrincipalEqual, "111111111111", "arn:aws:iam::222222222222:root", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.fold(tt.a, tt.b); got != tt.want {
				t.Errorf("fold(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

func TestJSONStringEqual(t *testing.T) {
	decl := map[string]any{"schemaVersion": "2.2", "steps": []any{"a"}}
	tests := []struct {
		name string
		live string
		want bool
	}{
		{"same document as text folds", `{"steps":["a"], "schemaVersion":"2.2"}`, true},
		{"changed document surfaces", `{"steps":["b"], "schemaVersion":"2.2"}`, false},
		{"not JSON surfaces", `steps: [a]`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := JSONStringEqual(decl, tt.live); got != tt.want {
				t.Errorf("JSONStringEqual = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRoundedDownMatch(t *testing.T) {
	if !RoundedDownMatch(1784632175.0, 1784631600.0, 3600) {
		t.Error("expiry rounded down to the hour should fold")
	}
	if RoundedDownMatch(1784632175.0, 1784628000.0, 3600) {
		t.Error("an expiry an hour earlier must surface")
	}
}

const sshKey = "AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl0123456789"

func TestPerPathEquivalences(t *testing.T) {
	for _, tt := range []struct {
		name string
		f    func(a, b string) bool
		a, b string
		want bool
	}{
		{"slash", TrailingSlashEqual, "team/", "team", true},
		{"slash other", TrailingSlashEqual, "team/", "teams", false},
		{"tiering", IntelligentTieringMatch, "Intelligent-Tiering", "Standard", true},
		{"tiering not declared", IntelligentTieringMatch, "Standard", "Advanced", false},
		{"bool", BooleanStringEqual, "1", "true", true},
		{"bool flipped", BooleanStringEqual, "1", "false", false},
		{"bool word", BooleanStringEqual, "fast", "true", false},
		{"properties", PropertiesEqual, "a=1\nb = 2\n", "# c\nb=2\na=1", true},
		{"properties changed", PropertiesEqual, "a=1\nb=2", "a=1\nb=3", false},
		{"properties extra", PropertiesEqual, "a=1", "a=1\nb=2", false},
	} {
		if got := tt.f(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: (%q, %q) = %v, want %v", tt.name, tt.a, tt.b, got, tt.want)
		}
	}
}
