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
	declared := declaredIDs(stack, "AWS::Cognito::UserPoolClient")
	var out []candidate
	p := cognito.NewListUserPoolClientsPaginator(c.Cognito, &cognito.ListUserPoolClientsInput{UserPoolId: &pool, MaxResults: aws.Int32(60)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if isNotFound(err) {
			return nil, nil // the pool itself is reported deleted
		}
		if err != nil {
			return nil, err
		}
		for _, cl := range page.UserPoolClients {
			id := aws.ToString(cl.ClientId)
			if !declared[id] {
				out = append(out, candidate{typ: "AWS::Cognito::UserPoolClient", id: pool + "|" + id, physical: id})
			}
		}
	}
	return out, nil
}

// poolGroups lists the groups of a declared user pool the stack does not
// declare (physical id: the group name); Cloud Control reads each by
// "<pool id>|<group name>".
func poolGroups(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.Cognito == nil {
		return nil, skip("no Cognito user pools client")
	}
	pool := parent.PhysicalID
	declared := declaredIDs(stack, "AWS::Cognito::UserPoolGroup")
	var out []candidate
	p := cognito.NewListGroupsPaginator(c.Cognito, &cognito.ListGroupsInput{UserPoolId: &pool})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if isNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		for _, g := range page.Groups {
			name := aws.ToString(g.GroupName)
			if !declared[name] {
				out = append(out, candidate{typ: "AWS::Cognito::UserPoolGroup", id: pool + "|" + name, physical: name})
			}
		}
	}
	return out, nil
}
