package store

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
)

// DefaultDir is the CLI's state directory, relative to the working directory.
const DefaultDir = ".realdrift"

// LegacyDir is cdk-real-drift's state directory: read when present, never
// written.
const LegacyDir = ".cdkrd"

// File is the file-system Store (see the package doc for the layout).
type File struct {
	dir string
	// fallback is a read-only lower layer for documents (baselines, ignore
	// rules) that dir lacks; "" for none.
	fallback string
	opts     options
}

var _ Store = (*File)(nil)

// NewFile returns a store rooted at dir (created on first write).
func NewFile(dir string, opts ...Option) *File {
	return &File{dir: dir, opts: buildOptions(opts)}
}

// StateDir returns the CLI's store under root. A non-empty flag
// (--state-dir, relative to root unless absolute) is used alone. Otherwise
// the store is root/.realdrift, and when root/.cdkrd is a directory it is a
// read-only lower layer: a baseline or ignore-rules document .realdrift
// lacks is read from .cdkrd, and the first write of that document puts the
// merged result in .realdrift (.cdkrd is never written).
func StateDir(root, flag string, opts ...Option) *File {
	if flag != "" {
		if !filepath.IsAbs(flag) {
			flag = filepath.Join(root, flag)
		}
		return NewFile(flag, opts...)
	}
	f := NewFile(filepath.Join(root, DefaultDir), opts...)
	legacy := filepath.Join(root, LegacyDir)
	if fi, err := os.Stat(legacy); err == nil && fi.IsDir() {
		f.fallback = legacy
	}
	return f
}

// Dir returns the state directory.
func (f *File) Dir() string { return f.dir }

// Fallback returns the read-only lower layer ("" when there is none).
func (f *File) Fallback() string { return f.fallback }

func baselineRel(stack drift.StackRef) string {
	return filepath.Join("baselines", stackFile(stack)+".json")
}

func ignoreRel(scope string) string {
	if scope == "" {
		return "ignore.yaml"
	}
	return "ignore." + scope + ".yaml"
}

// BaselinePath returns the file a stack's baseline is written to.
func (f *File) BaselinePath(stack drift.StackRef) string {
	return filepath.Join(f.dir, baselineRel(stack))
}

// IgnorePath returns the file a scope's ignore rules are written to.
func (f *File) IgnorePath(scope string) string {
	return filepath.Join(f.dir, ignoreRel(scope))
}

// BaselineSource returns the file a stack's baseline is read from now: its
// own file, else the lower layer's when only that exists. Errors about the
// document name it.
func (f *File) BaselineSource(stack drift.StackRef) string {
	return f.source(baselineRel(stack))
}

// IgnoreSource is BaselineSource for a scope's ignore rules.
func (f *File) IgnoreSource(scope string) string {
	return f.source(ignoreRel(scope))
}

func (f *File) source(rel string) string {
	own := filepath.Join(f.dir, rel)
	if f.fallback == "" {
		return own
	}
	if _, err := os.Stat(own); !errors.Is(err, fs.ErrNotExist) {
		return own
	}
	lower := filepath.Join(f.fallback, rel)
	if _, err := os.Stat(lower); err == nil {
		return lower
	}
	return own
}

func (f *File) lock(ctx context.Context) (func(), error) {
	if err := os.MkdirAll(f.dir, 0o755); err != nil {
		return nil, fmt.Errorf("create state dir: %w", err)
	}
	return lockFile(ctx, f.dir)
}

// GetBaseline implements Baselines.
func (f *File) GetBaseline(ctx context.Context, stack drift.StackRef) ([]byte, int64, error) {
	if err := validStack(stack); err != nil {
		return nil, 0, fmt.Errorf("get baseline: %w", err)
	}
	doc, v, err := f.readDoc(baselineRel(stack))
	if err != nil {
		return nil, 0, fmt.Errorf("get baseline %s: %w", stack, err)
	}
	return doc, v, nil
}

// PutBaseline implements Baselines.
func (f *File) PutBaseline(ctx context.Context, stack drift.StackRef, doc []byte, expectedVersion int64) (int64, error) {
	if err := validStack(stack); err != nil {
		return 0, fmt.Errorf("put baseline: %w", err)
	}
	v, err := f.putDoc(ctx, baselineRel(stack), doc, expectedVersion)
	if err != nil {
		return 0, fmt.Errorf("put baseline %s: %w", stack, err)
	}
	return v, nil
}

