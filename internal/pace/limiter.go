package pace

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DefaultRate is the default read rate, in calls per second per account
// and region.
const DefaultRate = 10.0

// Key layout of the pace items (internal/store/layout.go names the others;
// infra grants the prefix to the reading functions).
const (
	PKPrefix = "PACE#"
	sortKey  = "PACE"
	attrNext = "next"
	attrTTL  = "ttl"
	attrPK   = "pk"
	attrSK   = "sk"
)

// itemTTL is how long an idle pace item stays: an hour past its schedule.
const itemTTL = time.Hour

// updater is the DynamoDB call the limiter makes.
type updater interface {
	UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
}

var _ updater = (*dynamodb.Client)(nil)

// Options configure a Limiter.
type Options struct {
	// Rate is the calls per second allowed per account and region
	// (DefaultRate when ≤ 0).
	Rate float64
	// MaxBlock bounds the calls reserved by one write (default 8).
	MaxBlock int
	// Now is the clock (time.Now when nil); Sleep waits d or until ctx
	// ends (a timer when nil).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// Limiter paces calls per account and region against the shared schedule
// in the table. It is safe for concurrent use; build one per process.
type Limiter struct {
	db    updater
	table string
	rate  float64
	block int
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error

	mu    sync.Mutex
	keys  map[string]*queue
	stats Stats
}

// Stats count a limiter's work.
type Stats struct {
	// Calls are the slots handed out; Reservations the table writes that
	// reserved them (conditional failures included).
	Calls        int
	Reservations int
	// Waited is the total time callers slept for their slot.
	Waited time.Duration
	// Full counts the callers refused because their slot was past their
	// deadline (ErrScheduleFull).
	Full int
}

// queue is one account-region's reserved, not yet used slots in this
// process.
type queue struct {
	slots   []time.Time
	waiting int
	// reserving is closed when the reservation under way ends; nil when
	// none is.
	reserving chan struct{}
	// err is the last reservation's error, for its waiters.
	err error
	// seenNext is the schedule's end as last seen, to pick which
	// conditional write to try first.
	seenNext int64
}

// New returns a Limiter over table (pk/sk keys, as internal/store lays it
// out).
func New(db updater, table string, o Options) *Limiter {
	l := &Limiter{db: db, table: table, rate: o.Rate, block: o.MaxBlock, now: o.Now, sleep: o.Sleep, keys: map[string]*queue{}}
	if l.rate <= 0 {
		l.rate = DefaultRate
	}
	if l.block <= 0 {
		l.block = 8
	}
	if l.now == nil {
		l.now = time.Now
	}
	if l.sleep == nil {
		l.sleep = sleepCtx
	}
	return l
}

// Rate is the limit in calls per second per account and region.
func (l *Limiter) Rate() float64 { return l.rate }

// Stats returns the limiter's counts so far.
func (l *Limiter) Stats() Stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stats
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Wait blocks until the caller may make one call to account and region:
// it takes a slot this process reserved, reserving more (for every caller
// waiting here, up to MaxBlock) when none is left, and sleeps until the
// slot's time. It fails only when ctx ends or the table cannot be written.
func (l *Limiter) Wait(ctx context.Context, account, region string) error {
	k := account + "#" + region
	l.mu.Lock()
	q := l.keys[k]
	if q == nil {
		q = &queue{}
		l.keys[k] = q
	}
	q.waiting++
	for len(q.slots) == 0 {
		if q.reserving != nil {
			ch := q.reserving
			l.mu.Unlock()
			select {
			case <-ch:
			case <-ctx.Done():
				l.mu.Lock()
				q.waiting--
				l.mu.Unlock()
				return ctx.Err()
			}
			l.mu.Lock()
			// The reservation's own context ending is not this caller's
			// failure: it reserves itself on the next round.
			if err := q.err; err != nil && len(q.slots) == 0 && !isContextErr(err) {
				q.waiting--
				l.mu.Unlock()
				return err
			}
			continue
		}
		n := min(q.waiting, l.block)
		ch := make(chan struct{})
		q.reserving, q.err = ch, nil
		seen := q.seenNext
		l.mu.Unlock()
		start, next, writes, err := l.reserve(ctx, k, n, seen)
		l.mu.Lock()
		l.stats.Reservations += writes
		q.reserving, q.err = nil, err
		close(ch)
		if err != nil {
			q.waiting--
			l.mu.Unlock()
			return err
		}
		q.seenNext = next
		step := l.interval()
		for i := range n {
			q.slots = append(q.slots, start.Add(time.Duration(i)*step))
		}
	}
	slot := q.slots[0]
	q.slots = q.slots[1:]
	q.waiting--
	// A slot past the caller's deadline would only time the call out: the
	// schedule is full for now, which the caller hears as ErrScheduleFull
	// (a throttle) at once, not as a timeout later.
	if dl, ok := ctx.Deadline(); ok && slot.After(dl) {
		l.stats.Full++
		l.mu.Unlock()
		return ErrScheduleFull
	}
	l.stats.Calls++
	d := slot.Sub(l.now())
	if d > 0 {
		l.stats.Waited += d
	}
	l.mu.Unlock()
	return l.sleep(ctx, d)
}

// ErrScheduleFull is Wait's answer when the account-region's schedule has
// no slot before the caller's deadline: the caller is throttled by the
// sweep's own limit (IsThrottle reports it), and should come back later.
var ErrScheduleFull = errors.New("the account-region's call schedule is full until past this call's deadline")

// interval is the spacing of calls of one account-region.
func (l *Limiter) interval() time.Duration {
	return time.Duration(float64(time.Second) / l.rate)
}

// maxTries bounds the conditional writes of one reservation (each failure
// means another writer moved the schedule in between; the next try uses
// the other branch).
const maxTries = 8

// reserve moves key's schedule by n calls and returns the first reserved
// slot, the schedule's new end (µs) and the writes it took.
func (l *Limiter) reserve(ctx context.Context, key string, n int, seenNext int64) (time.Time, int64, int, error) {
	d := int64(math.Ceil(float64(n) * 1e6 / l.rate))
	busyFirst := seenNext > l.now().UnixMicro()
	for try := 0; try < maxTries; try++ {
		now := l.now().UnixMicro()
		busy := busyFirst == (try%2 == 0)
		in := &dynamodb.UpdateItemInput{
			TableName:                aws.String(l.table),
			Key:                      map[string]types.AttributeValue{attrPK: str(PKPrefix + key), attrSK: str(sortKey)},
			ExpressionAttributeNames: map[string]string{"#n": attrNext, "#t": attrTTL},
			ReturnValues:             types.ReturnValueUpdatedNew,
		}
		ttl := num(time.UnixMicro(now + d).Add(itemTTL).Unix())
		if busy {
			in.UpdateExpression = aws.String("SET #n = #n + :d, #t = :ttl")
			in.ConditionExpression = aws.String("#n >= :now")
			in.ExpressionAttributeValues = map[string]types.AttributeValue{":d": num(d), ":now": num(now), ":ttl": ttl}
		} else {
			in.UpdateExpression = aws.String("SET #n = :end, #t = :ttl")
			in.ConditionExpression = aws.String("attribute_not_exists(#n) OR #n < :now")
			in.ExpressionAttributeValues = map[string]types.AttributeValue{":end": num(now + d), ":now": num(now), ":ttl": ttl}
		}
		out, err := l.db.UpdateItem(ctx, in)
		var ccf *types.ConditionalCheckFailedException
		if errors.As(err, &ccf) {
			continue
		}
		if err != nil {
			return time.Time{}, 0, try + 1, fmt.Errorf("pace %s: %w", key, err)
		}
		end, err := getN(out.Attributes[attrNext])
		if err != nil {
			return time.Time{}, 0, try + 1, fmt.Errorf("pace %s: %w", key, err)
		}
		return time.UnixMicro(end - d), end, try + 1, nil
	}
	return time.Time{}, 0, maxTries, fmt.Errorf("pace %s: the schedule kept moving under %d conditional writes", key, maxTries)
}

func isContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

func str(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

func num(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

func getN(v types.AttributeValue) (int64, error) {
	n, ok := v.(*types.AttributeValueMemberN)
	if !ok {
		return 0, fmt.Errorf("schedule item: %q is not a number", attrNext)
	}
	return strconv.ParseInt(n.Value, 10, 64)
}
