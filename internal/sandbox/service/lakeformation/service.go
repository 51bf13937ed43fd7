package lakeformation

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves Lake Formation (REST-JSON): POST
// /DescribeResource answers the world's AWS::LakeFormation::Resource model
// registering the ResourceArn asked for: its RoleArn (the service-linked
// role when the model registered with UseServiceLinkedRole and names no
// role), WithFederation and HybridAccessEnabled as the model holds them.
// A location nothing registered is EntityNotFoundException.
func Service() *wire.Service {
	return wire.RESTJSON("lakeformation", wire.Paths(map[string]string{"POST /DescribeResource": "DescribeResource"}), wire.Ops{
		"DescribeResource": wire.Read(lakeFormationDescribeResource),
	}).Throttles(400, "ThrottlingException")
}
