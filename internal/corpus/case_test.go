package corpus

import (
	"testing"

	"github.com/realdrift/realdrift/internal/corpus/corpustest"
	"github.com/realdrift/realdrift/internal/drift"
)

func TestLoadDevCorpus(t *testing.T) {
	cases, err := LoadDirs(corpustest.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 500 {
		t.Fatalf("loaded %d cases, want the dev half (512)", len(cases))
	}
	unknown := 0
	for _, c := range cases {
		if drift.ContainsUnknown(c.Resource.Declared) {
			unknown++
		}
		if len(c.RawLive) == 0 {
			t.Errorf("%s: no raw liveRaw kept", c.File)
		}
	}
	if unknown == 0 {
		t.Error("no case had the unresolved marker turned into drift.Unknown")
	}
}

func TestParseExtraKeysAndErrors(t *testing.T) {
	c, err := Parse("x.json", []byte(`{"corpusVersion":1,"resource":{"logicalId":"A","resourceType":"AWS::SQS::Queue","physicalId":"p","declared":{"X":["__cdkrd_corpus_unresolved__"]}},"liveRaw":{},"schema":{"readOnly":[],"writeOnly":[],"createOnly":[],"readOnlyPaths":[],"writeOnlyPaths":[],"createOnlyPaths":[],"defaults":{}},"opts":{},"expected":[],"newKey":5}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(c.Extra["newKey"]) != "5" {
		t.Errorf("extra key not kept: %v", c.Extra)
	}
	if !drift.IsUnknown(c.Resource.Declared["X"].([]any)[0]) {
		t.Error("marker not turned into Unknown")
	}
	for _, bad := range []string{`{`, `{"resource":{}}`, `{"resource":{"resourceType":"T"},"expected":[{"tier":"bogus"}]}`} {
		if _, err := Parse("bad.json", []byte(bad)); err == nil {
			t.Errorf("Parse(%s) accepted bad input", bad)
		}
	}
}
