package wire

import "github.com/realdrift/realdrift/internal/sandbox/world"

// Read is the preamble of a handler that reads the world from a JSON (or
// REST-JSON) body: it decodes the call's body into a new In
// (SerializationException when it does not parse; an empty body leaves In
// zero), takes the state's read lock for the whole operation and calls f.
func Read[In any](f func(st *world.State, c *Call, in In) (any, error)) Handler {
	return func(st *world.State, c *Call) (any, error) {
		var in In
		if err := c.Decode(&in); err != nil {
			return nil, err
		}
		st.RLock()
		defer st.RUnlock()
		return f(st, c, in)
	}
}

// Write is Read under the state's write lock, for a handler that changes
// the world.
func Write[In any](f func(st *world.State, c *Call, in In) (any, error)) Handler {
	return func(st *world.State, c *Call) (any, error) {
		var in In
		if err := c.Decode(&in); err != nil {
			return nil, err
		}
		st.Lock()
		defer st.Unlock()
		return f(st, c, in)
	}
}
