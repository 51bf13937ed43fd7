package cognitoidp

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves Cognito user pools (JSON 1.1): a pool's app
// clients and groups, from the world's AWS::Cognito::UserPoolClient and
// AWS::Cognito::UserPoolGroup models (UserPoolId). A pool exists when an
// AWS::Cognito::UserPool model names it or a client or group is in it.
func Service() *wire.Service {
	svc := wire.JSON("cognito-idp", "1.1", "AWSCognitoIdentityProviderService.", wire.Ops{
		"ListUserPoolClients": wire.Read(cognitoListUserPoolClients),
		"ListGroups":          wire.Read(cognitoListGroups),
	}).Throttles(400, "TooManyRequestsException").Denies(400, "NotAuthorizedException")
	svc.JSONNamespace = "com.amazonaws.cognitoidentityprovider#"
	return svc
}
