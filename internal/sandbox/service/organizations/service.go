package organizations

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service is the service's registration: its wire facts and operations.
func Service() *wire.Service {
	svc := wire.JSON("organizations", "1.1", "AWSOrganizationsV20161128.", wire.Ops{
		"DescribeOrganization": orgDescribeOrganization,
		"ListAccounts":         wire.Read(orgListAccounts),
	}).Throttles(400, "TooManyRequestsException")
	svc.JSONNamespace = "com.amazonaws.organizations.v20161128#"
	return svc
}
