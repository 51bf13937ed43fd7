package sandbox

func s3Service() *service {
	return &service{name: "s3", protocol: protoQuery, ops: map[string]handler{}}
}
