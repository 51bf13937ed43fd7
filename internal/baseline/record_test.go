package baseline

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/realdrift/realdrift/internal/drift"
)

var (
	stackS = drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: "S"}
	at     = time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC)
)

func snap(findings []drift.Finding, resources ...Resource) Snapshot {
	return Snapshot{Stack: stackS, Findings: findings, Resources: resources, CapturedAt: at, TemplateHash: "h"}
}

func only(keys ...string) func(string, string) bool {
	return func(lid, path string) bool {
		for _, k := range keys {
			if k == lid+"."+path {
				return true
			}
		}
		return false
	}
}

// unreadAdded is an added child whose full read failed: no live value.
func unreadAdded(lid, phys string) drift.Finding {
	f := added(lid, phys, nil)
	f.Actual = nil
	return f
}

func TestRecord(t *testing.T) {
	qRes := res("Q", qType, nil)
	fnRes := res("Fn", fnType, map[string]any{"Code": map[string]any{"S3Key": "v1.zip"}})
	type want struct {
		Entries   []Entry
		Complete  []string
		Phys      map[string]string
		FP        []string
		Observed  []PathRef
		Parents   []Parent
		CarriedFP map[string]string
	}
	tests := []struct {
		name string
		prev func(t *testing.T) *Baseline
		s    Snapshot
		want want
	}{
		{
			name: "first record of everything: entries, complete, physical ids",
			prev: func(*testing.T) *Baseline { return nil },
			s: snap([]drift.Finding{
				und("Q", qType, "Policy", "x"),
				withTier(und("Q", qType, "DelaySeconds", 0.0), drift.AtDefault),
				{Tier: drift.Ignored, LogicalID: "Q", ResourceType: qType, Path: "Ignored", Actual: "i"},
			}, qRes, res("Clean", qType, nil)),
			want: want{
				Entries:  []Entry{{"Q", qType, "Policy", "x"}},
				Complete: []string{"Clean", "Q"},
				Phys:     map[string]string{"Q": "p-Q", "Clean": "p-Clean"},
			},
		},
		{
			name: "cherry-pick: unpicked value keeps the resource incomplete",
			prev: func(*testing.T) *Baseline { return nil },
			s: func() Snapshot {
				s := snap([]drift.Finding{und("Q", qType, "Policy", "x"), und("Q", qType, "Other", "y")}, qRes)
				s.Select = only("Q.Policy")
				return s
			}(),
			want: want{Entries: []Entry{{"Q", qType, "Policy", "x"}}, Phys: map[string]string{"Q": "p-Q"}},
		},
		{
			name: "declined change keeps the old entry and completeness (monotonic)",
			prev: func(*testing.T) *Baseline {
				b := base(Entry{"Q", qType, "Policy", "x"})
				b.Complete["Q"] = true
				b.PhysicalIDs["Q"] = "p-Q"
				return b
			},
			s: func() Snapshot {
				s := snap([]drift.Finding{und("Q", qType, "Policy", "changed"), und("Q", qType, "New", "n")}, qRes)
				s.Select = only()
				return s
			}(),
			want: want{Entries: []Entry{{"Q", qType, "Policy", "x"}}, Complete: []string{"Q"}, Phys: map[string]string{"Q": "p-Q"}},
		},
		{
			name: "value gone: dropped when selected",
			prev: func(*testing.T) *Baseline { return base(Entry{"Q", qType, "Policy", "x"}) },
			s:    snap(nil, qRes),
			want: want{Complete: []string{"Q"}, Phys: map[string]string{"Q": "p-Q"}},
		},
		{
			name: "unread resource carries entries, physical id, fingerprint, observed default and completeness",
			prev: func(t *testing.T) *Baseline {
				b := base(Entry{"Fn", fnType, "CodeSha256", "old"}, Entry{"B", s3Type, "X", "y"})
				b.SourceFingerprints["Fn::CodeSha256"] = "oldfp"
				b.PhysicalIDs["Fn"] = "p-Fn"
				b.Complete["Fn"] = true
				b.ObservedDefaults = []PathRef{{"B", s3Type, "PublicAccessBlockConfiguration"}}
				return b
			},
			s: snap([]drift.Finding{
				{Tier: drift.Skipped, LogicalID: "Fn", ResourceType: fnType, Reason: "throttled"},
				{Tier: drift.Skipped, LogicalID: "B", ResourceType: s3Type, Reason: "throttled"},
			}, fnRes, res("B", s3Type, nil)),
			want: want{
				Entries:   []Entry{{"B", s3Type, "X", "y"}, {"Fn", fnType, "CodeSha256", "old"}},
				Complete:  []string{"Fn"},
				Phys:      map[string]string{"Fn": "p-Fn"},
				CarriedFP: map[string]string{"Fn::CodeSha256": "oldfp"},
				Observed:  []PathRef{{"B", s3Type, "PublicAccessBlockConfiguration"}},
			},
		},
		{
			name: "recordable generated hash is recorded with a source fingerprint",
			prev: func(*testing.T) *Baseline { return nil },
			s: snap([]drift.Finding{
				withTier(und("Fn", fnType, "CodeSha256", "abc"), drift.Generated),
				withTier(und("Fn", fnType, "FunctionName", "gen"), drift.Generated),
			}, fnRes),
			want: want{
				Entries:  []Entry{{"Fn", fnType, "CodeSha256", "abc"}},
				Complete: []string{"Fn"},
				Phys:     map[string]string{"Fn": "p-Fn"},
				FP:       []string{"Fn::CodeSha256"},
			},
		},
		{
			name: "replaced resource starts afresh",
			prev: func(*testing.T) *Baseline {
				b := base(Entry{"Q", qType, "Old", "x"})
				b.PhysicalIDs["Q"] = "p-old"
				b.Complete["Q"] = true
				return b
			},
			s: func() Snapshot {
				s := snap([]drift.Finding{und("Q", qType, "New", "n")}, qRes)
				s.Select = only()
				return s
			}(),
			want: want{},
		},
		{
			name: "observed defaults of tracked paths are stamped",
			prev: func(*testing.T) *Baseline { return nil },
			s: snap([]drift.Finding{
				withTier(und("B", s3Type, "PublicAccessBlockConfiguration", map[string]any{"BlockPublicAcls": true}), drift.AtDefault),
				withTier(und("B", s3Type, "OtherDefault", 1.0), drift.AtDefault),
			}, res("B", s3Type, nil)),
			want: want{
				Complete: []string{"B"},
				Phys:     map[string]string{"B": "p-B"},
				Observed: []PathRef{{"B", s3Type, "PublicAccessBlockConfiguration"}},
			},
		},
		{
			name: "enumerated parent marked when every child is recorded, demoted when one is declined",
			prev: func(*testing.T) *Baseline { return nil },
			s: func() Snapshot {
				s := snap([]drift.Finding{
					added("T/Subscription", "arn:1", map[string]any{"a": 1.0}),
					added("T/Subscription", "arn:2", map[string]any{"a": 2.0}),
					added("C3", "c-3", map[string]any{"a": 3.0}),
				}, res("T", "AWS::SNS::Topic", nil), res("W", "AWS::SSM::MaintenanceWindow", nil), res("E", "AWS::SNS::Topic", nil))
				s.Parents = map[string]string{"C3": "W"}
				s.Scanned = []Parent{{"T", "AWS::SNS::Topic"}, {"W", "AWS::SSM::MaintenanceWindow"}, {"E", "AWS::SNS::Topic"}}
				s.Select = only("T/Subscription#arn:1.", "T/Subscription#arn:2.")
				return s
			}(),
			want: want{
				Entries: []Entry{
					{"T/Subscription#arn:1", "AWS::SNS::Subscription", "", map[string]any{"a": 1.0}},
					{"T/Subscription#arn:2", "AWS::SNS::Subscription", "", map[string]any{"a": 2.0}},
				},
				Complete: []string{"E", "T", "W"},
				Phys:     map[string]string{"E": "p-E", "T": "p-T", "W": "p-W"},
				Parents:  []Parent{{"E", "AWS::SNS::Topic"}, {"T", "AWS::SNS::Topic"}},
			},
		},
		{
			name: "parent not enumerated (skipped) keeps its marker and recorded children",
			prev: func(*testing.T) *Baseline {
				b := base(Entry{"T/Subscription#arn:1", "AWS::SNS::Subscription", "", map[string]any{"a": 1.0}})
				b.Complete["T"] = true
				b.PhysicalIDs["T"] = "p-T"
				b.EnumeratedParents = []Parent{{"T", "AWS::SNS::Topic"}}
				return b
			},
			s: snap([]drift.Finding{
				{Tier: drift.Skipped, LogicalID: "T", ResourceType: "AWS::SNS::Topic", Reason: "enumerate children: SNS ListSubscriptionsByTopic: AuthorizationError"},
			}, res("T", "AWS::SNS::Topic", nil)),
			want: want{
				Entries:  []Entry{{"T/Subscription#arn:1", "AWS::SNS::Subscription", "", map[string]any{"a": 1.0}}},
				Complete: []string{"T"},
				Phys:     map[string]string{"T": "p-T"},
				Parents:  []Parent{{"T", "AWS::SNS::Topic"}},
			},
		},
		{
			name: "an added child whose read failed keeps its entry and its parent's marker",
			prev: func(*testing.T) *Baseline {
				b := base(Entry{"T/Subscription#arn:1", "AWS::SNS::Subscription", "", map[string]any{"a": 1.0}})
				b.EnumeratedParents = []Parent{{"T", "AWS::SNS::Topic"}}
				return b
			},
			s: func() Snapshot {
				s := snap([]drift.Finding{unreadAdded("T/Subscription", "arn:1"), unreadAdded("T/Subscription", "arn:2")}, res("T", "AWS::SNS::Topic", nil))
				s.Scanned = []Parent{{"T", "AWS::SNS::Topic"}}
				return s
			}(),
			want: want{
				Entries:  []Entry{{"T/Subscription#arn:1", "AWS::SNS::Subscription", "", map[string]any{"a": 1.0}}},
				Complete: []string{"T"},
				Phys:     map[string]string{"T": "p-T"},
				Parents:  []Parent{{"T", "AWS::SNS::Topic"}},
			},
		},
		{
			name: "a new child that could not be read marks no parent that was not marked",
			prev: func(*testing.T) *Baseline { return nil },
			s: func() Snapshot {
				s := snap([]drift.Finding{unreadAdded("T/Subscription", "arn:2")}, res("T", "AWS::SNS::Topic", nil))
				s.Scanned = []Parent{{"T", "AWS::SNS::Topic"}}
				return s
			}(),
			want: want{Complete: []string{"T"}, Phys: map[string]string{"T": "p-T"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Record(tt.prev(t), tt.s, Options{})
			var complete, fps []string
			for id := range got.Complete {
				complete = append(complete, id)
			}
			carried := map[string]string{}
			for k, h := range got.SourceFingerprints {
				fps = append(fps, k)
				if tt.want.CarriedFP != nil {
					carried[k] = h
				}
			}
			g := want{Entries: got.Entries, Complete: complete, Phys: got.PhysicalIDs, Observed: got.ObservedDefaults, Parents: got.EnumeratedParents}
			if tt.want.CarriedFP != nil {
				g.CarriedFP = carried
			} else {
				g.FP = fps
			}
			opts := []cmp.Option{cmpopts.SortSlices(func(a, b string) bool { return a < b }), cmpopts.EquateEmpty()}
			if diff := cmp.Diff(g, tt.want, opts...); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
			if got.Stack != stackS || got.CapturedAt != "2026-11-30T05:00:00Z" || got.TemplateHash != "h" {
				t.Errorf("identity = %v %q %q", got.Stack, got.CapturedAt, got.TemplateHash)
			}
		})
	}
}

// A record followed by a check of the same state is clean, and a later
// change is drift: the round trip the baseline exists for.
func TestRecordThenApply(t *testing.T) {
	qRes := res("Q", qType, nil)
	findings := []drift.Finding{und("Q", qType, "Policy", "x"), und("Q", qType, "Env.A", "1")}
	b := Record(nil, snap(findings, qRes), Options{})
	data, err := Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	b2, err := Decode("mem", data, stackS)
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Resources: []Resource{qRes}, Findings: findings, TemplateHash: "h"}
	if got := Apply(b2, in, Options{}); len(got.Findings) != 0 || len(got.Notes) != 0 {
		t.Errorf("after record: %+v", got)
	}
	in.Findings = []drift.Finding{und("Q", qType, "Policy", "y"), und("Q", qType, "Env.A", "1"), und("Q", qType, "New", "n")}
	got := Apply(b2, in, Options{})
	want := []drift.Finding{withNote(und("Q", qType, "Policy", "y"), NoteChanged, "x"), withNote(und("Q", qType, "New", "n"), NoteAppeared, nil)}
	if diff := cmp.Diff(got.Findings, want); diff != "" {
		t.Errorf("(-got +want):\n%s", diff)
	}
}

func TestRecordDedupesSamePath(t *testing.T) {
	qRes := res("Q", qType, nil)
	got := Record(nil, snap([]drift.Finding{und("Q", qType, "P", "a"), und("Q", qType, "P", "b")}, qRes), Options{})
	if diff := cmp.Diff(got.Entries, []Entry{{"Q", qType, "P", "a"}}); diff != "" {
		t.Errorf("(-got +want):\n%s", diff)
	}
}
