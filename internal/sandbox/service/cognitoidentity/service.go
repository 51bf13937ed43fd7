package cognitoidentity

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves Cognito Identity (JSON 1.1, PascalCase):
// DescribeIdentityPool answers the world's AWS::Cognito::IdentityPool
// model of that id with the properties the API holds (the schema's Id and
// Name copies and the Cognito Sync settings — CognitoEvents,
// CognitoStreams, PushSync — are not answered), its IdentityPoolTags list
// as the API's map in the list's order. An unknown pool is
// ResourceNotFoundException.
func Service() *wire.Service {
	return wire.JSON("cognito-identity", "1.1", "AWSCognitoIdentityService.", wire.Ops{
		"DescribeIdentityPool": wire.Read(cognitoIdentityDescribePool),
	}).Throttles(400, "TooManyRequestsException").Denies(400, "NotAuthorizedException")
}
