package conformance

//go:generate go run ../../../scripts/gen-awscli-ops -out ../../../scripts/sandbox-awscli-ops.txt
