package sandbox

import (
	"sync"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// Eventual consistency (Options.StaleReads): after a write AWS documents
// as eventually consistent (wire.Service.Eventual) succeeds, the next
// StaleReads read calls of that service by the writing account are served
// from the world as it was before the write, then the reads see it. A
// further such write while the account's reads are stale keeps the older
// world and starts the count again, so neither write shows until the
// reads have caught up. Reads are the operations CloudTrail marks
// readOnly (ReadOnly). Only the service written goes stale, and the
// reads made through it (wire.Service.ReadsThrough: Cloud Control's
// GetResource and ListResources of the service's types); other services
// see the write at once.

// staleKey is one account's view of one service.
type staleKey struct{ account, service string }

// staleView is the world a stale view's reads are served from, and how
// many reads are left before they see the present.
type staleView struct {
	st   *world.State
	left int
}

type staleness struct {
	mu    sync.Mutex
	views map[staleKey]*staleView
}

// stateFor returns the state c's handler is served from, and, for an
// eventually consistent write, what to call with whether the write
// succeeded.
func (s *Server) stateFor(c *wire.Call) (*world.State, func(ok bool)) {
	n := s.opts.StaleReads
	if n <= 0 {
		return s.st, nil
	}
	k := staleKey{c.Account, c.Service.Name}
	if ReadOnly(c.Service.Name, c.Action) {
		if c.Service.ReadsThrough != nil {
			if through := c.Service.ReadsThrough(c); through != "" {
				k.service = through
			}
		}
		s.stale.mu.Lock()
		defer s.stale.mu.Unlock()
		v := s.stale.views[k]
		if v == nil {
			return s.st, nil
		}
		if v.left--; v.left <= 0 {
			delete(s.stale.views, k)
		}
		return v.st, nil
	}
	if !c.Service.Eventual[c.Action] {
		return s.st, nil
	}
	s.stale.mu.Lock()
	_, stale := s.stale.views[k]
	s.stale.mu.Unlock()
	var before *world.State
	if !stale {
		before = s.copyState()
	}
	return s.st, func(ok bool) {
		if !ok {
			return
		}
		s.stale.mu.Lock()
		defer s.stale.mu.Unlock()
		if v := s.stale.views[k]; v != nil {
			v.left = n
		} else if before != nil {
			s.stale.views[k] = &staleView{st: before, left: n}
		}
	}
}

// copyState is a copy of the world as it is now (nil if it cannot be
// copied: the reads then see the write at once).
func (s *Server) copyState() *world.State {
	b, err := s.Snapshot()
	if err != nil {
		return nil
	}
	w, err := world.ParseWorld(b)
	if err != nil {
		return nil
	}
	return world.NewState(w)
}
