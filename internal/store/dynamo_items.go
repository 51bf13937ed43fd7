package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/realdrift/realdrift/internal/drift"
)

// GetBaseline implements Baselines.
func (d *Dynamo) GetBaseline(ctx context.Context, stack drift.StackRef) ([]byte, int64, error) {
	if err := validStack(stack); err != nil {
		return nil, 0, fmt.Errorf("get baseline: %w", err)
	}
	doc, v, err := d.getVersioned(ctx, stackPK(stack), skBaseline)
	if err != nil {
		return nil, 0, fmt.Errorf("get baseline %s: %w", stack, err)
	}
	return doc, v, nil
}

// PutBaseline implements Baselines.
func (d *Dynamo) PutBaseline(ctx context.Context, stack drift.StackRef, doc []byte, expectedVersion int64) (int64, error) {
	if err := validStack(stack); err != nil {
		return 0, fmt.Errorf("put baseline: %w", err)
	}
	v, err := d.putVersioned(ctx, stackPK(stack), skBaseline, doc, expectedVersion)
	if err != nil {
		return 0, fmt.Errorf("put baseline %s: %w", stack, err)
	}
	return v, nil
}

// GetIgnoreRules implements IgnoreRules.
func (d *Dynamo) GetIgnoreRules(ctx context.Context, scope string) ([]byte, int64, error) {
	if err := validScope(scope); err != nil {
		return nil, 0, fmt.Errorf("get ignore rules: %w", err)
	}
	doc, v, err := d.getVersioned(ctx, pkIgnore+scope, skRules)
	if err != nil {
		return nil, 0, fmt.Errorf("get ignore rules %q: %w", scope, err)
	}
	return doc, v, nil
}

// PutIgnoreRules implements IgnoreRules.
func (d *Dynamo) PutIgnoreRules(ctx context.Context, scope string, doc []byte, expectedVersion int64) (int64, error) {
	if err := validScope(scope); err != nil {
		return 0, fmt.Errorf("put ignore rules: %w", err)
	}
	v, err := d.putVersioned(ctx, pkIgnore+scope, skRules, doc, expectedVersion)
	if err != nil {
		return 0, fmt.Errorf("put ignore rules %q: %w", scope, err)
	}
	return v, nil
}

func runSK(rec RunRecord) string { return skRunPrefix + sortable(rec.StartedAt) + "#" + rec.RunID }

func gsiStackKey(s drift.StackRef) string {
	return gsiStack + s.Account + "#" + s.Region + "#" + s.Name
}

// PutRun implements Findings: the history item first, then (for a RunOK
// run) the latest item unless a later-started run is already there.
func (d *Dynamo) PutRun(ctx context.Context, rec RunRecord, findings []drift.Finding) error {
	if err := rec.validate(); err != nil {
		return fmt.Errorf("put run: %w", err)
	}
	fb, err := encodeFindings(findings)
	if err != nil {
		return err
	}
	src := toRunSrc(rec)
	rb, err := json.Marshal(src)
	if err != nil {
		return fmt.Errorf("put run %s: %w", rec.RunID, err)
	}
	pk := stackPK(rec.Stack)
	started := sortable(rec.StartedAt)
	_, err = d.putBlob(ctx, blob{
		pk: pk, sk: runSK(rec), data: fb, expires: src.ExpiresAt,
		extra: item{
			attrRecord: str(string(rb)), attrStarted: str(started),
			AttrGSI1PK: str(pkRun + rec.RunID), AttrGSI1SK: str(gsiStackKey(rec.Stack)),
		},
	})
	if err != nil {
		return fmt.Errorf("put run %s %s: %w", rec.Stack, rec.RunID, err)
	}
	if rec.Status != RunOK {
		return nil // a failed run has no findings to be the latest
	}
	_, err = d.putBlob(ctx, blob{
		pk: pk, sk: skLatest, data: fb,
		extra:  item{attrRecord: str(string(rb)), attrStarted: str(started)},
		cond:   "attribute_not_exists(#pk) OR #started <= :started",
		names:  map[string]string{"#pk": AttrPK, "#started": attrStarted},
		values: item{":started": str(started)},
	})
	if _, ok := isConditionFailed(err); ok {
		return nil // a later run is the latest
	}
	if err != nil {
		return fmt.Errorf("put latest findings %s: %w", rec.Stack, err)
	}
	return nil
}

func decodeRecord(it item) (RunRecord, error) {
	var src runSrc
	if err := json.Unmarshal([]byte(getS(it, attrRecord)), &src); err != nil {
		return RunRecord{}, fmt.Errorf("item %s/%s: decode run record: %w", getS(it, AttrPK), getS(it, AttrSK), err)
	}
	return src.record()
}

