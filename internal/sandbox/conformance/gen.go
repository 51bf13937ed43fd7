package conformance

//go:generate go run ../../../scripts/gen-awscli-ops -out ../../../scripts/sandbox-awscli-ops.txt
//go:generate go run ../../../scripts/gen-required -out testdata/required-output.json -inputs ../awsmodel/inputs.json.gz
