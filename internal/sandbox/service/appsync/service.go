package appsync

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves AppSync (REST-JSON): GET /v1/apis/{apiId}/apikeys
// lists the world's AWS::AppSync::ApiKey models of the API (ApiId), each
// by the key id that ends its identifier (…/apikeys/<id>), with its
// Description and Expires; maxResults (0-25, 0 the default 25) and
// nextToken page them (wire.Paging: a token holds for the API that issued
// it). An API that neither an AWS::AppSync::GraphQLApi model (ApiId,
// else its identifier's apis/<id>) nor a key names is NotFoundException.
func Service() *wire.Service {
	return wire.RESTJSON("appsync", wire.Paths(map[string]string{"GET /v1/apis/{api}/apikeys": "ListApiKeys"}), wire.Ops{
		"ListApiKeys": appSyncListApiKeys,
	}).Throttles(429, "LimitExceededException")
}
