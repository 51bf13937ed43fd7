package revert

import (
	"encoding/json"
	"fmt"
)

// Reason says why a drift finding is not revertable.
type Reason uint8

// The reasons, each one seed 002 §7 names.
const (
	ReasonNone Reason = iota
	// Unrecorded: a live value nobody decided on (no baseline entry, the
	// resource never snapshot-complete); record it or leave it.
	Unrecorded
	// Gone: the resource was deleted; a patch cannot recreate it.
	Gone
	// CreateOnly: the property can only be set by replacing the resource.
	CreateOnly
	// ReadOnlyValue: the property is read-only; no write sets it.
	ReadOnlyValue
	// NoAbsentState: a toggle with no absent state cannot be removed.
	NoAbsentState
	// ArrayElement: a nested value inside an identity-keyed array element.
	ArrayElement
	// Unresolvable: the target holds a value the resolver could not know.
	Unresolvable
	// SecretValue: the value is secret-bearing and is never written.
	SecretValue
	// NoWriter: neither Cloud Control nor an SDK writer can write the type.
	NoWriter
	// ChangedChild: an added child recorded earlier has changed.
	ChangedChild
	// NotRead: a declared value the live read cannot show (readGap).
	NotRead
	// Ungranted: a Cloud Control write of a type whose handler
	// permissions the deployment's revert role is not granted (the
	// service's REALDRIFT_REVERT_TYPES). Not one of seed 002 §7's: a
	// configuration of the service, planned as not revertable rather than
	// written to fail with AccessDenied in the member account.
	Ungranted
)

var reasonNames = [...]string{
	ReasonNone:    "none",
	Unrecorded:    "unrecorded",
	Gone:          "deleted",
	CreateOnly:    "createOnly",
	ReadOnlyValue: "readOnly",
	NoAbsentState: "noAbsentState",
	ArrayElement:  "arrayElement",
	Unresolvable:  "unresolved",
	SecretValue:   "secret",
	NoWriter:      "noWriter",
	ChangedChild:  "changedChild",
	NotRead:       "readGap",
	Ungranted:     "ungranted",
}

var reasonTexts = [...]string{
	ReasonNone:    "",
	Unrecorded:    "unrecorded — record it if the live value is right, or --remove-unrecorded to remove it",
	Gone:          "deleted — recreate it with a deploy: a patch cannot recreate a resource",
	CreateOnly:    "create-only — needs a resource replacement, which an in-place update cannot do",
	ReadOnlyValue: "read-only — no write sets it",
	NoAbsentState: "no absent state — a toggle cannot be reverted by removal",
	ArrayElement:  "inside an array element — cannot be addressed as an RFC 6902 pointer",
	Unresolvable:  "unresolved — the target value is not known",
	SecretValue:   "secret — a secret value is never written back",
	NoWriter:      "no writer — Cloud Control cannot update the type and no SDK writer exists",
	ChangedChild:  "changed child — an out-of-band child recorded earlier has changed",
	NotRead:       "read gap — the live read cannot show the value",
	Ungranted:     "ungranted — the revert role is not granted this type's Cloud Control writes (REALDRIFT_REVERT_TYPES)",
}

// String returns the reason's wire name.
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// Text is the reason as a report line says it.
func (r Reason) Text() string {
	if int(r) < len(reasonTexts) {
		return reasonTexts[r]
	}
	return r.String()
}

// MarshalJSON writes the wire name.
func (r Reason) MarshalJSON() ([]byte, error) {
	if r == ReasonNone || int(r) >= len(reasonNames) {
		return nil, fmt.Errorf("marshal reason: invalid reason %d", uint8(r))
	}
	return json.Marshal(r.String())
}

// UnmarshalJSON reads a wire name.
func (r *Reason) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("reason: %w", err)
	}
	for i, n := range reasonNames {
		if n == s && Reason(i) != ReasonNone {
			*r = Reason(i)
			return nil
		}
	}
	return fmt.Errorf("unknown revert reason %q", s)
}

// noAbsentStates lists, per type, the top-level toggles with no absent
// state: once set they can only be switched, never removed.
func noAbsentStates() map[string][]string {
	return map[string][]string{
		"AWS::S3::Bucket": {"AccelerateConfiguration", "VersioningConfiguration"},
	}
}

func noAbsentState(typ, prop string) bool { return contains(noAbsentStates()[typ], prop) }
