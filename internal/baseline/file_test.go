package baseline

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/store"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestDecodeEncodeGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/v2.json")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Decode("testdata/v2.json", data, stackS)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Warnings) != 0 || !b.Complete["Q"] || !b.Complete["Fn"] || b.PhysicalIDs["Q"] != "https://sqs/q" ||
		b.SourceFingerprints["Fn::CodeSha256"] != "0123" || len(b.ObservedDefaults) != 1 || len(b.EnumeratedParents) != 1 {
		t.Errorf("decoded = %+v", b)
	}
	out, err := Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	golden := "testdata/v2.encoded.json"
	if *update {
		if err := os.WriteFile(golden, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(out), string(want)); diff != "" {
		t.Errorf("encode (-got +want):\n%s", diff)
	}
	again, err := Decode(golden, out, stackS)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(again.Entries, b.Entries); diff != "" {
		t.Errorf("round trip (-got +want):\n%s", diff)
	}
}

func TestDecodeV1AndMissingAccount(t *testing.T) {
	v1 := `{"schemaVersion":1,"stackName":"S","region":"us-east-1","capturedAt":"x","recorded":[{"logicalId":"Q","resourceType":"AWS::SQS::Queue","path":"P","value":1}]}`
	b, err := Decode("v1.json", []byte(v1), stackS)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Complete) != 0 || b.Stack != stackS || len(b.Warnings) != 2 {
		t.Errorf("got %+v", b)
	}
	for _, w := range b.Warnings {
		if !strings.Contains(w, "v1.json") {
			t.Errorf("warning %q does not name the file", w)
		}
	}
}

