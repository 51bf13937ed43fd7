package cloudcontrolapi

import (
	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/schema"
)

// Service is the service's registration: Cloud Control (JSON 1.0) over
// the world's live models, its resource requests kept in reqs (which the
// server holds, to stop them), the schema facts of the world with facts
// answering the types it carries none for (nil knows none), and refused
// asking IAM about a type's handlers (nil refuses none).
func Service(reqs *Requests, facts func(typeName string) (*schema.Facts, bool), refused Refusal) *wire.Service {
	a := &api{reqs: reqs, fallback: facts, refused: refused}
	svc := wire.JSON("cloudcontrolapi", "1.0", "CloudApiService.", wire.Ops{
		"GetResource":              a.ccGetResource,
		"ListResources":            a.ccListResources,
		"UpdateResource":           a.ccUpdateResource,
		"DeleteResource":           a.ccDeleteResource,
		"GetResourceRequestStatus": wire.Read(a.ccGetResourceRequestStatus),
		"CancelResourceRequest":    wire.Write(a.ccCancelResourceRequest),
	}).Denies(403, "AccessDeniedException")
	// Cloud Control's actions are CloudFormation's
	// (cloudformation:GetResource, not cloudcontrol:GetResource).
	svc.IAM.Prefix = "cloudformation"
	svc.ReadsThrough = readsThrough
	return svc
}
