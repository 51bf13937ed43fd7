package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/schema"
)

// TestShapeRequiredLessWriteOnly: a required property Cloud Control
// cannot return is not required of a model: one listed write-only, or an
// object whose every member is write-only (through a $ref); an object
// with one readable member stays required.
func TestShapeRequiredLessWriteOnly(t *testing.T) {
	doc := `{"typeName":"AWS::Test::Thing","properties":{
		"Code":{"$ref":"#/definitions/Code"},
		"Mixed":{"type":"object","properties":{"Secret":{"type":"string"},"Name":{"type":"string"}}},
		"Password":{"type":"string"},
		"Role":{"type":"string"}},
	 "definitions":{"Code":{"type":"object","properties":{"ZipFile":{"type":"string"},"S3Key":{"type":"string"}}}},
	 "required":["Code","Mixed","Password","Role"],
	 "writeOnlyProperties":["/properties/Code/ZipFile","/properties/Code/S3Key","/properties/Mixed/Secret","/properties/Password"]}`
	name, shape, err := schema.Shape([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var got struct{ Required []string }
	if err := json.Unmarshal(shape, &got); err != nil {
		t.Fatal(err)
	}
	if name != "AWS::Test::Thing" {
		t.Errorf("type name %q", name)
	}
	if diff := cmp.Diff(got.Required, []string{"Mixed", "Role"}); diff != "" {
		t.Errorf("required (-got +want):\n%s", diff)
	}
}
