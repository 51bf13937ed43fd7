package memorydb

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves MemoryDB (JSON 1.1, PascalCase): users from the
// world's AWS::MemoryDB::User models (by UserName, else the identifier)
// with their AccessString, and the parameters of AWS::MemoryDB::
// ParameterGroup models (by ParameterGroupName, else the identifier): the
// model's Parameters map, name → value (the family's defaults are not
// modelled). Both page by MaxResults and NextToken; an unknown user or
// group is the UserNotFoundFault / ParameterGroupNotFoundFault MemoryDB
// answers.
func Service() *wire.Service {
	return wire.JSON("memorydb", "1.1", "AmazonMemoryDB.", wire.Ops{
		"DescribeUsers":      wire.Read(memoryDBDescribeUsers),
		"DescribeParameters": wire.Read(memoryDBDescribeParameters),
	})
}
