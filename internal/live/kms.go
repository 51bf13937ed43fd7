package live

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
)

// The KMS family: the out-of-band aliases of a declared AWS::KMS::Key.

type kmsAPI interface {
	kms.ListAliasesAPIClient
}

var _ kmsAPI = (*kms.Client)(nil)

// keyAliases lists the aliases that point at a declared key (physical id:
// the key id) and that the stack does not declare as AWS::KMS::Alias
// (physical id: the alias name). Aliases AWS reserves (alias/aws/...) are
// left out. Each is read in full through Cloud Control by its name.
func keyAliases(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.KMS == nil {
		return nil, skip("no KMS client")
	}
	key := parent.PhysicalID
	declared := declaredIDs(stack, "AWS::KMS::Alias")
	var out []candidate
	p := kms.NewListAliasesPaginator(c.KMS, &kms.ListAliasesInput{KeyId: &key})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if isNotFound(err) {
			return nil, nil // the key itself is reported deleted
		}
		if err != nil {
			return nil, err
		}
		for _, a := range page.Aliases {
			name := aws.ToString(a.AliasName)
			if strings.HasPrefix(name, "alias/aws/") || declared[name] {
				continue
			}
			if t := aws.ToString(a.TargetKeyId); t != "" && t != key && !strings.HasSuffix(key, "/"+t) {
				continue
			}
			out = append(out, candidate{typ: "AWS::KMS::Alias", id: name})
		}
	}
	return out, nil
}
