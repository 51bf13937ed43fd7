package scan

import (
	"context"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/kms"

	"github.com/realdrift/realdrift/internal/live"
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

// HoldsUndeclaredKMSKey reports whether a live model holds, outside what
// the template declares, a KMS key (a key ARN anywhere, or a bare key id
// under a property named for KMS): the key AWS picks when a template asks
// for encryption without naming one is the service's AWS-managed key, which
// only the account's managed aliases tell from a customer key.
func HoldsUndeclaredKMSKey(declared, model map[string]any) bool {
	for k, v := range model {
		if _, ok := declared[k]; !ok && holdsKMSKey(k, v) {
			return true
		}
	}
	return false
}

var (
	kmsKeyARN = regexp.MustCompile(`^arn:aws[a-z-]*:kms:[a-z0-9-]+:[0-9]{12}:key/`)
	kmsKeyID  = regexp.MustCompile(`^(mrk-)?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$|^mrk-[0-9a-f]{32}$`)
)

func holdsKMSKey(k string, v any) bool {
	switch t := v.(type) {
	case string:
		return kmsKeyARN.MatchString(t) || (strings.Contains(strings.ToLower(k), "kms") && kmsKeyID.MatchString(t))
	case map[string]any:
		for ck, e := range t {
			if holdsKMSKey(ck, e) {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if holdsKMSKey(k, e) {
				return true
			}
		}
	}
	return false
}

// needsAliases reports whether d's declared values use a managed alias, or
// (lives given) some read resource holds an undeclared KMS key.
func needsAliases(d *Desired, lives map[string]live.Result) bool {
	for _, r := range d.Resources {
		if UsesManagedAlias(r.Declared) {
			return true
		}
		if res, ok := lives[r.LogicalID]; ok && res.Status == live.Found && HoldsUndeclaredKMSKey(r.Declared, res.Model) {
			return true
		}
	}
	return false
}

// KMSAliasTargets returns the account-region's managed aliases (alias/aws/*)
// and the key ids they target, listed once per Clients, but only when some
// declared value of d uses one or, once read (lives), some resource holds
// an undeclared KMS key; otherwise, or when the listing fails, nil (the
// classifier then behaves as without the fact).
func (c *Clients) KMSAliasTargets(ctx context.Context, d *Desired, lives map[string]live.Result) map[string]string {
	if c.KMS == nil || !needsAliases(d, lives) {
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
