package mediaconvert

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves MediaConvert (REST-JSON, camelCase): GET
// /2017-08-29/queues/{name} answers the world's AWS::MediaConvert::Queue
// model of that name (Name, else the identifier) with what it holds
// (description, pricingPlan, status, concurrentJobs) plus its ARN and
// type; GET /2017-08-29/tags/{arn} answers its Tags map. An unknown queue
// is NotFoundException.
func Service() *wire.Service {
	return wire.RESTJSON("mediaconvert", wire.Paths(map[string]string{
		"GET /2017-08-29/queues/{name}":       "GetQueue",
		"GET /2017-08-29/tags/{arn}":          "ListTagsForResource",
		"GET /2017-08-29/jobTemplates/{name}": "GetJobTemplate",
	}), wire.Ops{
		"GetQueue":            mediaConvertGetQueue,
		"ListTagsForResource": mediaConvertListTags,
		"GetJobTemplate":      mediaConvertGetJobTemplate,
	}).Denies(403, "ForbiddenException")
}
