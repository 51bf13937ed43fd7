package cloudtrail

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service is the service's registration: its wire facts and operations.
func Service() *wire.Service {
	return &wire.Service{
		Name:            "cloudtrail",
		Protocol:        wire.ProtoJSON,
		JSONNamespace:   "com.amazonaws.cloudtrail.v20131101#",
		JSONVersion:     "1.1",
		TargetPrefix:    "CloudTrail_20131101.",
		AltTargetPrefix: "com.amazonaws.cloudtrail.v20131101.CloudTrail_20131101.",
		Throttle:        wire.Error{Status: 400, Code: "ThrottlingException"},
		Deny:            wire.Error{Status: 400, Code: "AccessDeniedException"},
		Ops: map[string]wire.Handler{
			"LookupEvents": lookupEvents,
		},
		Quotas: map[string]float64{"LookupEvents": 2},
	}
}
