package drift

import (
	"encoding/json"
	"fmt"
)

// Tier says what kind of difference a finding is and whether it is drift.
type Tier uint8

// The tiers, in report order. Deleted, Declared, Undeclared and Added are
// drift tiers; the rest are informational and never fail a check.
const (
	TierUnknown Tier = iota
	// Deleted: a template resource whose live resource is gone.
	Deleted
	// Declared: a declared value the live model contradicts.
	Declared
	// Undeclared: a live value the template never set.
	Undeclared
	// Added: a whole live child resource the template does not have.
	Added
	// AtDefault: an undeclared value equal to a known AWS default.
	AtDefault
	// Generated: an undeclared value equal to what AWS minted at deploy.
	Generated
	// ReadGap: a declared value the live read cannot show.
	ReadGap
	// Unresolved: a declared value the resolver could not know.
	Unresolved
	// Skipped: a resource that could not be read, with the reason: a
	// coverage gap (the stack is Incomplete, never Clean).
	Skipped
	// NothingToRead: a resource with no live resource realdrift can read
	// (a custom resource: its handler's work is not a resource of its
	// own). Listed, never drift and never counted as not read.
	NothingToRead
	// Ignored: a finding an ignore rule matched.
	Ignored
)

var tierNames = [...]string{
	TierUnknown:   "unknown",
	Deleted:       "deleted",
	Declared:      "declared",
	Undeclared:    "undeclared",
	Added:         "added",
	AtDefault:     "atDefault",
	Generated:     "generated",
	ReadGap:       "readGap",
	Unresolved:    "unresolved",
	Skipped:       "skipped",
	NothingToRead: "nothingToRead",
	Ignored:       "ignored",
}

// Tiers lists every valid tier in report order.
func Tiers() []Tier {
	return []Tier{Deleted, Declared, Undeclared, Added, AtDefault, Generated, ReadGap, Unresolved, Skipped, NothingToRead, Ignored}
}

// String returns the tier's wire name, as in the corpus and JSON reports.
func (t Tier) String() string {
	if int(t) < len(tierNames) {
		return tierNames[t]
	}
	return fmt.Sprintf("Tier(%d)", uint8(t))
}

// IsDrift reports whether the tier counts as drift.
func (t Tier) IsDrift() bool {
	switch t {
	case Deleted, Declared, Undeclared, Added:
		return true
	}
	return false
}

// ParseTier maps a wire name back to its Tier.
func ParseTier(s string) (Tier, error) {
	for i, n := range tierNames {
		if n == s && Tier(i) != TierUnknown {
			return Tier(i), nil
		}
	}
	return TierUnknown, fmt.Errorf("unknown tier %q", s)
}

// MarshalJSON writes the wire name.
func (t Tier) MarshalJSON() ([]byte, error) {
	if t == TierUnknown || int(t) >= len(tierNames) {
		return nil, fmt.Errorf("marshal tier: invalid tier %d", uint8(t))
	}
	return json.Marshal(t.String())
}

// UnmarshalJSON reads a wire name.
func (t *Tier) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("tier: %w", err)
	}
	v, err := ParseTier(s)
	if err != nil {
		return err
	}
	*t = v
	return nil
}