// GetIgnoreRules implements IgnoreRules.
func (f *File) GetIgnoreRules(ctx context.Context, scope string) ([]byte, int64, error) {
	if err := validScope(scope); err != nil {
		return nil, 0, fmt.Errorf("get ignore rules: %w", err)
	}
	doc, v, err := f.readDoc(ignoreRel(scope))
	if err != nil {
		return nil, 0, fmt.Errorf("get ignore rules %q: %w", scope, err)
	}
	return doc, v, nil
}

// PutIgnoreRules implements IgnoreRules.
func (f *File) PutIgnoreRules(ctx context.Context, scope string, doc []byte, expectedVersion int64) (int64, error) {
	if err := validScope(scope); err != nil {
		return 0, fmt.Errorf("put ignore rules: %w", err)
	}
	v, err := f.putDoc(ctx, ignoreRel(scope), doc, expectedVersion)
	if err != nil {
		return 0, fmt.Errorf("put ignore rules %q: %w", scope, err)
	}
	return v, nil
}

// contentVersion derives a document's version from its bytes: a positive
// 63-bit prefix of its SHA-256. Any change to the file, by this store or by
// hand, moves the version.
func contentVersion(b []byte) int64 {
	h := sha256.Sum256(b)
	v := int64(binary.BigEndian.Uint64(h[:8]) >> 1)
	if v == 0 {
		v = 1
	}
	return v
}

func readVersioned(path string) ([]byte, int64, error) {
	b, err := ReadStateFile(path, MaxStateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, ErrNotFound
	}
	if err != nil {
		return nil, 0, err
	}
	return b, contentVersion(b), nil
}

// readDoc reads the document at rel: the store's own file, else the lower
// layer's.
func (f *File) readDoc(rel string) ([]byte, int64, error) {
	doc, v, err := readVersioned(filepath.Join(f.dir, rel))
	if errors.Is(err, ErrNotFound) && f.fallback != "" {
		return readVersioned(filepath.Join(f.fallback, rel))
	}
	return doc, v, err
}

// putDoc writes the document at rel into the store's own directory when
// the version a reader sees now (readDoc, under the lock) is expected.
func (f *File) putDoc(ctx context.Context, rel string, doc []byte, expected int64) (int64, error) {
	unlock, err := f.lock(ctx)
	if err != nil {
		return 0, err
	}
	defer unlock()
	_, cur, err := f.readDoc(rel)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return 0, err
	}
	if cur != expected {
		return 0, conflict(cur, expected)
	}
	if err := writeLocked(filepath.Join(f.dir, rel), doc); err != nil {
		return 0, err
	}
	return contentVersion(doc), nil
}

func conflict(stored, expected int64) error {
	if stored == 0 {
		return fmt.Errorf("%w: expected version %d but nothing is stored", ErrConflict, expected)
	}
	return fmt.Errorf("%w: stored version is %d, expected %d", ErrConflict, stored, expected)
}

// historyName is <started unixnano>.<expires unix>.<run id>.json: the
// name sorts by start time and carries the expiry, so listing and pruning
// need not open files.
func historyName(started, expires time.Time, runID string) string {
	return fmt.Sprintf("%020d.%012d.%s.json", started.UnixNano(), expires.Unix(), runID)
}

type historyFile struct {
	name    string
	started int64
	expires time.Time
	runID   string
}

func parseHistoryName(name string) (historyFile, bool) {
	if !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
		return historyFile{}, false
	}
	parts := strings.SplitN(strings.TrimSuffix(name, ".json"), ".", 3)
	if len(parts) != 3 {
		return historyFile{}, false
	}
	started, err1 := strconv.ParseInt(parts[0], 10, 64)
	exp, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err1 != nil || err2 != nil {
		return historyFile{}, false
	}
	return historyFile{name: name, started: started, expires: time.Unix(exp, 0), runID: parts[2]}, true
}

// listHistory returns a stack directory's unexpired runs, newest first.
func (f *File) listHistory(dir string) ([]historyFile, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list history: %w", err)
	}
	now := f.opts.now()
	var out []historyFile
	for _, e := range ents {
		h, ok := parseHistoryName(e.Name())
		if !ok || expired(h.expires, now) {
			continue
		}
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name > out[j].name })
	return out, nil
}

