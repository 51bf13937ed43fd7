package scan

import (
	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/schema"
)

// Classifier returns the production classifier: classify.Resource with the
// stack facts as its options.
func Classifier() ClassifyFunc {
	return func(s Subject, liveModel map[string]any, facts *schema.Facts, stack StackFacts) []drift.Finding {
		subj := classify.Subject{Ref: s.Ref, Declared: s.Declared, SiblingPolicyNames: s.SiblingPolicyNames}
		opts := classify.Options{
			AccountID:             stack.AccountID,
			Region:                stack.Region,
			StackName:             stack.StackName,
			StackTags:             stack.StackTags,
			KMSAliasTargets:       stack.KMSAliasTargets,
			DefaultSecurityGroups: stack.DefaultSecurityGroups,
			Sibling:               stack.Sibling,
		}
		return classify.Resource(subj, liveModel, facts, opts)
	}
}