func (d *Dynamo) readRun(ctx context.Context, pk, sk string) (RunRecord, []drift.Finding, error) {
	man, data, err := d.getBlob(ctx, pk, sk)
	if err != nil {
		return RunRecord{}, nil, err
	}
	rec, err := decodeRecord(man)
	if err != nil {
		return RunRecord{}, nil, err
	}
	fs, err := decodeFindings(data)
	if err != nil {
		return RunRecord{}, nil, err
	}
	return rec, fs, nil
}

// LatestFindings implements Findings.
func (d *Dynamo) LatestFindings(ctx context.Context, stack drift.StackRef) (RunRecord, []drift.Finding, error) {
	if err := validStack(stack); err != nil {
		return RunRecord{}, nil, fmt.Errorf("latest findings: %w", err)
	}
	rec, fs, err := d.readRun(ctx, stackPK(stack), skLatest)
	if err != nil {
		return RunRecord{}, nil, fmt.Errorf("latest findings %s: %w", stack, err)
	}
	return rec, fs, nil
}

// ListRuns implements History.
func (d *Dynamo) ListRuns(ctx context.Context, stack drift.StackRef, limit int) ([]RunRecord, error) {
	if err := validStack(stack); err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	now := d.opts.now()
	out := []RunRecord{}
	var decodeErr error
	err := d.queryAll(ctx, &dynamodb.QueryInput{
		KeyConditionExpression:    aws.String("#pk = :pk AND begins_with(#sk, :prefix)"),
		ExpressionAttributeNames:  map[string]string{"#pk": AttrPK, "#sk": AttrSK, "#r": attrRecord},
		ExpressionAttributeValues: item{":pk": str(stackPK(stack)), ":prefix": str(skRunPrefix)},
		ProjectionExpression:      aws.String("#pk, #sk, #r"),
		ScanIndexForward:          aws.Bool(false),
		ConsistentRead:            aws.Bool(true),
	}, func(it item) bool {
		rec, err := decodeRecord(it)
		if err != nil {
			decodeErr = err
			return true
		}
		if expired(rec.ExpiresAt, now) {
			return false
		}
		out = append(out, rec)
		return limit > 0 && len(out) >= limit
	})
	if err == nil {
		err = decodeErr
	}
	if err != nil {
		return nil, fmt.Errorf("list runs %s: %w", stack, err)
	}
	return out, nil
}

// RunFindings implements History. It finds the run through gsi1, whose
// reads are eventually consistent on AWS.
func (d *Dynamo) RunFindings(ctx context.Context, stack drift.StackRef, runID string) (RunRecord, []drift.Finding, error) {
	if err := validStack(stack); err != nil {
		return RunRecord{}, nil, fmt.Errorf("run findings: %w", err)
	}
	if err := validName("run id", runID); err != nil {
		return RunRecord{}, nil, fmt.Errorf("run findings: %w", err)
	}
	now := d.opts.now()
	var sk string
	err := d.queryAll(ctx, &dynamodb.QueryInput{
		IndexName:                 aws.String(GSI1),
		KeyConditionExpression:    aws.String("#g = :g AND #gs = :gs"),
		ExpressionAttributeNames:  map[string]string{"#g": AttrGSI1PK, "#gs": AttrGSI1SK},
		ExpressionAttributeValues: item{":g": str(pkRun + runID), ":gs": str(gsiStackKey(stack))},
	}, func(it item) bool {
		rec, err := decodeRecord(it)
		if err == nil && !expired(rec.ExpiresAt, now) && getS(it, AttrSK) > sk {
			sk = getS(it, AttrSK)
		}
		return false
	})
	if err == nil && sk == "" {
		err = ErrNotFound
	}
	if err != nil {
		return RunRecord{}, nil, fmt.Errorf("run findings %s %s: %w", stack, runID, err)
	}
	rec, fs, err := d.readRun(ctx, stackPK(stack), sk)
	if err != nil {
		return RunRecord{}, nil, fmt.Errorf("run findings %s %s: %w", stack, runID, err)
	}
	return rec, fs, nil
}

// RunsByID implements History through gsi1 (eventually consistent on AWS).
func (d *Dynamo) RunsByID(ctx context.Context, runID string) ([]RunRecord, error) {
	if err := validName("run id", runID); err != nil {
		return nil, fmt.Errorf("runs by id: %w", err)
	}
	now := d.opts.now()
	latest := map[drift.StackRef]RunRecord{}
	var decodeErr error
	err := d.queryAll(ctx, &dynamodb.QueryInput{
		IndexName:                 aws.String(GSI1),
		KeyConditionExpression:    aws.String("#g = :g"),
		ExpressionAttributeNames:  map[string]string{"#g": AttrGSI1PK},
		ExpressionAttributeValues: item{":g": str(pkRun + runID)},
	}, func(it item) bool {
		rec, err := decodeRecord(it)
		if err != nil {
			decodeErr = err
			return true
		}
		if expired(rec.ExpiresAt, now) {
			return false
		}
		if cur, ok := latest[rec.Stack]; !ok || rec.StartedAt.After(cur.StartedAt) {
			latest[rec.Stack] = rec
		}
		return false
	})
	if err == nil {
		err = decodeErr
	}
	if err != nil {
		return nil, fmt.Errorf("runs by id %s: %w", runID, err)
	}
	out := make([]RunRecord, 0, len(latest))
	for _, r := range latest {
		out = append(out, r)
	}
	sortByStack(out)
	return out, nil
}

