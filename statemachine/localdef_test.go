package statemachine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/statemachine"
)

// TestLocalDefinition: a Map reading from S3 reads its inline items
// locally, its ResultWriter goes, nothing else changes; a Map reading from
// S3 with no inline path is refused, and a definition without either comes
// back byte for byte.
func TestLocalDefinition(t *testing.T) {
	def := `{"StartAt":"Outer","States":{"Outer":{"Type":"Map","ItemsPath":"$.a","ItemProcessor":{"ProcessorConfig":{"Mode":"INLINE"},"StartAt":"Stacks","States":{
	  "Stacks":{"Type":"Map","ItemReader":{"Resource":"arn:aws:states:::s3:getObject","Parameters":{"Bucket.$":"$.b","Key.$":"$.k"}},
	    "ResultWriter":{"Resource":"arn:aws:states:::s3:putObject","Parameters":{"Bucket":"b","Prefix":"p"}},"MaxConcurrency":4,"ResultPath":null,
	    "ItemProcessor":{"ProcessorConfig":{"Mode":"DISTRIBUTED","ExecutionType":"EXPRESS"},"StartAt":"P","States":{"P":{"Type":"Pass","End":true}}},"End":true}}},"End":true}}}`
	got, err := statemachine.LocalDefinition([]byte(def))
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := json.Unmarshal(got, &d); err != nil {
		t.Fatal(err)
	}
	outer := d["States"].(map[string]any)["Outer"].(map[string]any)
	stacks := outer["ItemProcessor"].(map[string]any)["States"].(map[string]any)["Stacks"].(map[string]any)
	want, _ := statemachine.LocalItemsPath("Stacks")
	if stacks["ItemsPath"] != want || stacks["ItemReader"] != nil || stacks["ResultWriter"] != nil {
		t.Errorf("Stacks = %v: want ItemsPath %s, no ItemReader, no ResultWriter", stacks, want)
	}
	if stacks["MaxConcurrency"] != 4.0 || outer["ItemsPath"] != "$.a" {
		t.Errorf("other fields changed: %v", d)
	}

	bad := strings.Replace(def, `"Stacks"`, `"Other"`, 2)
	if _, err := statemachine.LocalDefinition([]byte(bad)); err == nil || !strings.Contains(err.Error(), "Other") {
		t.Errorf("a Map reading from S3 without an inline path: err = %v, want one naming it", err)
	}
	plain := `{"StartAt":"P","States":{"P":{"Type":"Pass","End":true}}}`
	if got, err := statemachine.LocalDefinition([]byte(plain)); err != nil || string(got) != plain {
		t.Errorf("plain definition: %s, %v; want it unchanged", got, err)
	}
}
