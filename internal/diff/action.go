package diff

import "encoding/json"

// Action is what the next deploy does to one resource.
type Action uint8

// The actions, in display order.
const (
	NoChange Action = iota
	Create
	Update
	Replace
	Delete
)

var actionNames = [...]string{NoChange: "NO_CHANGE", Create: "CREATE", Update: "UPDATE", Replace: "REPLACE", Delete: "DELETE"}

func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return "UNKNOWN"
}

// MarshalJSON writes the action's name.
func (a Action) MarshalJSON() ([]byte, error) { return json.Marshal(a.String()) }

// Replacement says whether a property change replaces its resource.
type Replacement uint8

// The replacement verdicts.
const (
	// Never: the property is updated in place.
	Never Replacement = iota
	// Conditional: the schema marks the property conditionally create-only
	// (or it holds a create-only sub-property): it may replace.
	Conditional
	// Always: a create-only property changed.
	Always
)

var replacementNames = [...]string{Never: "never", Conditional: "conditional", Always: "always"}

func (r Replacement) String() string {
	if int(r) < len(replacementNames) {
		return replacementNames[r]
	}
	return "unknown"
}

// MarshalJSON writes the verdict's name.
func (r Replacement) MarshalJSON() ([]byte, error) { return json.Marshal(r.String()) }

// Propagation says why an unchanged property is part of the diff.
type Propagation uint8

// The propagation kinds.
const (
	// Direct: the property's own value changed.
	Direct Propagation = iota
	// ReplacementPropagated: it references a resource being replaced, whose
	// physical id or attribute will move.
	ReplacementPropagated
	// AttributePropagated: it reads an attribute an in-place update can
	// move.
	AttributePropagated
	// ParentReplaced: AWS stores the resource inside a parent being
	// replaced, so it goes with the old parent and is created again.
	ParentReplaced
)

var propagationNames = [...]string{Direct: "", ReplacementPropagated: "replacement propagated", AttributePropagated: "attribute propagated", ParentReplaced: "recreated with its replaced parent"}

func (p Propagation) String() string {
	if int(p) < len(propagationNames) {
		return propagationNames[p]
	}
	return "unknown"
}

// MarshalJSON writes the kind's name ("" for a direct change).
func (p Propagation) MarshalJSON() ([]byte, error) { return json.Marshal(p.String()) }

// OutputAction is what the next deploy does to one output key.
type OutputAction uint8

// The output actions.
const (
	OutputAdd OutputAction = iota + 1
	OutputModify
	OutputRemove
)

var outputActionNames = [...]string{OutputAdd: "ADD", OutputModify: "MODIFY", OutputRemove: "REMOVE"}

func (a OutputAction) String() string {
	if int(a) < len(outputActionNames) && a != 0 {
		return outputActionNames[a]
	}
	return "UNKNOWN"
}

// MarshalJSON writes the action's name.
func (a OutputAction) MarshalJSON() ([]byte, error) { return json.Marshal(a.String()) }