func indexSK(e IndexEntry) string {
	return e.Stack.Account + "#" + e.Stack.Region + "#" + e.Stack.Name + "#" + e.LogicalID
}

// PutIndex implements Index.
func (d *Dynamo) PutIndex(ctx context.Context, entries []IndexEntry) error {
	now := d.opts.now()
	seen := map[[2]string]int{}
	var reqs []types.WriteRequest
	for _, e := range entries {
		if err := e.validate(); err != nil {
			return fmt.Errorf("put index: %w", err)
		}
		if e.IndexedAt.IsZero() {
			e.IndexedAt = now
		}
		b, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("put index %s: %w", e.PhysicalID, err)
		}
		it := key(pkResource+e.PhysicalID, indexSK(e))
		it[attrEntry] = str(string(b))
		if !e.ExpiresAt.IsZero() {
			it[AttrTTL] = num(ttlSeconds(e.ExpiresAt))
		}
		req := types.WriteRequest{PutRequest: &types.PutRequest{Item: it}}
		k := [2]string{e.PhysicalID, indexSK(e)}
		if i, dup := seen[k]; dup {
			reqs[i] = req // a later entry for the same key wins
			continue
		}
		seen[k] = len(reqs)
		reqs = append(reqs, req)
	}
	if err := d.batchWrite(ctx, reqs); err != nil {
		return fmt.Errorf("put index: %w", err)
	}
	return nil
}

// LookupIndex implements Index.
func (d *Dynamo) LookupIndex(ctx context.Context, physicalID string) ([]IndexEntry, error) {
	if err := validPhysicalID(physicalID); err != nil {
		return nil, fmt.Errorf("lookup index: %w", err)
	}
	now := d.opts.now()
	out := []IndexEntry{}
	var decodeErr error
	err := d.queryAll(ctx, &dynamodb.QueryInput{
		KeyConditionExpression:    aws.String("#pk = :pk"),
		ExpressionAttributeNames:  map[string]string{"#pk": AttrPK},
		ExpressionAttributeValues: item{":pk": str(pkResource + physicalID)},
		ConsistentRead:            aws.Bool(true),
	}, func(it item) bool {
		var e IndexEntry
		if err := json.Unmarshal([]byte(getS(it, attrEntry)), &e); err != nil {
			decodeErr = fmt.Errorf("decode index entry %s: %w", getS(it, AttrSK), err)
			return true
		}
		if !expired(e.ExpiresAt, now) {
			out = append(out, e)
		}
		return false
	})
	if err == nil {
		err = decodeErr
	}
	if err != nil {
		return nil, fmt.Errorf("lookup index %s: %w", physicalID, err)
	}
	sortEntries(out)
	return out, nil
}

// PutState implements RunState.
func (d *Dynamo) PutState(ctx context.Context, runID, key string, data []byte, expiresAt time.Time) error {
	if err := validState(runID, key, expiresAt); err != nil {
		return fmt.Errorf("put state: %w", err)
	}
	if data == nil {
		data = []byte{}
	}
	if _, err := d.putBlob(ctx, blob{pk: pkRun + runID, sk: skStatePrefix + key, data: data, expires: expiresAt}); err != nil {
		return fmt.Errorf("put state %s/%s: %w", runID, key, err)
	}
	return nil
}

// GetState implements RunState.
func (d *Dynamo) GetState(ctx context.Context, runID, key string) ([]byte, error) {
	if err := validName("run id", runID); err != nil {
		return nil, fmt.Errorf("get state: %w", err)
	}
	if err := validName("state key", key); err != nil {
		return nil, fmt.Errorf("get state: %w", err)
	}
	data, err := d.getUnexpired(ctx, pkRun+runID, skStatePrefix+key)
	if err != nil {
		return nil, fmt.Errorf("get state %s/%s: %w", runID, key, err)
	}
	return data, nil
}

// getUnexpired reads a value whose manifest's ttl has not passed (DynamoDB
// deletes expired items late); an expired one is ErrNotFound.
func (d *Dynamo) getUnexpired(ctx context.Context, pk, sk string) ([]byte, error) {
	man, data, err := d.getBlob(ctx, pk, sk)
	if err == nil {
		if ttl, ok := getN(man, AttrTTL); ok && ttl <= d.opts.now().Unix() {
			err = fmt.Errorf("%w (expired)", ErrNotFound)
		}
	}
	return data, err
}
