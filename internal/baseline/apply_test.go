package baseline

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/realdrift/realdrift/internal/drift"
)

const (
	fnType = "AWS::Lambda::Function"
	qType  = "AWS::SQS::Queue"
	s3Type = "AWS::S3::Bucket"
	tsType = "AWS::ElasticLoadBalancingV2::TrustStore"
)

func und(lid, typ, path string, actual any) drift.Finding {
	return drift.Finding{Tier: drift.Undeclared, LogicalID: lid, ResourceType: typ, PhysicalID: "p-" + lid, Path: path, Actual: actual}
}

func withTier(f drift.Finding, t drift.Tier) drift.Finding { f.Tier = t; return f }

func withNote(f drift.Finding, note string, desired any) drift.Finding {
	f.Note, f.Desired = note, desired
	return f
}

func added(lid, phys string, model map[string]any) drift.Finding {
	return drift.Finding{Tier: drift.Added, LogicalID: lid, ResourceType: "AWS::SNS::Subscription", PhysicalID: phys, Actual: model}
}

func unrec(f drift.Finding) drift.Finding { f.Unrecorded = true; return f }

func res(lid, typ string, declared map[string]any) Resource {
	return Resource{LogicalID: lid, Type: typ, PhysicalID: "p-" + lid, Declared: declared}
}

func base(entries ...Entry) *Baseline {
	return &Baseline{
		Stack:              drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: "S"},
		Entries:            entries,
		Complete:           map[string]bool{},
		PhysicalIDs:        map[string]string{},
		SourceFingerprints: map[string]string{},
		Version:            2,
	}
}

func fp(t *testing.T, typ, path string, declared map[string]any) string {
	t.Helper()
	h, ok := Fingerprint(typ, path, declared)
	if !ok {
		t.Fatalf("no fingerprint for %s %s", typ, path)
	}
	return h
}

