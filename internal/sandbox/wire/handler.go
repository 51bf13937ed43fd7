package wire

import (
	"strconv"
	"time"

	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// Read is the preamble of a handler that reads the world from a JSON (or
// REST-JSON) body: it decodes the call's body into a new In
// (SerializationException when it does not parse; an empty body leaves In
// zero), takes the state's read lock for the whole operation and calls f.
func Read[In any](f func(st *world.State, c *Call, in In) (any, error)) Handler {
	return decoded(f, (*world.State).RLock, (*world.State).RUnlock)
}

// Write is Read under the state's write lock, for a handler that changes
// the world.
func Write[In any](f func(st *world.State, c *Call, in In) (any, error)) Handler {
	return decoded(f, (*world.State).Lock, (*world.State).Unlock)
}

// decoded decodes the call's body into a new In and calls f between lock
// and unlock of the state.
func decoded[In any](f func(st *world.State, c *Call, in In) (any, error), lock, unlock func(*world.State)) Handler {
	return func(st *world.State, c *Call) (any, error) {
		var in In
		if err := c.Decode(&in); err != nil {
			return nil, err
		}
		lock(st)
		defer unlock(st)
		return f(st, c, in)
	}
}

// Paging is how a list operation pages: the prefix of its tokens, the
// page size when the request names none, the smallest and largest it
// accepts (0: no bound), and AWS's errors for a size out of range (given
// the size as the request gave it) and for a token the service did not
// issue. An operation that refuses no size has no BadSize: then a size
// below 1 is the default and Min and Max are not checked.
//
// A token is bound to the listing that issued it (Listing: the call's
// parameters but its token and page size) and to its issue time on the
// call's clock: reused with other parameters, or older than the lifetime
// the service documents for the operation (Service.TokenLifetime), it is
// refused with BadToken, as the services refuse such a token.
type Paging struct {
	Prefix   string
	Default  int
	Min, Max int
	BadSize  func(given string) error
	BadToken error
}

// Cursor is a checked request for one page.
type Cursor struct {
	prefix    string
	off, size int
	listing   string
	now       time.Time
}

// Start checks a JSON request's page size (0: the default) and token.
func (p Paging) Start(c *Call, size int, tok string) (Cursor, error) {
	if p.BadSize != nil && (size < 0 || (size > 0 && size < p.Min) || (p.Max > 0 && size > p.Max)) {
		return Cursor{}, p.BadSize(strconv.Itoa(size))
	}
	if size <= 0 {
		size = p.Default
	}
	cur := Cursor{prefix: p.Prefix, size: size, listing: Listing(c, tok), now: c.now()}
	if tok == "" {
		return cur, nil
	}
	t, ok := parseToken(p.Prefix, tok)
	if !ok || t.listing != cur.listing {
		return Cursor{}, p.BadToken
	}
	if life := c.Service.TokenLifetime(c.Action); life > 0 && cur.now.Sub(t.issued) > life {
		return Cursor{}, p.BadToken
	}
	cur.off = t.off
	return cur, nil
}

// StartText is Start for a query request, whose size is text ("": the
// default; not a number is out of range, or the default where no size is
// refused).
func (p Paging) StartText(c *Call, size, tok string) (Cursor, error) {
	n := 0
	if size != "" {
		var err error
		if n, err = strconv.Atoi(size); (err != nil || n < 1) && p.BadSize != nil {
			return Cursor{}, p.BadSize(size)
		}
	}
	return p.Start(c, n, tok)
}

// Cut is the page of total items the cursor asks for, [lo, hi), and the
// next page's token ("" on the last page), issued now for the same
// listing.
func (c Cursor) Cut(total int) (lo, hi int, next string) {
	lo, hi, n := Page(total, c.off, c.size)
	if n >= 0 {
		next = token{off: n, issued: c.now, listing: c.listing}.encode(c.prefix)
	}
	return lo, hi, next
}
