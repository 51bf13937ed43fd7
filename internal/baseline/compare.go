package baseline

import (
	"github.com/realdrift/realdrift/internal/normalize"
)

// Options are the pluggable facts Apply and Record use.
type Options struct {
	// Canon canonicalises a value before two values are compared. Nil
	// means normalize.ForCompare, the classifier's order canonicalisation
	// (tag and id arrays sorted).
	Canon func(v any) any
	// Default returns the AWS default pinned for an observed-default path;
	// it becomes Desired of an "observed default deleted" finding. Nil means
	// no pin is known (Desired stays absent).
	Default func(resourceType, path string) (any, bool)
}

// Equal reports whether a recorded value and a live value are the same
// after canonicalisation, by normalize.Equal: numbers compare by value
// whatever their Go type, a Secret equals only a Secret holding an equal
// value, and an Unknown equals nothing.
func (o Options) Equal(recorded, live any) bool {
	canon := o.Canon
	if canon == nil {
		canon = normalize.ForCompare
	}
	return normalize.Equal(canon(recorded), canon(live))
}
