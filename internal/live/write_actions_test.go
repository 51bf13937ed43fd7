package live

import (
	"reflect"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriteActions holds the write-action table equal to the methods of
// the write-side client interfaces.
func TestWriteActions(t *testing.T) {
	ifaces := map[string]reflect.Type{
		"cloudformation":       reflect.TypeOf((*ccWriteAPI)(nil)).Elem(),
		"s3":                   reflect.TypeOf((*s3WriteAPI)(nil)).Elem(),
		"sqs":                  reflect.TypeOf((*sqsWriteAPI)(nil)).Elem(),
		"sns":                  reflect.TypeOf((*snsWriteAPI)(nil)).Elem(),
		"iam":                  reflect.TypeOf((*iamWriteAPI)(nil)).Elem(),
		"lambda":               reflect.TypeOf((*lambdaWriteAPI)(nil)).Elem(),
		"ec2":                  reflect.TypeOf((*ec2WriteAPI)(nil)).Elem(),
		"route53":              reflect.TypeOf((*route53WriteAPI)(nil)).Elem(),
		"elasticloadbalancing": reflect.TypeOf((*elbv2WriteAPI)(nil)).Elem(),
	}
	var want []string
	for prefix, it := range ifaces {
		for i := range it.NumMethod() {
			want = append(want, prefix+":"+it.Method(i).Name)
		}
	}
	sort.Strings(want)
	if diff := cmp.Diff(WriteActions(), want); diff != "" {
		t.Errorf("WriteActions differ from the write-side interfaces (-table +interfaces):\n%s", diff)
	}
	// Writers has one field per write-side interface; a new one needs a
	// table entry.
	n := 0
	wt := reflect.TypeOf(Writers{})
	for i := range wt.NumField() {
		if f := wt.Field(i); f.Type.Kind() == reflect.Interface {
			n++
		}
	}
	if n != len(ifaces) {
		t.Errorf("Writers has %d client interfaces, the table covers %d", n, len(ifaces))
	}
}
