package route53

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves Route 53 (REST-XML, errors wrapped in
// <ErrorResponse>): a zone's record sets and zones by name, and record
// changes (route53_write.go).
//
// A hosted zone is an AWS::Route53::HostedZone model (Id, else its
// identifier; Name), or a zone id that a record names. Records are the
// AWS::Route53::RecordSet models and the RecordSets of the
// AWS::Route53::RecordSetGroup models, in their zone (HostedZoneId, else
// the zone named HostedZoneName). They are answered as Route 53 does:
// names in lower case with the final dot and characters outside
// [a-z0-9-_.] as \ddd octal escapes, ordered by name read from its last
// label, then type, then set identifier. The SOA and NS records AWS creates
// with a zone are not synthesised. A throttled ChangeResourceRecordSets
// answers PriorRequestNotComplete, as its model says; the other
// operations Throttling.
func Service() *wire.Service {
	svc := wire.RESTXML("route53", route53NS, wire.Paths(map[string]string{
		"GET /2013-04-01/hostedzonesbyname":        "ListHostedZonesByName",
		"GET /2013-04-01/hostedzone/{zone}/rrset":  "ListResourceRecordSets",
		"POST /2013-04-01/hostedzone/{zone}/rrset": "ChangeResourceRecordSets",
		"GET /2013-04-01/change/{id}":              "GetChange",
	}), wire.Ops{
		"ListResourceRecordSets": route53ListResourceRecordSets,
		"ListHostedZonesByName":  route53ListHostedZonesByName,
		// The write side (route53_write.go).
		"ChangeResourceRecordSets": route53ChangeResourceRecordSets,
		"GetChange":                route53GetChange,
	})
	svc.WrapErrors = true
	svc.Refuses(400, "InvalidInput")
	// A zone's changes are throttled as Route 53 refuses a change while
	// the zone's last one is still being processed.
	svc.OpThrottle = map[string]wire.Error{"ChangeResourceRecordSets": {Status: 400, Code: "PriorRequestNotComplete",
		Message: "The request was rejected because Route 53 was still processing a prior request."}}
	// An out-of-band change of a record is checked as the record set of
	// a change batch would be (TTL a long from 0 to 2147483647, Type one
	// of RRType, ...).
	rrset := wire.ModelInput{Op: "ChangeResourceRecordSets", Shape: "ResourceRecordSet"}
	group := rrset
	group.At = "RecordSets"
	svc.Models = map[string][]wire.ModelInput{
		"AWS::Route53::RecordSet":      {rrset},
		"AWS::Route53::RecordSetGroup": {group},
	}
	return svc
}
