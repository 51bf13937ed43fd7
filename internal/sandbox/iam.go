package sandbox

func iamService() *service {
	return &service{name: "iam", protocol: protoQuery, ops: map[string]handler{}}
}
