package drift

import (
	"encoding/json"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWithhold(t *testing.T) {
	secret := Unknown{Reason: "secret-bearing dynamic reference is resolved only at deploy time", Secret: true}
	plain := Unknown{Reason: "Fn::GetAZs is environment-dependent"}
	tests := []struct {
		name      string
		declared  map[string]any
		live      map[string]any
		want      map[string]any
		wantFound []string
	}{{
		name:      "a secret scalar is withheld at its place",
		declared:  map[string]any{"MasterUserPassword": secret, "Engine": "postgres"},
		live:      map[string]any{"MasterUserPassword": "hunter2-plaintext", "Engine": "postgres"},
		want:      map[string]any{"MasterUserPassword": Redacted, "Engine": "postgres"},
		wantFound: []string{"hunter2-plaintext"},
	}, {
		name: "a map keeps its other keys",
		declared: map[string]any{"Environment": map[string]any{"Variables": map[string]any{
			"TOKEN": secret, "LEVEL": "info"}}},
		live: map[string]any{"Environment": map[string]any{"Variables": map[string]any{
			"TOKEN": "tok-1234567890", "LEVEL": "debug", "EXTRA": "x"}}},
		want: map[string]any{"Environment": map[string]any{"Variables": map[string]any{
			"TOKEN": Redacted, "LEVEL": "debug", "EXTRA": "x"}}},
		wantFound: []string{"tok-1234567890"},
	}, {
		name:      "a key live spells in another case",
		declared:  map[string]any{"Props": map[string]any{"Password": secret}},
		live:      map[string]any{"Props": map[string]any{"password": "pw-abcdef"}},
		want:      map[string]any{"Props": map[string]any{"password": Redacted}},
		wantFound: []string{"pw-abcdef"},
	}, {
		name: "list elements match by their known keys, not position",
		declared: map[string]any{"Env": []any{
			map[string]any{"Name": "A", "Value": "1"},
			map[string]any{"Name": "PW", "Value": secret},
		}},
		live: map[string]any{"Env": []any{
			map[string]any{"Name": "PW", "Value": "pw-live-value"},
			map[string]any{"Name": "A", "Value": "1"},
		}},
		want: map[string]any{"Env": []any{
			map[string]any{"Name": "PW", "Value": Redacted},
			map[string]any{"Name": "A", "Value": "1"},
		}},
		wantFound: []string{"pw-live-value"},
	}, {
		name:      "an object holding a secret against a JSON string withholds the string",
		declared:  map[string]any{"Doc": map[string]any{"k": secret}},
		live:      map[string]any{"Doc": `{"k":"s3cr3t-value"}`},
		want:      map[string]any{"Doc": Redacted},
		wantFound: []string{`{"k":"s3cr3t-value"}`},
	}, {
		name:      "a supplied NoEcho value is learned from the declared side",
		declared:  map[string]any{"Pw": Secret{Value: "supplied-pw"}},
		live:      map[string]any{"Pw": "supplied-pw"},
		want:      map[string]any{"Pw": Redacted},
		wantFound: []string{"supplied-pw", "supplied-pw"},
	}, {
		name:     "a non-secret Unknown and an absent value are left alone",
		declared: map[string]any{"AZ": plain, "Pw": secret},
		live:     map[string]any{"AZ": "us-east-1a"},
		want:     map[string]any{"AZ": "us-east-1a"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := json.Marshal(tc.live)
			got, found := Withhold(tc.declared, tc.live)
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("Withhold (-got +want):\n%s", diff)
			}
			sort.Strings(found)
			if diff := cmp.Diff(found, tc.wantFound); diff != "" {
				t.Errorf("found (-got +want):\n%s", diff)
			}
			if after, _ := json.Marshal(tc.live); string(after) != string(before) {
				t.Errorf("live modified: %s, was %s", after, before)
			}
		})
	}
}

func TestScrub(t *testing.T) {
	secrets := []string{"pw-live-value", "abcd"}
	tests := []struct {
		name  string
		in    any
		want  any
		wantN int
	}{
		{"equal string", "pw-live-value", Redacted, 1},
		{"contained long secret", "postgres://u:pw-live-value@db", Redacted, 1},
		{"short secret only when equal", "xabcdx", "xabcdx", 0},
		{"short secret equal", "abcd", Redacted, 1},
		{"nested", map[string]any{"a": []any{"keep", "pw-live-value"}, "b": 1.0},
			map[string]any{"a": []any{"keep", Redacted}, "b": 1.0}, 1},
		{"map key", map[string]any{"pw-live-value": true}, map[string]any{Redacted + " 1": true}, 1},
		{"nothing to do", map[string]any{"a": "b"}, map[string]any{"a": "b"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, n := Scrub(tc.in, secrets)
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("Scrub (-got +want):\n%s", diff)
			}
			if n != tc.wantN {
				t.Errorf("Scrub replaced %d, want %d", n, tc.wantN)
			}
		})
	}
	in := map[string]any{"a": []any{"pw-live-value"}}
	Scrub(in, secrets)
	if in["a"].([]any)[0] != "pw-live-value" {
		t.Error("Scrub modified its input")
	}
	if got := ScrubString("read failed for pw-live-value: denied", secrets); got != "read failed for "+Redacted+": denied" {
		t.Errorf("ScrubString = %q", got)
	}
}

func TestWithheldAsUnknown(t *testing.T) {
	got := WithheldAsUnknown(map[string]any{"a": Redacted, "b": []any{"x", Redacted}})
	want := map[string]any{"a": Unknown{Reason: "withheld from storage", Secret: true},
		"b": []any{"x", Unknown{Reason: "withheld from storage", Secret: true}}}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("WithheldAsUnknown (-got +want):\n%s", diff)
	}
}
