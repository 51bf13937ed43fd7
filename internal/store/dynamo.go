package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/realdrift/realdrift/internal/drift"
)

// dynamoClient is the part of *dynamodb.Client the store uses.
type dynamoClient interface {
	GetItem(ctx context.Context, in *dynamodb.GetItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error)
	PutItem(ctx context.Context, in *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
	BatchWriteItem(ctx context.Context, in *dynamodb.BatchWriteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error)
}

var _ dynamoClient = (*dynamodb.Client)(nil)

// Dynamo is the single-table DynamoDB Store (see the package doc for the
// layout).
type Dynamo struct {
	db    dynamoClient
	table string
	opts  options
}

var _ Store = (*Dynamo)(nil)

// NewDynamo returns a store on table through db (a *dynamodb.Client).
func NewDynamo(db dynamoClient, table string, opts ...Option) *Dynamo {
	return &Dynamo{db: db, table: table, opts: buildOptions(opts)}
}

type item = map[string]types.AttributeValue

func str(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }
func num(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

func getS(it item, name string) string {
	if v, ok := it[name].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}

func getN(it item, name string) (int64, bool) {
	v, ok := it[name].(*types.AttributeValueMemberN)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(v.Value, 10, 64)
	return n, err == nil
}

func key(pk, sk string) item { return item{AttrPK: str(pk), AttrSK: str(sk)} }

func stackPK(s drift.StackRef) string {
	return pkStack + s.Account + "#" + s.Region + "#" + s.Name
}

// ttlSeconds rounds up, so an item is never deleted before its expiry.
func ttlSeconds(t time.Time) int64 {
	s := t.Unix()
	if t.Nanosecond() > 0 {
		s++
	}
	return s
}

// sortable renders a time so that string order is time order.
func sortable(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000000Z") }

func isConditionFailed(err error) (*types.ConditionalCheckFailedException, bool) {
	var cf *types.ConditionalCheckFailedException
	return cf, errors.As(err, &cf)
}

// blob is a value to write as a manifest item (and chunks).
type blob struct {
	pk, sk string
	data   []byte
	// expires sets ttl on the manifest and its chunks (zero: none).
	expires time.Time
	// extra attributes of the manifest.
	extra item
	// condition on the manifest write (empty: none).
	cond   string
	names  map[string]string
	values item
}

func chunkSK(sk, gen string, i int) string {
	return fmt.Sprintf("%s%s#%s#%06d", skChunkPrefix, sk, gen, i)
}

func newGen() (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("chunk generation id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// putBlob writes the value's chunks (when large) and then its manifest under
// the condition. It returns the replaced manifest (nil if none). On a failed
// condition it removes the chunks it wrote and returns the
// ConditionalCheckFailedException.
func (d *Dynamo) putBlob(ctx context.Context, b blob) (item, error) {
	man := key(b.pk, b.sk)
	for k, v := range b.extra {
		man[k] = v
	}
	if !b.expires.IsZero() {
		man[AttrTTL] = num(ttlSeconds(b.expires))
	}
	var gen string
	var n int
	if len(b.data) <= InlineLimit {
		man[attrData] = &types.AttributeValueMemberB{Value: b.data}
	} else {
		var err error
		if gen, err = newGen(); err != nil {
			return nil, err
		}
		n = (len(b.data) + ChunkSize - 1) / ChunkSize
		sum := sha256.Sum256(b.data)
		man[attrGen] = str(gen)
		man[attrChunks] = num(int64(n))
		man[attrSize] = num(int64(len(b.data)))
		man[attrSHA] = str(hex.EncodeToString(sum[:]))
		var chunks []item
		for i := range n {
			c := key(b.pk, chunkSK(b.sk, gen, i))
			c[attrData] = &types.AttributeValueMemberB{Value: b.data[i*ChunkSize : min(len(b.data), (i+1)*ChunkSize)]}
			if !b.expires.IsZero() {
				c[AttrTTL] = num(ttlSeconds(b.expires))
			}
			chunks = append(chunks, c)
		}
		if err := d.batchPut(ctx, chunks); err != nil {
			return nil, fmt.Errorf("write chunks: %w", err)
		}
	}
	in := &dynamodb.PutItemInput{
		TableName:    aws.String(d.table),
		Item:         man,
		ReturnValues: types.ReturnValueAllOld,
	}
	if b.cond != "" {
		in.ConditionExpression = aws.String(b.cond)
		in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
		if len(b.names) > 0 {
			in.ExpressionAttributeNames = b.names
		}
		if len(b.values) > 0 {
			in.ExpressionAttributeValues = b.values
		}
	}
	out, err := d.db.PutItem(ctx, in)
	if err != nil {
		if gen != "" {
			d.deleteChunks(ctx, b.pk, b.sk, gen, n)
		}
		return nil, err
	}
	if old := out.Attributes; old != nil {
		if og := getS(old, attrGen); og != "" && og != gen {
			on, _ := getN(old, attrChunks)
			d.deleteChunks(ctx, b.pk, b.sk, og, int(on))
		}
	}
	return out.Attributes, nil
}

// deleteChunks removes a generation's chunks, best effort: they are
// unreachable once no manifest points at them.
func (d *Dynamo) deleteChunks(ctx context.Context, pk, sk, gen string, n int) {
	var reqs []types.WriteRequest
	for i := range n {
		reqs = append(reqs, types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: key(pk, chunkSK(sk, gen, i))}})
	}
	_ = d.batchWrite(ctx, reqs)
}

func (d *Dynamo) batchPut(ctx context.Context, items []item) error {
	reqs := make([]types.WriteRequest, len(items))
	for i, it := range items {
		reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: it}}
	}
	return d.batchWrite(ctx, reqs)
}

// batchWrite sends requests 25 at a time, retrying unprocessed ones with
// backoff. The requests of one call must have distinct keys.
func (d *Dynamo) batchWrite(ctx context.Context, reqs []types.WriteRequest) error {
	for len(reqs) > 0 {
		n := min(len(reqs), 25)
		pending := reqs[:n]
		reqs = reqs[n:]
		wait := 20 * time.Millisecond
		for attempt := 0; len(pending) > 0; attempt++ {
			if attempt > 0 {
				if attempt > 10 {
					return fmt.Errorf("batch write: %d requests still unprocessed", len(pending))
				}
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(wait):
				}
				wait = min(2*wait, time.Second)
			}
			out, err := d.db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
				RequestItems: map[string][]types.WriteRequest{d.table: pending},
			})
			if err != nil {
				return err
			}
			pending = out.UnprocessedItems[d.table]
		}
	}
	return nil
}