func TestDecodeMalformed(t *testing.T) {
	ok := `"schemaVersion":2,"stackName":"S","region":"us-east-1","accountId":"111111111111"`
	tests := []struct{ name, data, want string }{
		{"empty", "", "f.json: empty file"},
		{"bad JSON names the line", "{\n" + ok + ",\n\"recorded\": [ }", "f.json:3: invalid JSON"},
		{"wrong type", "{\n" + ok + ",\n\"recorded\": {}}", `f.json:3: field "recorded": got JSON object, want an array`},
		{"wrong nested type", "{" + ok + `,"completeResources":[1]}`, `field "completeResources"`},
		{"not an object", "[]", "f.json:1: field \"\": got JSON array"},
		{"trailing data", "{" + ok + "} {}", "trailing data"},
		{"missing schemaVersion", `{"stackName":"S","region":"r"}`, "missing schemaVersion"},
		{"newer schemaVersion", `{"schemaVersion":3,"stackName":"S","region":"r"}`, "schemaVersion 3 is newer"},
		{"missing stackName", `{"schemaVersion":2,"region":"r"}`, "missing stackName"},
		{"missing region", `{"schemaVersion":2,"stackName":"S"}`, "missing region"},
		{"stack mismatch", `{"schemaVersion":2,"stackName":"T","region":"us-east-1"}`, `stackName "T" does not match`},
		{"account mismatch", `{"schemaVersion":2,"stackName":"S","region":"us-east-1","accountId":"222222222222"}`, `accountId "222222222222" does not match`},
		{"region mismatch", `{"schemaVersion":2,"stackName":"S","region":"eu-west-1"}`, `region "eu-west-1" does not match`},
		{"entry without logicalId", "{" + ok + `,"recorded":[{"resourceType":"T","path":"P","value":1}]}`, "recorded[0]: missing logicalId"},
		{"entry without value", "{" + ok + `,"recorded":[{"logicalId":"Q","resourceType":"T","path":"P"}]}`, "recorded[0] (Q.P): missing value"},
		{"duplicate entry", "{" + ok + `,"recorded":[{"logicalId":"Q","resourceType":"T","path":"P","value":1},{"logicalId":"Q","resourceType":"T","path":"P","value":2}]}`, "duplicate entry"},
		{"bad fingerprint key", "{" + ok + `,"recordedSourceFingerprints":{"Q.P":"h"}}`, "not <logicalId>::<path>"},
		{"observed default without path", "{" + ok + `,"observedDefaults":[{"logicalId":"B"}]}`, "observedDefaults[0]"},
		// One rule for every field of the format: no duplicate key, no
		// field the version does not define, no null where a value is
		// expected, nothing that is not UTF-8; each names its place.
		{"duplicate top-level key", "{" + ok + ",\n\"region\":\"us-east-1\"}", `f.json:2:1: region: duplicate key "region"`},
		{"duplicate key inside a value", "{" + ok + `,"recorded":[{"logicalId":"Q","resourceType":"T","path":"P","value":{"a":1,"a":2}}]}`, `f.json:1:158: recorded[0].value.a: duplicate key "a"`},
		{"unknown top-level field", "{" + ok + `,"someFutureField":{}}`, `someFutureField: unknown field "someFutureField" (not in the schemaVersion 2 format)`},
		{"misspelt field", "{" + ok + `,"recordedPhysicalIDs":{}}`, `unknown field "recordedPhysicalIDs"`},
		{"unknown entry field", "{" + ok + `,"recorded":[{"logicalId":"Q","resourceType":"T","path":"P","value":1,"note":"x"}]}`, `recorded[0].note: unknown field "note"`},
		{"completeResources in v1", `{"schemaVersion":1,"stackName":"S","region":"us-east-1","completeResources":[]}`, `completeResources: unknown field "completeResources" (not in the schemaVersion 1 format)`},
		{"null accountId", "{" + `"schemaVersion":2,"stackName":"S","region":"us-east-1","accountId":null}`, "f.json:1:69: accountId: null where a string is expected"},
		{"null recorded", "{" + ok + `,"recorded":null}`, "recorded: null where an array is expected"},
		{"null value", "{" + ok + `,"recorded":[{"logicalId":"Q","resourceType":"T","path":"P","value":null}]}`, "recorded[0].value: null where a value is expected"},
		{"null fingerprint", "{" + ok + `,"recordedSourceFingerprints":{"Q::P":null}}`, "recordedSourceFingerprints.Q::P: null where a string is expected"},
		{"null entry", "{" + ok + `,"recorded":[null]}`, "recorded[0]: null where an object is expected"},
		{"invalid UTF-8", "{" + ok + ",\n\"capturedAt\":\"20\xff\"}", "f.json:2:17: invalid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode("f.json", []byte(tt.data), stackS)
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("error %v is not ErrMalformed", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestEncodeRedactsSecrets(t *testing.T) {
	b := base(Entry{"Q", qType, "P", map[string]any{"pw": drift.Secret{Value: "hunter2"}}})
	out, err := Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "hunter2") || !strings.Contains(string(out), drift.Redacted) {
		t.Errorf("secret not redacted:\n%s", out)
	}
}

func TestFileName(t *testing.T) {
	if _, err := FileName(drift.StackRef{Name: "../x", Account: "1", Region: "r"}); err == nil {
		t.Error("FileName accepted a path")
	}
	if n, _ := FileName(stackS); n != "S.111111111111.us-east-1.json" {
		t.Errorf("FileName = %q", n)
	}
}

// A .cdkrd baseline is read, and the first record writes .realdrift with the
// .cdkrd entries merged in (nothing lost, .cdkrd untouched).
func TestLoadLegacyThenUpdate(t *testing.T) {
	root := t.TempDir()
	legacy := filepath.Join(root, ".cdkrd", "baselines", "S.111111111111.us-east-1.json")
	if err := os.MkdirAll(filepath.Dir(legacy), 0o755); err != nil {
		t.Fatal(err)
	}
	src, _ := os.ReadFile("testdata/v2.json")
	if err := os.WriteFile(legacy, src, 0o644); err != nil {
		t.Fatal(err)
	}
	st := store.StateDir(root, "")
	b, _, err := LoadStored(t.Context(), st, stackS)
	if err != nil || b == nil || len(b.Entries) != 3 {
		t.Fatalf("LoadStored = %v, %v", b, err)
	}
	_, err = UpdateStored(t.Context(), st, stackS, func(cur *Baseline) (*Baseline, error) {
		cur.Entries = append(cur.Entries, Entry{"Q", qType, "New", "n"})
		return cur, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err = LoadStored(t.Context(), st, stackS)
	if err != nil || len(b.Entries) != 4 {
		t.Fatalf("after update: %v, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(root, ".realdrift", "baselines", "S.111111111111.us-east-1.json")); err != nil {
		t.Errorf("update did not write .realdrift: %v", err)
	}
	if after, _ := os.ReadFile(legacy); string(after) != string(src) {
		t.Error(".cdkrd file was modified")
	}
}

func TestUpdateMalformedWritesNothing(t *testing.T) {
	st := store.NewFile(t.TempDir())
	p := st.BaselinePath(stackS)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(`{"schemaVersion": 2, "stackName": `), 0o644); err != nil {
		t.Fatal(err)
	}
	called := false
	_, err := UpdateStored(t.Context(), st, stackS, func(cur *Baseline) (*Baseline, error) {
		called = true
		return base(), nil
	})
	if err == nil || !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), p) {
		t.Fatalf("err = %v, want ErrMalformed naming %s", err, p)
	}
	if called {
		t.Error("merge ran on a malformed file")
	}
	ents, _ := os.ReadDir(filepath.Dir(p))
	if len(ents) != 1 {
		t.Errorf("directory holds %d files, want only the original", len(ents))
	}
	if got, _ := os.ReadFile(p); string(got) != `{"schemaVersion": 2, "stackName": ` {
		t.Error("malformed file was rewritten")
	}
}

// Decode never panics, and whatever it accepts encodes and decodes again.
func FuzzDecode(f *testing.F) {
	src, _ := os.ReadFile("testdata/v2.json")
	f.Add(src)
	f.Add([]byte(`{"schemaVersion":1,"stackName":"S","region":"us-east-1","recorded":[]}`))
	f.Add([]byte(`{"schemaVersion":2,"stackName":"S","region":"us-east-1","recorded":[{"logicalId":"A","resourceType":"T","path":"","value":null}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Decode("f.json", data, drift.StackRef{})
		if err != nil {
			return
		}
		out, err := Encode(b)
		if err != nil {
			t.Fatalf("encode accepted file: %v", err)
		}
		if _, err := Decode("f.json", out, drift.StackRef{}); err != nil {
			t.Fatalf("re-decode: %v\n%s", err, out)
		}
	})
}

func TestUpdateRefusesUnreadableResult(t *testing.T) {
	st := store.NewFile(t.TempDir())
	_, err := UpdateStored(t.Context(), st, stackS, func(*Baseline) (*Baseline, error) {
		return base(Entry{"", qType, "P", 1.0}), nil
	})
	if err == nil || !strings.Contains(err.Error(), "refusing to write") {
		t.Fatalf("err = %v", err)
	}
	if b, _, err := LoadStored(t.Context(), st, stackS); b != nil || err != nil {
		t.Errorf("LoadStored = %v, %v; want no baseline", b, err)
	}
	if got := TemplateHash([]byte("{}")); got != "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a" {
		t.Errorf("TemplateHash = %s", got)
	}
}
