package sandbox

func snsService() *service {
	return &service{name: "sns", protocol: protoQuery, ops: map[string]handler{}}
}
