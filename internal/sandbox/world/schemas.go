package world

import "github.com/realdrift/realdrift/internal/schema"

// Schemas answers the schema facts of resource types per account region,
// as the regional registry does: the region's own (Region.Schemas) first,
// then the world's (World.Schemas), then Fallback. CloudFormation's
// DescribeType and Cloud Control read them.
type Schemas struct {
	State *State
	// Fallback answers a type the world carries no facts for; nil knows
	// none.
	Fallback func(typeName string) (*schema.Facts, bool)
}

// Facts returns the schema facts of typ in an account region, and whether
// any are known. It takes the state's read lock.
func (s Schemas) Facts(account, region, typ string) (*schema.Facts, bool) {
	s.State.RLock()
	var f *schema.Facts
	ok := false
	if r := s.State.Region(account, region); r != nil {
		f, ok = r.Schemas[typ]
	}
	if !ok || f == nil {
		f, ok = s.State.World.Schemas[typ]
	}
	s.State.RUnlock()
	if ok && f != nil {
		return f, true
	}
	if s.Fallback != nil {
		return s.Fallback(typ)
	}
	return nil, false
}

// Readable reports whether Cloud Control reads typ in an account region:
// not a world gap (ccGaps) and not marked unreadable by facts that list
// handlers. It takes the state's read lock.
func (s Schemas) Readable(account, region, typ string) bool {
	s.State.RLock()
	gap := Contains(s.State.World.CCGaps, typ)
	s.State.RUnlock()
	if gap {
		return false
	}
	if f, ok := s.Facts(account, region, typ); ok && len(f.Handlers) > 0 && !f.Readable() {
		return false
	}
	return true
}