func TestApply(t *testing.T) {
	fnRes := res("Fn", fnType, map[string]any{"Code": map[string]any{"S3Key": "v2.zip"}})
	qRes := res("Q", qType, map[string]any{"QueueName": "q"})
	tsDecl := map[string]any{"CaCertificatesBundleS3Bucket": "b", "CaCertificatesBundleS3Key": "k2"}
	codeOld := map[string]any{"Code": map[string]any{"S3Key": "v1.zip"}}
	declared := drift.Finding{Tier: drift.Declared, LogicalID: "Q", ResourceType: qType, PhysicalID: "p-Q", Path: "DelaySeconds", Actual: 5.0, Desired: 0.0}

	tests := []struct {
		name      string
		b         func(t *testing.T) *Baseline
		in        Input
		opt       Options
		want      []drift.Finding
		wantNotes []string
	}{
		{
			name: "no baseline: every undeclared and added value is unrecorded",
			b:    func(*testing.T) *Baseline { return nil },
			in: Input{Resources: []Resource{qRes}, Findings: []drift.Finding{
				declared, und("Q", qType, "Policy", "x"), added("Q/Subscription", "arn:1", map[string]any{"a": 1.0}),
			}},
			want: []drift.Finding{declared, unrec(und("Q", qType, "Policy", "x")), unrec(added("Q/Subscription", "arn:1", map[string]any{"a": 1.0}))},
		},
		{
			name: "recorded and unchanged is suppressed",
			b:    func(*testing.T) *Baseline { return base(Entry{"Q", qType, "Tags", []any{"a", "b"}}) },
			in:   Input{Resources: []Resource{qRes}, Findings: []drift.Finding{und("Q", qType, "Tags", []any{"a", "b"})}},
		},
		{
			name: "canonicalised compare: equal after Canon is suppressed",
			b:    func(*testing.T) *Baseline { return base(Entry{"Q", qType, "Tags", []any{"b", "a"}}) },
			opt: Options{Canon: func(v any) any {
				if s, ok := v.([]any); ok && len(s) == 2 && s[0].(string) > s[1].(string) {
					return []any{s[1], s[0]}
				}
				return v
			}},
			in: Input{Resources: []Resource{qRes}, Findings: []drift.Finding{und("Q", qType, "Tags", []any{"a", "b"})}},
		},
		{
			name: "recorded and changed is drift with the recorded value as desired",
			b:    func(*testing.T) *Baseline { return base(Entry{"Q", qType, "MaxMessageSize", 1024.0}) },
			in:   Input{Resources: []Resource{qRes}, Findings: []drift.Finding{unrec(und("Q", qType, "MaxMessageSize", 2048.0))}},
			want: []drift.Finding{withNote(und("Q", qType, "MaxMessageSize", 2048.0), NoteChanged, 1024.0)},
		},
		{
			name: "no entry on a complete resource appeared since record",
			b: func(*testing.T) *Baseline {
				b := base()
				b.Complete["Q"] = true
				return b
			},
			in:   Input{Resources: []Resource{qRes}, Findings: []drift.Finding{und("Q", qType, "Policy", "x")}},
			want: []drift.Finding{withNote(und("Q", qType, "Policy", "x"), NoteAppeared, nil)},
		},
		{
			name: "no entry on a resource never recorded complete is unrecorded (cherry-pick)",
			b:    func(*testing.T) *Baseline { return base(Entry{"Q", qType, "Policy", "x"}) },
			in:   Input{Resources: []Resource{qRes}, Findings: []drift.Finding{und("Q", qType, "Policy", "x"), und("Q", qType, "Other", "y")}},
			want: []drift.Finding{unrec(und("Q", qType, "Other", "y"))},
		},
		{
			name: "nested value looked up inside an entry recorded at its parent",
			b: func(*testing.T) *Baseline {
				return base(Entry{"Fn", fnType, "Environment.Variables", map[string]any{"A": "1", "B": "2"}})
			},
			in: Input{Resources: []Resource{fnRes}, Findings: []drift.Finding{
				und("Fn", fnType, "Environment.Variables.A", "1"), und("Fn", fnType, "Environment.Variables.B", "3"),
			}},
			want: []drift.Finding{withNote(und("Fn", fnType, "Environment.Variables.B", "3"), NoteChanged, "2")},
		},
		{
			name: "identity-keyed element looked up inside a recorded array; a new key under it appeared",
			b: func(*testing.T) *Baseline {
				return base(Entry{"Q", qType, "Tags", []any{map[string]any{"Key": "env", "Value": "prod"}, map[string]any{"Key": "team", "Value": "a"}}})
			},
			in: Input{Resources: []Resource{qRes}, Findings: []drift.Finding{
				und("Q", qType, "Tags[env].Value", "prod"), und("Q", qType, "Tags[team].Value", "b"), und("Q", qType, "Tags[new].Value", "x"),
			}},
			want: []drift.Finding{
				withNote(und("Q", qType, "Tags[team].Value", "b"), NoteChanged, "a"),
				withNote(und("Q", qType, "Tags[new].Value", "x"), NoteAppeared, nil),
			},
		},
		{
			name: "ambiguous identity inside a recorded array is not guessed",
			b: func(*testing.T) *Baseline {
				return base(Entry{"Q", qType, "Tags", []any{map[string]any{"Key": "env", "Value": "a"}, map[string]any{"Key": "env", "Value": "b"}}})
			},
			in:   Input{Resources: []Resource{qRes}, Findings: []drift.Finding{und("Q", qType, "Tags[env].Value", "a")}},
			want: []drift.Finding{unrec(und("Q", qType, "Tags[env].Value", "a"))},
		},
		{
			name: "atDefault equal to its entry stays folded, not removed",
			b:    func(*testing.T) *Baseline { return base(Entry{"Q", qType, "DelaySeconds", 0.0}) },
			in:   Input{Resources: []Resource{qRes}, Findings: []drift.Finding{withTier(und("Q", qType, "DelaySeconds", 0.0), drift.AtDefault)}},
			want: []drift.Finding{withTier(und("Q", qType, "DelaySeconds", 0.0), drift.AtDefault)},
		},
		{
			name: "recorded value reset to the default out of band is drift",
			b:    func(*testing.T) *Baseline { return base(Entry{"Q", qType, "DelaySeconds", 30.0}) },
			in:   Input{Resources: []Resource{qRes}, Findings: []drift.Finding{withTier(und("Q", qType, "DelaySeconds", 0.0), drift.AtDefault)}},
			want: []drift.Finding{withNote(und("Q", qType, "DelaySeconds", 0.0), NoteChangedToFolded, 30.0)},
		},
		{
			name: "entry with no finding is removed since record",
			b:    func(*testing.T) *Baseline { return base(Entry{"Q", qType, "Policy", "x"}) },
			in:   Input{Resources: []Resource{qRes}},
			want: []drift.Finding{withNote(und("Q", qType, "Policy", nil), NoteRemoved, "x")},
		},
		{
			name: "entry of a skipped resource is unread, not removed",
			b:    func(*testing.T) *Baseline { return base(Entry{"Q", qType, "Policy", "x"}) },
			in: Input{Resources: []Resource{qRes}, Findings: []drift.Finding{
				{Tier: drift.Skipped, LogicalID: "Q", ResourceType: qType, PhysicalID: "p-Q", Reason: "throttled"},
			}},
			want: []drift.Finding{{Tier: drift.Skipped, LogicalID: "Q", ResourceType: qType, PhysicalID: "p-Q", Reason: "throttled"}},
		},
		{
			name: "entry of a deleted resource is not removed on its own",
			b:    func(*testing.T) *Baseline { return base(Entry{"Q", qType, "Policy", "x"}) },
			in: Input{Resources: []Resource{qRes}, Findings: []drift.Finding{
				{Tier: drift.Deleted, LogicalID: "Q", ResourceType: qType, PhysicalID: "p-Q"},
			}},
			want: []drift.Finding{{Tier: drift.Deleted, LogicalID: "Q", ResourceType: qType, PhysicalID: "p-Q"}},
		},
		{
			name: "entry on a read-gapped path is not removed",
			b:    func(*testing.T) *Baseline { return base(Entry{"Q", qType, "Policy.Statement", "x"}) },
			in: Input{Resources: []Resource{qRes}, Findings: []drift.Finding{
				{Tier: drift.ReadGap, LogicalID: "Q", ResourceType: qType, PhysicalID: "p-Q", Path: "Policy"},
			}},
			want: []drift.Finding{{Tier: drift.ReadGap, LogicalID: "Q", ResourceType: qType, PhysicalID: "p-Q", Path: "Policy"}},
		},
		{
			name:      "promotion into the template: a note, not a removal",
			b:         func(*testing.T) *Baseline { return base(Entry{"Q", qType, "QueueName.Nested", "q"}) },
			in:        Input{Resources: []Resource{qRes}},
			wantNotes: []string{"Q.QueueName.Nested is now declared in the template — re-run realdrift record"},
		},
		{
			name: "resource removed from the template folds into one note",
			b: func(*testing.T) *Baseline {
				return base(Entry{"Gone", qType, "A", "x"}, Entry{"Gone", qType, "B", "y"})
			},
			in:        Input{Resources: []Resource{qRes}},
			wantNotes: []string{"2 baseline entries belong to resources no longer in the template — re-run realdrift record"},
		},
		{
			name: "replaced by a deploy: entries and completeness void",
			b: func(*testing.T) *Baseline {
				b := base(Entry{"Q", qType, "Policy", "x"}, Entry{"Q", qType, "MaxMessageSize", 1024.0})
				b.PhysicalIDs["Q"] = "p-old"
				b.Complete["Q"] = true
				return b
			},
			in:        Input{Resources: []Resource{qRes}, Findings: []drift.Finding{und("Q", qType, "MaxMessageSize", 2048.0)}},
			want:      []drift.Finding{unrec(und("Q", qType, "MaxMessageSize", 2048.0))},
			wantNotes: []string{"Q was replaced by a deploy since record (physical id p-old → p-Q): its 2 baseline entries are void — re-run realdrift record"},
		},
		{
			name: "same physical id keeps entries",
			b: func(*testing.T) *Baseline {
				b := base(Entry{"Q", qType, "MaxMessageSize", 1024.0})
				b.PhysicalIDs["Q"] = "p-Q"
				return b
			},
			in:   Input{Resources: []Resource{qRes}, Findings: []drift.Finding{und("Q", qType, "MaxMessageSize", 2048.0)}},
			want: []drift.Finding{withNote(und("Q", qType, "MaxMessageSize", 2048.0), NoteChanged, 1024.0)},
		},
		{
			name: "unknown live physical id never voids",
			b: func(*testing.T) *Baseline {
				b := base(Entry{"Q", qType, "MaxMessageSize", 1024.0})
				b.PhysicalIDs["Q"] = "p-old"
				return b
			},
			in:   Input{Resources: []Resource{{LogicalID: "Q", Type: qType}}, Findings: []drift.Finding{und("Q", qType, "MaxMessageSize", 2048.0)}},
			want: []drift.Finding{withNote(und("Q", qType, "MaxMessageSize", 2048.0), NoteChanged, 1024.0)},
		},
		{
			name: "re-typed resource voids its entries",
			b:    func(*testing.T) *Baseline { return base(Entry{"Q", "AWS::SNS::Topic", "Policy", "x"}) },
			in:   Input{Resources: []Resource{qRes}},
			wantNotes: []string{
				"Q was replaced by a deploy since record (type AWS::SNS::Topic → AWS::SQS::Queue): its 1 baseline entry is void — re-run realdrift record",
			},
		},
		{
			name: "code redeployed via CloudFormation: generated hash folds, note",
			b: func(t *testing.T) *Baseline {
				b := base(Entry{"Fn", fnType, "CodeSha256", "old"})
				b.SourceFingerprints["Fn::CodeSha256"] = fp(t, fnType, "CodeSha256", codeOld)
				return b
			},
			in:        Input{Resources: []Resource{fnRes}, Findings: []drift.Finding{withTier(und("Fn", fnType, "CodeSha256", "new"), drift.Generated)}},
			want:      []drift.Finding{withTier(und("Fn", fnType, "CodeSha256", "new"), drift.Generated)},
			wantNotes: []string{"Fn.CodeSha256: declared code was redeployed via CloudFormation since record — re-run realdrift record to watch the new code"},
		},
		{
			name: "code swapped out of band: fingerprint matches, drift",
			b: func(t *testing.T) *Baseline {
				b := base(Entry{"Fn", fnType, "CodeSha256", "old"})
				b.SourceFingerprints["Fn::CodeSha256"] = fp(t, fnType, "CodeSha256", fnRes.Declared)
				return b
			},
			in:   Input{Resources: []Resource{fnRes}, Findings: []drift.Finding{withTier(und("Fn", fnType, "CodeSha256", "new"), drift.Generated)}},
			want: []drift.Finding{withNote(und("Fn", fnType, "CodeSha256", "new"), NoteChangedToFolded, "old")},
		},
		{
			name: "trust store bundle redeployed: plain undeclared entry is suppressed",
			b: func(t *testing.T) *Baseline {
				b := base(Entry{"TS", tsType, "CaCertificatesBundleSha256", "old"})
				b.SourceFingerprints["TS::CaCertificatesBundleSha256"] = fp(t, tsType, "CaCertificatesBundleSha256",
					map[string]any{"CaCertificatesBundleS3Bucket": "b", "CaCertificatesBundleS3Key": "k1"})
				return b
			},
			in: Input{Resources: []Resource{res("TS", tsType, tsDecl)}, Findings: []drift.Finding{
				und("TS", tsType, "CaCertificatesBundleSha256", "new"),
			}},
			wantNotes: []string{"TS.CaCertificatesBundleSha256: declared code was redeployed via CloudFormation since record — re-run realdrift record to watch the new code"},
		},
		{
			name: "unresolvable current source never voids",
			b: func(t *testing.T) *Baseline {
				b := base(Entry{"Fn", fnType, "CodeSha256", "old"})
				b.SourceFingerprints["Fn::CodeSha256"] = fp(t, fnType, "CodeSha256", codeOld)
				return b
			},
			in: Input{Resources: []Resource{res("Fn", fnType, map[string]any{"Code": drift.Unknown{Reason: "x"}})},
				Findings: []drift.Finding{withTier(und("Fn", fnType, "CodeSha256", "new"), drift.Generated)}},
			want: []drift.Finding{withNote(und("Fn", fnType, "CodeSha256", "new"), NoteChangedToFolded, "old")},
		},
		{
			name: "observed default deleted since record",
			b: func(*testing.T) *Baseline {
				b := base()
				b.ObservedDefaults = []PathRef{{"B", s3Type, "PublicAccessBlockConfiguration"}}
				return b
			},
			opt: Options{Default: func(typ, path string) (any, bool) { return map[string]any{"BlockPublicAcls": true}, true }},
			in:  Input{Resources: []Resource{res("B", s3Type, nil)}},
			want: []drift.Finding{withNote(und("B", s3Type, "PublicAccessBlockConfiguration", nil), NoteDefaultDeleted,
				map[string]any{"BlockPublicAcls": true})},
		},
		{
			name: "observed default still at default stays silent",
			b: func(*testing.T) *Baseline {
				b := base()
				b.ObservedDefaults = []PathRef{{"B", s3Type, "PublicAccessBlockConfiguration"}}
				return b
			},
			in: Input{Resources: []Resource{res("B", s3Type, nil)}, Findings: []drift.Finding{
				withTier(und("B", s3Type, "PublicAccessBlockConfiguration.BlockPublicAcls", true), drift.AtDefault),
			}},
			want: []drift.Finding{withTier(und("B", s3Type, "PublicAccessBlockConfiguration.BlockPublicAcls", true), drift.AtDefault)},
		},
		{
			name: "observed default on an unread resource stays silent",
			b: func(*testing.T) *Baseline {
				b := base()
				b.ObservedDefaults = []PathRef{{"B", s3Type, "PublicAccessBlockConfiguration"}}
				return b
			},
			in:   Input{Resources: []Resource{res("B", s3Type, nil)}, Findings: []drift.Finding{{Tier: drift.Skipped, LogicalID: "B", ResourceType: s3Type}}},
			want: []drift.Finding{{Tier: drift.Skipped, LogicalID: "B", ResourceType: s3Type}},
		},
		{
			name: "added children (shared synthesized id): recorded equal suppressed, new under enumerated parent appeared, other unrecorded",
			b: func(*testing.T) *Baseline {
				b := base(Entry{"Topic/Subscription#arn:1", "AWS::SNS::Subscription", "", map[string]any{"a": 1.0}})
				b.EnumeratedParents = []Parent{{"Topic", "AWS::SNS::Topic"}}
				return b
			},
			in: Input{
				Resources: []Resource{res("Topic", "AWS::SNS::Topic", nil), res("Bucket", s3Type, nil)},
				Parents:   map[string]string{"N1": "Bucket"},
				Findings: []drift.Finding{
					added("Topic/Subscription", "arn:1", map[string]any{"a": 1.0}),
					added("Topic/Subscription", "arn:2", map[string]any{"a": 2.0}),
					added("N1", "n-1", map[string]any{"a": 2.0}),
				},
			},
			want: []drift.Finding{
				withNote(added("Topic/Subscription", "arn:2", map[string]any{"a": 2.0}), NoteAppeared, nil),
				unrec(added("N1", "n-1", map[string]any{"a": 2.0})),
			},
		},
		{
			name: "recorded added child changed",
			b: func(*testing.T) *Baseline {
				return base(Entry{"Topic/Subscription#arn:1", "AWS::SNS::Subscription", "", map[string]any{"a": 1.0}})
			},
			in:   Input{Resources: []Resource{res("Topic", "AWS::SNS::Topic", nil)}, Findings: []drift.Finding{added("Topic/Subscription", "arn:1", map[string]any{"a": 9.0})}},
			want: []drift.Finding{withNote(added("Topic/Subscription", "arn:1", map[string]any{"a": 9.0}), NoteChanged, map[string]any{"a": 1.0})},
		},
		{
			name: "recorded added child no longer present is a note",
			b: func(*testing.T) *Baseline {
				return base(Entry{"Topic/Subscription#arn:1", "AWS::SNS::Subscription", "", map[string]any{"a": 1.0}})
			},
			in:        Input{Resources: []Resource{res("Topic", "AWS::SNS::Topic", nil)}},
			wantNotes: []string{"1 recorded added resource is no longer present — re-run realdrift record"},
		},
		{
			name: "template hash changed since record",
			b: func(*testing.T) *Baseline {
				b := base()
				b.TemplateHash = "aaa"
				return b
			},
			in:        Input{Resources: []Resource{qRes}, TemplateHash: "bbb"},
			wantNotes: []string{"the deployed template changed since record — the recorded set may be stale; consider re-running realdrift record"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Apply(tt.b(t), tt.in, tt.opt)
			if diff := cmp.Diff(got.Findings, tt.want); diff != "" {
				t.Errorf("findings (-got +want):\n%s", diff)
			}
			if diff := cmp.Diff(got.Notes, tt.wantNotes); diff != "" {
				t.Errorf("notes (-got +want):\n%s", diff)
			}
		})
	}
}
