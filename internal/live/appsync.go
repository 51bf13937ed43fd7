package live

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/appsync"
)

// AWS::AppSync::ApiKey (Cloud Control cannot read it) through ListApiKeys
// of the declared API, every page, matched on the key id that ends the
// physical id (…/apikeys/<id>). The model is {ApiId, Description,
// Expires}: the key's id is the API key itself, a secret, and is never
// put in the model. AppSync keeps Expires rounded down to the hour.

type appSyncAPI interface {
	appsync.ListApiKeysAPIClient
}

var _ appSyncAPI = (*appsync.Client)(nil)

// readAppSyncApiKey reads AWS::AppSync::ApiKey.
func readAppSyncApiKey(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	api, err := declaredString(r.Declared, "ApiId")
	if err != nil {
		return nil, err
	}
	i := strings.LastIndex(r.PhysicalID, "/apikeys/")
	if i < 0 {
		return nil, skip("the physical id is not an API key ARN (…/apikeys/<id>)")
	}
	id := r.PhysicalID[i+len("/apikeys/"):]
	if c.AppSync == nil {
		return nil, skip("no AppSync client")
	}
	p := appsync.NewListApiKeysPaginator(c.AppSync, &appsync.ListApiKeysInput{ApiId: &api})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, k := range page.ApiKeys {
			if deref(k.Id) != id {
				continue
			}
			m := map[string]any{"ApiId": api, "Expires": float64(k.Expires)}
			if d := deref(k.Description); d != "" {
				m["Description"] = d
			}
			return m, nil
		}
	}
	return nil, fmt.Errorf("an API key of API %s: %w", api, ErrNotFound)
}
