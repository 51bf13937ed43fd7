package service

import (
	"context"

	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/schema"
)

// sweepFacts is load-desired's schema facts source: the embedded snapshot
// first; cloudformation:DescribeType (the account-region's registry, the
// snapshot behind it) only for the types the snapshot lacks or says Cloud
// Control cannot read (a snapshot older than the account may miss a read
// handler AWS has since added) — and each such answer kept in the run's
// state, so one sweep asks DescribeType once per type and account-region,
// however many stacks use the type. (Before, every stack's load asked for
// every type it held: more DescribeType calls than reads.)
type sweepFacts struct {
	s               *Service
	runID           string
	account, region string
	snap            *schema.Snapshot
	registry        scan.FactsSource
}

var _ scan.FactsSource = (*sweepFacts)(nil)

// cachedFacts is one type's DescribeType answer kept for the run; Facts is
// nil when no source knew the type.
type cachedFacts struct {
	Facts *schema.Facts `json:"facts"`
}

func (f *sweepFacts) Lookup(ctx context.Context, typeName string) (*schema.Facts, error) {
	if sf, ok := f.snap.Lookup(typeName); ok && sf.Readable() {
		return sf, nil
	}
	key := keySchema + f.account + ":" + f.region + ":" + typeName
	var c cachedFacts
	if ok, err := f.s.getJSON(ctx, f.runID, key, &c); err != nil {
		return nil, err
	} else if ok {
		if c.Facts == nil {
			return nil, errNoFacts
		}
		return c.Facts, nil
	}
	facts, err := f.registry.Lookup(ctx, typeName)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		facts = nil
	}
	if perr := f.s.putJSON(ctx, f.runID, key, cachedFacts{Facts: facts}); perr != nil {
		return nil, perr
	}
	if facts == nil {
		return nil, errNoFacts
	}
	return facts, nil
}

// errNoFacts: no source knows the type (its resources are read without
// facts, as the CLI does).
var errNoFacts = schemaError("no schema facts for the type")

type schemaError string

func (e schemaError) Error() string { return string(e) }
