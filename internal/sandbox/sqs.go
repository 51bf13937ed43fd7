package sandbox

func sqsService() *service {
	return &service{name: "sqs", protocol: protoQuery, ops: map[string]handler{}}
}
