package live

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	cognito "github.com/aws/aws-sdk-go-v2/service/cognitoidentityprovider"
)

// The Cognito user pools family: the out-of-band app clients and groups of
// a declared AWS::Cognito::UserPool.

type cognitoAPI interface {
	cognito.ListUserPoolClientsAPIClient
	cognito.ListGroupsAPIClient
}

var _ cognitoAPI = (*cognito.Client)(nil)

// poolClients lists the app clients of a declared user pool (physical id:
// its id) the stack does not declare (an AWS::Cognito::UserPoolClient's
// physical id is the client id); Cloud Control reads each by
// "<pool id>|<client id>".
func poolClients(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.Cognito == nil {
		return nil, skip("no Cognito user pools client")
	}
	pool := parent.PhysicalID
	p := cognito.NewListUserPoolClientsPaginator(c.Cognito, &cognito.ListUserPoolClientsInput{UserPoolId: &pool, MaxResults: aws.Int32(60)})
	return pagedChildren(ctx, "AWS::Cognito::UserPoolClient", pool, stack, p.HasMorePages,
		func(ctx context.Context) (*cognito.ListUserPoolClientsOutput, error) { return p.NextPage(ctx) },
		func(page *cognito.ListUserPoolClientsOutput) []string {
			ids := make([]string, len(page.UserPoolClients))
			for i, cl := range page.UserPoolClients {
				ids[i] = aws.ToString(cl.ClientId)
			}
			return ids
		})
}

// poolGroups lists the groups of a declared user pool the stack does not
// declare (physical id: the group name); Cloud Control reads each by
// "<pool id>|<group name>".
func poolGroups(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.Cognito == nil {
		return nil, skip("no Cognito user pools client")
	}
	pool := parent.PhysicalID
	p := cognito.NewListGroupsPaginator(c.Cognito, &cognito.ListGroupsInput{UserPoolId: &pool})
	return pagedChildren(ctx, "AWS::Cognito::UserPoolGroup", pool, stack, p.HasMorePages,
		func(ctx context.Context) (*cognito.ListGroupsOutput, error) { return p.NextPage(ctx) },
		func(page *cognito.ListGroupsOutput) []string {
			ids := make([]string, len(page.Groups))
			for i, g := range page.Groups {
				ids[i] = aws.ToString(g.GroupName)
			}
			return ids
		})
}