func (f *File) historyDir(stack drift.StackRef) string {
	return filepath.Join(f.dir, "history", stackFile(stack))
}

func (f *File) latestPath(stack drift.StackRef) string {
	return filepath.Join(f.dir, "findings", stackFile(stack)+".json")
}

// PutRun implements Findings.
func (f *File) PutRun(ctx context.Context, rec RunRecord, findings []drift.Finding) error {
	if err := rec.validate(); err != nil {
		return fmt.Errorf("put run: %w", err)
	}
	doc, err := encodeRunDoc(rec, findings)
	if err != nil {
		return err
	}
	unlock, err := f.lock(ctx)
	if err != nil {
		return fmt.Errorf("put run %s: %w", rec.RunID, err)
	}
	defer unlock()

	dir := f.historyDir(rec.Stack)
	if err := writeLocked(filepath.Join(dir, historyName(rec.StartedAt, rec.expiry(), rec.RunID)), doc); err != nil {
		return fmt.Errorf("put run %s: %w", rec.RunID, err)
	}
	f.pruneHistory(dir)
	if rec.Status != RunOK {
		return nil
	}

	latest := f.latestPath(rec.Stack)
	if b, err := ReadStateFile(latest, MaxStateFile); err == nil {
		var cur struct {
			Run runSrc `json:"run"`
		}
		if json.Unmarshal(b, &cur) == nil && cur.Run.StartedAt.After(rec.StartedAt) {
			return nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("put run %s: %w", rec.RunID, err)
	}
	if err := writeLocked(latest, doc); err != nil {
		return fmt.Errorf("put run %s: %w", rec.RunID, err)
	}
	return nil
}

// pruneHistory deletes expired history files (best effort).
func (f *File) pruneHistory(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	now := f.opts.now()
	for _, e := range ents {
		if h, ok := parseHistoryName(e.Name()); ok && expired(h.expires, now) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// LatestFindings implements Findings.
func (f *File) LatestFindings(ctx context.Context, stack drift.StackRef) (RunRecord, []drift.Finding, error) {
	if err := validStack(stack); err != nil {
		return RunRecord{}, nil, fmt.Errorf("latest findings: %w", err)
	}
	b, err := ReadStateFile(f.latestPath(stack), MaxStateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return RunRecord{}, nil, fmt.Errorf("latest findings %s: %w", stack, ErrNotFound)
	}
	if err != nil {
		return RunRecord{}, nil, fmt.Errorf("latest findings %s: %w", stack, err)
	}
	rec, fds, err := decodeRunDoc(b)
	if err != nil {
		return RunRecord{}, nil, fmt.Errorf("latest findings %s: %w", stack, err)
	}
	return rec, fds, nil
}

// ListRuns implements History.
func (f *File) ListRuns(ctx context.Context, stack drift.StackRef, limit int) ([]RunRecord, error) {
	if err := validStack(stack); err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	dir := f.historyDir(stack)
	hs, err := f.listHistory(dir)
	if err != nil {
		return nil, fmt.Errorf("list runs %s: %w", stack, err)
	}
	if limit > 0 && len(hs) > limit {
		hs = hs[:limit]
	}
	out := make([]RunRecord, 0, len(hs))
	for _, h := range hs {
		rec, err := readRunRecord(filepath.Join(dir, h.name))
		if err != nil {
			return nil, fmt.Errorf("list runs %s: %w", stack, err)
		}
		out = append(out, rec)
	}
	return out, nil
}

func readRunRecord(path string) (RunRecord, error) {
	b, err := ReadStateFile(path, MaxStateFile)
	if err != nil {
		return RunRecord{}, err
	}
	var d struct {
		Run runSrc `json:"run"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		return RunRecord{}, fmt.Errorf("decode %s: %w", filepath.Base(path), err)
	}
	return d.Run.record()
}

// RunFindings implements History.
func (f *File) RunFindings(ctx context.Context, stack drift.StackRef, runID string) (RunRecord, []drift.Finding, error) {
	if err := validStack(stack); err != nil {
		return RunRecord{}, nil, fmt.Errorf("run findings: %w", err)
	}
	if err := validName("run id", runID); err != nil {
		return RunRecord{}, nil, fmt.Errorf("run findings: %w", err)
	}
	dir := f.historyDir(stack)
	hs, err := f.listHistory(dir)
	if err != nil {
		return RunRecord{}, nil, fmt.Errorf("run findings %s %s: %w", stack, runID, err)
	}
	for _, h := range hs {
		if h.runID != runID {
			continue
		}
		b, err := ReadStateFile(filepath.Join(dir, h.name), MaxStateFile)
		if err != nil {
			return RunRecord{}, nil, fmt.Errorf("run findings %s %s: %w", stack, runID, err)
		}
		rec, fds, err := decodeRunDoc(b)
		if err != nil {
			return RunRecord{}, nil, fmt.Errorf("run findings %s %s: %w", stack, runID, err)
		}
		return rec, fds, nil
	}
	return RunRecord{}, nil, fmt.Errorf("run findings %s %s: %w", stack, runID, ErrNotFound)
}

// RunsByID implements History.
func (f *File) RunsByID(ctx context.Context, runID string) ([]RunRecord, error) {
	if err := validName("run id", runID); err != nil {
		return nil, fmt.Errorf("runs by id: %w", err)
	}
	root := filepath.Join(f.dir, "history")
	stacks, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("runs by id %s: %w", runID, err)
	}
	var out []RunRecord
	for _, s := range stacks {
		if !s.IsDir() {
			continue
		}
		dir := filepath.Join(root, s.Name())
		hs, err := f.listHistory(dir)
		if err != nil {
			return nil, fmt.Errorf("runs by id %s: %w", runID, err)
		}
		for _, h := range hs {
			if h.runID != runID {
				continue
			}
			rec, err := readRunRecord(filepath.Join(dir, h.name))
			if err != nil {
				return nil, fmt.Errorf("runs by id %s: %w", runID, err)
			}
			out = append(out, rec)
			break
		}
	}
	sortByStack(out)
	return out, nil
}

func stackLess(a, b drift.StackRef) bool {
	if a.Account != b.Account {
		return a.Account < b.Account
	}
	if a.Region != b.Region {
		return a.Region < b.Region
	}
	return a.Name < b.Name
}

func sortByStack(rs []RunRecord) {
	sort.SliceStable(rs, func(i, j int) bool { return stackLess(rs[i].Stack, rs[j].Stack) })
}

func sortEntries(es []IndexEntry) {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].Stack != es[j].Stack {
			return stackLess(es[i].Stack, es[j].Stack)
		}
		return es[i].LogicalID < es[j].LogicalID
	})
}

func (f *File) indexPath(physicalID string) string {
	h := sha256.Sum256([]byte(physicalID))
	return filepath.Join(f.dir, "index", hex.EncodeToString(h[:])+".json")
}

func (e IndexEntry) validate() error {
	if err := validPhysicalID(e.PhysicalID); err != nil {
		return err
	}
	if err := validStack(e.Stack); err != nil {
		return err
	}
	return validName("logical id", e.LogicalID)
}

// PutIndex implements Index.
func (f *File) PutIndex(ctx context.Context, entries []IndexEntry) error {
	byID := map[string][]IndexEntry{}
	var ids []string
	now := f.opts.now()
	for _, e := range entries {
		if err := e.validate(); err != nil {
			return fmt.Errorf("put index: %w", err)
		}
		if e.IndexedAt.IsZero() {
			e.IndexedAt = now
		}
		if _, ok := byID[e.PhysicalID]; !ok {
			ids = append(ids, e.PhysicalID)
		}
		byID[e.PhysicalID] = append(byID[e.PhysicalID], e)
	}
	if len(ids) == 0 {
		return nil
	}
	unlock, err := f.lock(ctx)
	if err != nil {
		return fmt.Errorf("put index: %w", err)
	}
	defer unlock()
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("put index: %w", err)
		}
		cur, err := f.readIndex(id)
		if err != nil {
			return fmt.Errorf("put index %s: %w", id, err)
		}
		merged := cur[:0]
		for _, c := range cur {
			if expired(c.ExpiresAt, now) {
				continue
			}
			replaced := false
			for _, n := range byID[id] {
				if n.Stack == c.Stack && n.LogicalID == c.LogicalID {
					replaced = true
				}
			}
			if !replaced {
				merged = append(merged, c)
			}
		}
		// A later entry in one call wins over an earlier one for the same key.
		for i, n := range byID[id] {
			dup := false
			for _, m := range byID[id][i+1:] {
				if m.Stack == n.Stack && m.LogicalID == n.LogicalID {
					dup = true
				}
			}
			if !dup {
				merged = append(merged, n)
			}
		}
		sortEntries(merged)
		b, err := json.MarshalIndent(merged, "", "  ")
		if err != nil {
			return fmt.Errorf("put index %s: %w", id, err)
		}
		if err := writeLocked(f.indexPath(id), b); err != nil {
			return fmt.Errorf("put index %s: %w", id, err)
		}
	}
	return nil
}

func (f *File) readIndex(physicalID string) ([]IndexEntry, error) {
	b, err := ReadStateFile(f.indexPath(physicalID), MaxStateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var es []IndexEntry
	if err := json.Unmarshal(b, &es); err != nil {
		return nil, fmt.Errorf("decode index: %w", err)
	}
	return es, nil
}

// LookupIndex implements Index.
func (f *File) LookupIndex(ctx context.Context, physicalID string) ([]IndexEntry, error) {
	if err := validPhysicalID(physicalID); err != nil {
		return nil, fmt.Errorf("lookup index: %w", err)
	}
	es, err := f.readIndex(physicalID)
	if err != nil {
		return nil, fmt.Errorf("lookup index %s: %w", physicalID, err)
	}
	now := f.opts.now()
	out := []IndexEntry{}
	for _, e := range es {
		if e.PhysicalID == physicalID && !expired(e.ExpiresAt, now) {
			out = append(out, e)
		}
	}
	sortEntries(out)
	return out, nil
}

func (f *File) statePath(runID, key string) string {
	return filepath.Join(f.dir, "runs", runID, key)
}

// stateHeader is the first line of a state file; the value follows it.
type stateHeader struct {
	ExpiresAt time.Time `json:"expiresAt"`
	Size      int       `json:"size"`
}

// PutState implements RunState.
func (f *File) PutState(ctx context.Context, runID, key string, data []byte, expiresAt time.Time) error {
	if err := validState(runID, key, expiresAt); err != nil {
		return fmt.Errorf("put state: %w", err)
	}
	buf, err := stateFile(data, expiresAt)
	if err != nil {
		return fmt.Errorf("put state %s/%s: %w", runID, key, err)
	}
	if err := writeAtomic(f.statePath(runID, key), buf); err != nil {
		return fmt.Errorf("put state %s/%s: %w", runID, key, err)
	}
	return nil
}

// stateFile is a state file's bytes: its header line, then data.
func stateFile(data []byte, expiresAt time.Time) ([]byte, error) {
	h, err := json.Marshal(stateHeader{ExpiresAt: expiresAt.UTC(), Size: len(data)})
	if err != nil {
		return nil, err
	}
	buf := make([]byte, 0, len(h)+1+len(data))
	return append(append(append(buf, h...), '\n'), data...), nil
}

func validState(runID, key string, expiresAt time.Time) error {
	if err := validName("run id", runID); err != nil {
		return err
	}
	if err := validName("state key", key); err != nil {
		return err
	}
	if expiresAt.IsZero() {
		return fmt.Errorf("%w: state %s/%s has no expiry", ErrInvalid, runID, key)
	}
	return nil
}

// GetState implements RunState.
func (f *File) GetState(ctx context.Context, runID, key string) ([]byte, error) {
	if err := validName("run id", runID); err != nil {
		return nil, fmt.Errorf("get state: %w", err)
	}
	if err := validName("state key", key); err != nil {
		return nil, fmt.Errorf("get state: %w", err)
	}
	b, err := f.readState(f.statePath(runID, key))
	if err != nil {
		return nil, fmt.Errorf("get state %s/%s: %w", runID, key, err)
	}
	return b, nil
}

// readState reads a state file's value: ErrNotFound when absent or
// expired.
func (f *File) readState(path string) ([]byte, error) {
	b, err := ReadStateFile(path, MaxStateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	i := strings.IndexByte(string(b[:min(len(b), 512)]), '\n')
	var h stateHeader
	if i < 0 || json.Unmarshal(b[:i], &h) != nil || len(b)-i-1 != h.Size {
		return nil, errors.New("corrupt state file")
	}
	if expired(h.ExpiresAt, f.opts.now()) {
		return nil, fmt.Errorf("%w (expired)", ErrNotFound)
	}
	return b[i+1:], nil
}
