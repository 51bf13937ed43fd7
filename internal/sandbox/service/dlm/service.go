package dlm

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves Data Lifecycle Manager (REST-JSON, PascalCase): GET
// /policies/{policyId} answers the world's AWS::DLM::LifecyclePolicy model
// of that id in the API's shape: a default policy (the template's
// DefaultPolicy VOLUME or INSTANCE) as DefaultPolicy true with its
// CreateInterval, RetainInterval, CopyTags, ExtendDeletion, Exclusions and
// CrossRegionCopyTargets inside PolicyDetails (ResourceType, language
// SIMPLIFIED); the Tags list as the API's map. An unknown policy is
// ResourceNotFoundException (404).
func Service() *wire.Service {
	return wire.RESTJSON("dlm", wire.Paths(map[string]string{"GET /policies/{policyId}": "GetLifecyclePolicy"}), wire.Ops{
		"GetLifecyclePolicy": dlmGetLifecyclePolicy,
	}).Throttles(429, "LimitExceededException")
}