// getBlob reads a manifest and its value; ErrNotFound when absent. A value
// whose chunks were replaced mid-read is read again from the manifest.
func (d *Dynamo) getBlob(ctx context.Context, pk, sk string) (item, []byte, error) {
	for attempt := 0; ; attempt++ {
		out, err := d.db.GetItem(ctx, &dynamodb.GetItemInput{
			TableName:      aws.String(d.table),
			Key:            key(pk, sk),
			ConsistentRead: aws.Bool(true),
		})
		if err != nil {
			return nil, nil, err
		}
		if out.Item == nil {
			return nil, nil, ErrNotFound
		}
		data, err := d.blobData(ctx, out.Item)
		if err == nil {
			return out.Item, data, nil
		}
		if !errors.Is(err, errChunksChanged) || attempt >= 4 {
			return nil, nil, err
		}
	}
}

var errChunksChanged = errors.New("chunks do not match their manifest")

// blobData returns the value a manifest holds or points at, checked
// against its length and SHA-256.
func (d *Dynamo) blobData(ctx context.Context, man item) ([]byte, error) {
	if v, ok := man[attrData].(*types.AttributeValueMemberB); ok {
		return v.Value, nil
	}
	if _, ok := man[attrData]; ok {
		return nil, fmt.Errorf("item %s/%s: data is not binary", getS(man, AttrPK), getS(man, AttrSK))
	}
	gen := getS(man, attrGen)
	n, ok1 := getN(man, attrChunks)
	size, ok2 := getN(man, attrSize)
	if gen == "" || !ok1 || !ok2 {
		return nil, fmt.Errorf("item %s/%s: neither inline data nor chunks", getS(man, AttrPK), getS(man, AttrSK))
	}
	pk, sk := getS(man, AttrPK), getS(man, AttrSK)
	prefix := fmt.Sprintf("%s%s#%s#", skChunkPrefix, sk, gen)
	buf := make([]byte, 0, size)
	count := 0
	var start item
	for {
		out, err := d.db.Query(ctx, &dynamodb.QueryInput{
			TableName:              aws.String(d.table),
			KeyConditionExpression: aws.String("#pk = :pk AND begins_with(#sk, :prefix)"),
			ExpressionAttributeNames: map[string]string{
				"#pk": AttrPK, "#sk": AttrSK,
			},
			ExpressionAttributeValues: item{":pk": str(pk), ":prefix": str(prefix)},
			ConsistentRead:            aws.Bool(true),
			ExclusiveStartKey:         start,
		})
		if err != nil {
			return nil, fmt.Errorf("read chunks: %w", err)
		}
		for _, c := range out.Items {
			if getS(c, AttrSK) != chunkSK(sk, gen, count) {
				return nil, errChunksChanged
			}
			v, ok := c[attrData].(*types.AttributeValueMemberB)
			if !ok {
				return nil, errChunksChanged
			}
			buf = append(buf, v.Value...)
			count++
		}
		if out.LastEvaluatedKey == nil {
			break
		}
		start = out.LastEvaluatedKey
	}
	sum := sha256.Sum256(buf)
	if int64(count) != n || int64(len(buf)) != size || hex.EncodeToString(sum[:]) != getS(man, attrSHA) {
		return nil, errChunksChanged
	}
	return buf, nil
}

