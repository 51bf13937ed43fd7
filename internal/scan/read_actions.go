package scan

import (
	"reflect"
	"slices"

	"github.com/realdrift/realdrift/internal/live"
)

// ReadActions lists, sorted and without duplicates, every IAM action a
// check calls: the stack calls of the desired-state loader (stackAPI, all
// CloudFormation's), KMS's alias listing, and live.ReadActions (the
// readers, supplements and enumerators, Cloud Control's GetResource and
// ListResources among them). sts:GetCallerIdentity needs no permission
// and is left out. It is the policy `realdrift iam-policy` prints, made
// from the interfaces the calls go through, so it cannot drift from them.
func ReadActions() []string {
	out := live.ReadActions()
	for _, api := range []struct {
		prefix string
		t      reflect.Type
	}{
		{"cloudformation", reflect.TypeFor[stackAPI]()},
		{"kms", reflect.TypeFor[kmsAPI]()},
	} {
		for m := range api.t.NumMethod() {
			out = append(out, api.prefix+":"+api.t.Method(m).Name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
