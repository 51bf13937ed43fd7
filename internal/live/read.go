package live

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/realdrift/realdrift/internal/schema"
)

// Status is the outcome of reading one resource.
type Status uint8

// The read outcomes.
const (
	StatusUnknown Status = iota
	// Found: the live model was read.
	Found
	// NotFound: the resource is gone (the deleted tier).
	NotFound
	// Skipped: the resource could not be read; Result.Reason says why.
	Skipped
	// NothingToRead: the resource has no live resource to read (a custom
	// resource); no call is made and nothing is missing from the check.
	NothingToRead
)

var statusNames = [...]string{StatusUnknown: "unknown", Found: "found", NotFound: "notFound", Skipped: "skipped", NothingToRead: "nothingToRead"}

// String returns the status's wire name.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// MarshalJSON writes the wire name.
func (s Status) MarshalJSON() ([]byte, error) {
	if s == StatusUnknown || int(s) >= len(statusNames) {
		return nil, fmt.Errorf("marshal status: invalid status %d", uint8(s))
	}
	return json.Marshal(s.String())
}

// UnmarshalJSON reads a wire name.
func (s *Status) UnmarshalJSON(b []byte) error {
	var name string
	if err := json.Unmarshal(b, &name); err != nil {
		return fmt.Errorf("status: %w", err)
	}
	for i, n := range statusNames {
		if n == name && Status(i) != StatusUnknown {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("unknown read status %q", name)
}

// Request names one resource to read.
type Request struct {
	Type       string `json:"resourceType"`
	LogicalID  string `json:"logicalId"`
	PhysicalID string `json:"physicalId"`
	// Declared holds the resource's resolved template properties; values
	// the resolver could not know are drift.Unknown.
	Declared map[string]any `json:"-"`
	// Facts are the type's schema facts; nil when unknown.
	Facts *schema.Facts `json:"-"`
}

// Route says how a resource was read.
type Route string

// The read routes.
const (
	RouteNone         Route = "none"
	RouteOverride     Route = "override"
	RouteCloudControl Route = "cloudcontrol"
)

// Result is the outcome of reading one resource.
type Result struct {
	Status Status `json:"status"`
	Route  Route  `json:"route"`
	// Model is the live model in CloudFormation property shape (Found only).
	Model map[string]any `json:"model,omitempty"`
	// Reason explains a Skipped or NotFound result.
	Reason string `json:"reason,omitempty"`
	// Unread names the properties a failed SDK supplement left unread
	// (Found only), each with why: shown as readGaps, never drift.
	Unread map[string]string `json:"unread,omitempty"`
	// Waiting marks a Skipped result whose reader needs a declared value
	// that is not resolved yet; re-read it once live attributes are known.
	Waiting bool `json:"waiting,omitempty"`
}

// IsCustom reports whether t is a custom resource type, which has no
// readable live model.
func IsCustom(t string) bool {
	return strings.HasPrefix(t, "Custom::") || t == "AWS::CloudFormation::CustomResource"
}

// CloudControlGaps are the types Cloud Control has no handlers for on AWS
// among those realdrift reads (it answers UnsupportedActionException):
// read through an override reader, written only through an SDK writer when
// one exists. The sandbox's worlds mark them as Cloud Control gaps.
func CloudControlGaps() []string {
	return []string{
		"AWS::EC2::NetworkAclEntry",
		"AWS::IAM::Policy",
		"AWS::Lambda::Permission",
		"AWS::Logs::MetricFilter",
		"AWS::Route53::RecordSet",
		"AWS::Route53::RecordSetGroup",
		"AWS::S3::BucketPolicy",
		"AWS::SNS::TopicPolicy",
		"AWS::SQS::QueuePolicy",
	}
}

// IsCloudControlGap reports whether t is one of CloudControlGaps.
func IsCloudControlGap(t string) bool {
	for _, g := range CloudControlGaps() {
		if g == t {
			return true
		}
	}
	return false
}

// HasOverride reports whether t is read by an SDK override reader rather
// than Cloud Control.
func HasOverride(t string) bool {
	_, ok := overrides()[t]
	return ok
}

// Read reads one resource's full live model. It never returns an error: a
// failure is a Skipped result with the reason; a custom resource is
// NothingToRead, without a call.
func Read(ctx context.Context, c *Clients, r Request) Result {
	switch {
	case IsCustom(r.Type):
		return Result{Status: NothingToRead, Route: RouteNone, Reason: "custom resource: no live resource to read"}
	case r.PhysicalID == "":
		return Result{Status: Skipped, Route: RouteNone, Reason: "no physical id: the resource was never created"}
	}
	if read, ok := overrides()[r.Type]; ok {
		model, err := read(ctx, c, r)
		return result(RouteOverride, model, err)
	}
	if r.Facts != nil && len(r.Facts.Handlers) > 0 && !r.Facts.Readable() {
		return Result{Status: Skipped, Route: RouteNone, Reason: "Cloud Control cannot read " + r.Type + " (no read handler) and no SDK reader is registered"}
	}
	id, err := identifier(r, c.scope(ctx))
	if err != nil {
		return result(RouteCloudControl, nil, err)
	}
	model, err := getResource(ctx, c, r.Type, id)
	var unread map[string]string
	if err == nil {
		model, unread = supplement(ctx, c, r, model)
	}
	res := result(RouteCloudControl, model, err)
	res.Unread = unread
	return res
}

func result(route Route, model map[string]any, err error) Result {
	if err == nil {
		if model == nil {
			model = map[string]any{}
		}
		return Result{Status: Found, Route: route, Model: model}
	}
	st, reason, waiting := outcome(err)
	return Result{Status: st, Route: route, Reason: reason, Waiting: waiting}
}

// getResource reads one resource through Cloud Control.
func getResource(ctx context.Context, c *Clients, typeName, id string) (map[string]any, error) {
	if c.CloudControl == nil {
		return nil, skip("no Cloud Control client")
	}
	out, err := c.CloudControl.GetResource(ctx, &cloudcontrol.GetResourceInput{TypeName: &typeName, Identifier: &id})
	if err != nil {
		return nil, err
	}
	if out.ResourceDescription == nil || out.ResourceDescription.Properties == nil {
		return nil, skip("Cloud Control returned no properties")
	}
	var model map[string]any
	if err := json.Unmarshal([]byte(*out.ResourceDescription.Properties), &model); err != nil {
		return nil, skip("Cloud Control properties are not a JSON object: " + err.Error())
	}
	return model, nil
}