// queryAll runs a query to the end (or until stop returns true).
func (d *Dynamo) queryAll(ctx context.Context, in *dynamodb.QueryInput, each func(item) (stop bool)) error {
	in.TableName = aws.String(d.table)
	for {
		out, err := d.db.Query(ctx, in)
		if err != nil {
			return err
		}
		for _, it := range out.Items {
			if each(it) {
				return nil
			}
		}
		if out.LastEvaluatedKey == nil {
			return nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// getVersioned reads a versioned document.
func (d *Dynamo) getVersioned(ctx context.Context, pk, sk string) ([]byte, int64, error) {
	man, data, err := d.getBlob(ctx, pk, sk)
	if err != nil {
		return nil, 0, err
	}
	v, ok := getN(man, attrVersion)
	if !ok || v <= 0 {
		return nil, 0, fmt.Errorf("item %s/%s: missing version", pk, sk)
	}
	return data, v, nil
}

// putVersioned writes a document if the stored version is expected and
// returns the new version (expected+1).
func (d *Dynamo) putVersioned(ctx context.Context, pk, sk string, doc []byte, expected int64) (int64, error) {
	if expected < 0 {
		return 0, fmt.Errorf("%w: negative expected version %d", ErrInvalid, expected)
	}
	b := blob{
		pk: pk, sk: sk, data: doc,
		extra: item{attrVersion: num(expected + 1)},
	}
	if expected == 0 {
		b.cond = "attribute_not_exists(#pk)"
		b.names = map[string]string{"#pk": AttrPK}
	} else {
		b.cond = "#v = :v"
		b.names = map[string]string{"#v": attrVersion}
		b.values = item{":v": num(expected)}
	}
	if doc == nil {
		b.data = []byte{}
	}
	_, err := d.putBlob(ctx, b)
	if cf, ok := isConditionFailed(err); ok {
		stored, _ := getN(cf.Item, attrVersion)
		return 0, conflict(stored, expected)
	}
	if err != nil {
		return 0, err
	}
	return expected + 1, nil
}
