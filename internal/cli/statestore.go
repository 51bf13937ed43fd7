package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/store"
)

// storeFlagHelp is the --store flag's help, shared by the verbs that read
// or write baselines and ignore rules.
const storeFlagHelp = "where baselines and ignore rules live: dynamodb://TABLE[?region=REGION] (the service's table, shared by the team) or file://DIR (the same as --state-dir DIR); default the state directory"

// state is where a verb's baselines and ignore rules live: a state
// directory (store.File, the default) or the service's table
// (store.Dynamo, --store dynamodb://TABLE). Both are versioned stores: a
// write is conditional on the version read, so concurrent writers merge
// (baseline.UpdateStored, ignore.AppendStored) and never lose each other's
// entries.
type state struct {
	docs docStore
	// file is the state directory; nil for a table.
	file *store.File
	// url names the table (SchemeDynamo) when file is nil.
	url store.URL
}

// stateURL parses --store and checks it against --state-dir: the zero URL
// when neither names a table or directory, an error (exit 2) for a bad
// URL or both flags given.
func (f *stackFlags) stateURL() (store.URL, error) {
	if f.storeURL == "" {
		return store.URL{}, nil
	}
	if f.stateDir != "" {
		return store.URL{}, errors.New("--store and --state-dir exclude each other (--store file://DIR is --state-dir DIR)")
	}
	u, err := store.ParseURL(f.storeURL)
	if err != nil {
		return store.URL{}, fmt.Errorf("--store: %w", err)
	}
	return u, nil
}

// localState returns the state directory the flags choose and whether it
// was named (--state-dir or --store file://DIR); nil when they choose a
// table.
func (f *stackFlags) localState() (*store.File, bool, error) {
	u, err := f.stateURL()
	if err != nil {
		return nil, false, err
	}
	switch u.Scheme {
	case store.SchemeDynamo:
		return nil, false, nil
	case store.SchemeFile:
		st, err := stateDir(u.Dir)
		return st, true, err
	}
	st, err := stateDir(f.stateDir)
	return st, f.stateDir != "", err
}

// openState opens the store the flags choose. A table is reached with the
// verb's credentials (conn: profile, keys, deadlines) in the URL's region,
// else region; its endpoint is AWS_ENDPOINT_URL_DYNAMODB, else the verb's
// endpoint (--endpoint-url / AWS_ENDPOINT_URL), else AWS's.
func (f *stackFlags) openState(ctx context.Context, s IO, region string, conn scan.Settings) (*state, error) {
	file, _, err := f.localState()
	if err != nil {
		return nil, err
	}
	if file != nil {
		// Every verb clears what a killed writer left, even one that
		// writes nothing (check).
		file.RemoveStaleTemps()
		return &state{docs: file, file: file}, nil
	}
	u, _ := f.stateURL()
	if u.Region != "" {
		region = u.Region
	}
	if region == "" {
		return nil, fmt.Errorf("--store %s: no region for the table: add ?region=REGION, or set AWS_REGION", u)
	}
	conn.Region = region
	conn.Scheduler = nil
	conn.EndpointURL = firstNonEmpty(getenv(s, "AWS_ENDPOINT_URL_DYNAMODB"), conn.EndpointURL)
	cfg, err := sdkConfig(ctx, conn)
	if err != nil {
		return nil, err
	}
	u.Region = region
	return &state{docs: store.NewDynamo(dynamodb.NewFromConfig(cfg), u.Table), url: u}, nil
}

// baselineWhere names where a stack's baseline is written: its file, or
// the table and the stack.
func (st *state) baselineWhere(ref drift.StackRef) string {
	if st.file != nil {
		return st.file.BaselinePath(ref)
	}
	return st.url.String() + " (baseline " + stackFile(ref) + ")"
}

// where names the store for messages: the state directory, or the table
// with its region.
func (st *state) where() string {
	if st.file != nil {
		return st.file.Dir()
	}
	return st.url.String()
}

// ignoreWhere names where the default ignore rules are written, and
// ignoreSource where they are read from (the .cdkrd layer's file when the
// state directory lacks one).
func (st *state) ignoreWhere() string {
	if st.file != nil {
		return st.file.IgnorePath("")
	}
	return st.url.String() + " (ignore rules)"
}

func (st *state) ignoreSource() string {
	if st.file != nil {
		return st.file.IgnoreSource("")
	}
	return st.ignoreWhere()
}

// ownsBaseline reports whether the stack's baseline is stored where it is
// written (not only in the read-only .cdkrd layer), so record can leave an
// unchanged one alone. A table has no lower layer.
func (st *state) ownsBaseline(ref drift.StackRef) bool {
	return st.file == nil || fileExists(st.file.BaselinePath(ref))
}

// explain adds what to do to a store error: a table that does not exist
// names the URL to check.
func (st *state) explain(err error) error {
	var missing *ddbtypes.ResourceNotFoundException
	if st.file == nil && errors.As(err, &missing) {
		return &actionable{msg: fmt.Sprintf("--store %s: the table does not exist in %s: check the table name and ?region= (the service's stack outputs name its table)", st.url, st.url.Region), err: err}
	}
	return explain(err)
}

// tableIn completes a table URL with its region: ?region=, else
// AWS_REGION, else AWS_DEFAULT_REGION; no region is an error naming the
// URL. The URL then names the region in every message (String).
func tableIn(s IO, u store.URL) (store.URL, error) {
	u.Region = firstNonEmpty(u.Region, getenv(s, "AWS_REGION"), getenv(s, "AWS_DEFAULT_REGION"))
	if u.Region == "" {
		return u, fmt.Errorf("--store %s: no region for the table: add ?region=REGION, or set AWS_REGION", u)
	}
	return u, nil
}

// tableURL parses the --store of a verb that works on the service's table
// only (baseline push|pull, approve).
func tableURL(raw string) (store.URL, error) {
	if raw == "" {
		return store.URL{}, fmt.Errorf("--store is required: dynamodb://TABLE[?region=REGION]")
	}
	u, err := store.ParseURL(raw)
	if err != nil {
		return store.URL{}, fmt.Errorf("--store: %w", err)
	}
	if u.Scheme != store.SchemeDynamo {
		return store.URL{}, fmt.Errorf("--store %s: this verb works on the service's table: want dynamodb://TABLE[?region=REGION]", raw)
	}
	return u, nil
}
