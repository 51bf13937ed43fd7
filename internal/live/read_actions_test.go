package live

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestReadActions holds readPrefixes to the Clients fields: every client
// interface has an IAM prefix (a new reader's client cannot go unlisted),
// and every entry names a field.
func TestReadActions(t *testing.T) {
	ct := reflect.TypeFor[Clients]()
	fields := map[string]bool{}
	for i := range ct.NumField() {
		f := ct.Field(i)
		// Identity needs no permission; HTTP fetches presigned URLs,
		// authorized by their signature.
		if f.Type.Kind() != reflect.Interface || f.Name == "Identity" || f.Name == "HTTP" {
			continue
		}
		fields[f.Name] = true
		if _, ok := readPrefixes[f.Name]; !ok {
			t.Errorf("Clients.%s has no IAM prefix in readPrefixes", f.Name)
		}
	}
	for name := range readPrefixes {
		if !fields[name] {
			t.Errorf("readPrefixes names %s, which is no Clients interface field", name)
		}
	}
	acts := ReadActions()
	if !slices.IsSorted(acts) || len(slices.Compact(slices.Clone(acts))) != len(acts) {
		t.Errorf("ReadActions is not sorted and unique: %v", acts)
	}
	for _, want := range []string{"cloudformation:GetResource", "cloudformation:ListResources", "budgets:ViewBudget", "cognito-idp:ListUserPoolClients", "rds:DescribeDBClusters"} {
		if !slices.Contains(acts, want) {
			t.Errorf("ReadActions lacks %s: %v", want, acts)
		}
	}
	for a := range deniedDataReads {
		if slices.Contains(acts, a) {
			t.Errorf("ReadActions holds %s, a data read the read role denies", a)
		}
	}
	for _, a := range acts {
		if strings.HasPrefix(a, "budgets:Describe") || strings.HasPrefix(a, "cloudcontrol") || strings.HasPrefix(a, "sts:") {
			t.Errorf("ReadActions holds %s, not an IAM action", a)
		}
	}
}
