package sandbox

func lambdaService() *service {
	return &service{name: "lambda", protocol: protoQuery, ops: map[string]handler{}}
}
