package scan

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/kms"
)

// kmsAPI lists KMS aliases.
type kmsAPI interface {
	ListAliases(ctx context.Context, in *kms.ListAliasesInput, optFns ...func(*kms.Options)) (*kms.ListAliasesOutput, error)
}

var _ kmsAPI = (*kms.Client)(nil)

// UsesManagedAlias reports whether a declared value names an AWS managed
// KMS alias (alias/aws/...), bare or inside an alias ARN: only then does a
// check list the account's aliases (KMSAliasTargets). A world generator
// that mirrors a check asks the same question.
func UsesManagedAlias(v any) bool {
	switch t := v.(type) {
	case string:
		return strings.HasPrefix(t, "alias/aws/") || strings.Contains(t, ":alias/aws/")
	case map[string]any:
		for _, e := range t {
			if UsesManagedAlias(e) {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if UsesManagedAlias(e) {
				return true
			}
		}
	}
	return false
}

// KMSAliasTargets returns the account-region's managed aliases (alias/aws/*)
// and the key ids they target, listed once per Clients, but only when some
// declared value of d uses one; otherwise, or when the listing fails, nil
// (the classifier then behaves as without the fact).
func (c *Clients) KMSAliasTargets(ctx context.Context, d *Desired) map[string]string {
	if c.KMS == nil {
		return nil
	}
	used := false
	for _, r := range d.Resources {
		if UsesManagedAlias(r.Declared) {
			used = true
			break
		}
	}
	if !used {
		return nil
	}
	c.aliases.mu.Lock()
	defer c.aliases.mu.Unlock()
	if c.aliases.loaded {
		return c.aliases.values
	}
	targets := map[string]string{}
	p := kms.NewListAliasesPaginator(c.KMS, &kms.ListAliasesInput{})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil // not cached: a later stack may try again
		}
		for _, a := range page.Aliases {
			name := deref(a.AliasName)
			if strings.HasPrefix(name, "alias/aws/") && deref(a.TargetKeyId) != "" {
				targets[name] = *a.TargetKeyId
			}
		}
	}
	c.aliases.loaded, c.aliases.values = true, targets
	return targets
}
