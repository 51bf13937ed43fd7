package store

import "time"

// Option configures a store.
type Option func(*options)

type options struct {
	now func() time.Time
}

// WithClock sets the clock used to hide expired items and stamp index
// entries (tests use it; the default is time.Now).
func WithClock(now func() time.Time) Option {
	return func(o *options) { o.now = now }
}

func buildOptions(opts []Option) options {
	o := options{now: time.Now}
	for _, f := range opts {
		f(&o)
	}
	return o
}
