package service

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/store"
)

// debounceAPI is the part of *dynamodb.Client the debouncer uses.
type debounceAPI interface {
	UpdateItem(ctx context.Context, in *dynamodb.UpdateItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error)
	Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error)
	DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
}

var _ debounceAPI = (*dynamodb.Client)(nil)

// debouncer debounces change events per stack on the trailing edge: an
// event opens the stack's window, or extends it to the event's time plus
// the window; the stack is checked once, by a flush after its window
// closed (no change for a whole window), or once its first change is
// MaxWaitFactor windows old, so a stack that keeps changing is still
// checked. Each stack with a pending change is one item of the partition
// TRIGGER#PENDING (sk <account>#<region>#<stack>): an event is one
// UpdateItem, a flush one Query plus, per due stack, a StartExecution and
// a DeleteItem conditional on the window it read (a change that extended
// the window meanwhile keeps it pending). One partition holds every
// pending stack: far below a partition's write limit, since the rule
// filters the events and each stack has one item.
type debouncer struct {
	db    debounceAPI
	table string
}

// MaxWaitFactor bounds a window that keeps being extended: a stack is
// checked at the latest this many windows after its first pending change.
const MaxWaitFactor = 3

const (
	pkTrigger    = "TRIGGER#"
	pkPending    = pkTrigger + "PENDING"
	attrUntil    = "until"
	attrFirst    = "first"
	attrEvent    = "event"
	attrAccount  = "account"
	attrRegion   = "region"
	attrStack    = "stack"
	maxFlushPage = 100
)

// pending is one stack's pending change (its open window).
type pending struct {
	Stack drift.StackRef
	// First is when the first pending change arrived, Until when the
	// window closes (the last change plus the window), in milliseconds.
	First, Until int64
	// Event is the first pending change's event id (it names the check).
	Event string
}

func pendingKey(s drift.StackRef) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		store.AttrPK: &types.AttributeValueMemberS{Value: pkPending},
		store.AttrSK: &types.AttributeValueMemberS{Value: s.Account + "#" + s.Region + "#" + s.Name},
	}
}

func num(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

func str(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

// extend records a change to stack at now: it opens the stack's window
// (until now+window) or moves its end to now+window, never backwards. It
// reports whether it opened the window.
func (d *debouncer) extend(ctx context.Context, stack drift.StackRef, event string, now time.Time, window time.Duration) (bool, error) {
	until := now.Add(window).UnixMilli()
	out, err := d.db.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName: aws.String(d.table),
		Key:       pendingKey(stack),
		UpdateExpression: aws.String("SET #until = :until, #first = if_not_exists(#first, :now), #event = if_not_exists(#event, :event), " +
			"#account = :account, #region = :region, #stack = :stack, #ttl = :ttl"),
		ConditionExpression: aws.String("attribute_not_exists(#until) OR #until < :until"),
		ExpressionAttributeNames: map[string]string{
			"#until": attrUntil, "#first": attrFirst, "#event": attrEvent, "#account": attrAccount,
			"#region": attrRegion, "#stack": attrStack, "#ttl": store.AttrTTL,
		},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":until": num(until), ":now": num(now.UnixMilli()), ":event": str(event),
			":account": str(stack.Account), ":region": str(stack.Region), ":stack": str(stack.Name),
			// Kept a day past the longest wait, so a window whose flush
			// never came does not linger.
			":ttl": num(now.Add(MaxWaitFactor*window + 24*time.Hour).Unix()),
		},
		ReturnValues: types.ReturnValueUpdatedOld,
	})
	var cf *types.ConditionalCheckFailedException
	if errors.As(err, &cf) {
		return false, nil // a later change already holds the window open longer
	}
	if err != nil {
		return false, fmt.Errorf("debounce %s: %w", stack, err)
	}
	_, had := out.Attributes[attrUntil]
	return !had, nil
}

// due returns the pending windows a flush at now starts, and how many stay
// pending: a window is due when it closed (until <= now) or its first
// change is MaxWaitFactor windows old.
func (d *debouncer) due(ctx context.Context, now time.Time, window time.Duration) ([]pending, int, error) {
	var due []pending
	waiting := 0
	maxWait := (MaxWaitFactor * window).Milliseconds()
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(d.table),
		KeyConditionExpression:    aws.String("#pk = :pk"),
		ExpressionAttributeNames:  map[string]string{"#pk": store.AttrPK},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": str(pkPending)},
		ConsistentRead:            aws.Bool(true),
		Limit:                     aws.Int32(maxFlushPage),
	}
	for {
		out, err := d.db.Query(ctx, in)
		if err != nil {
			return nil, 0, fmt.Errorf("pending checks: %w", err)
		}
		for _, it := range out.Items {
			w, ok := decodeWindow(it)
			if !ok {
				continue // not a window item: never started, never deleted
			}
			if w.Until <= now.UnixMilli() || w.First+maxWait <= now.UnixMilli() {
				due = append(due, w)
			} else {
				waiting++
			}
		}
		if out.LastEvaluatedKey == nil {
			return due, waiting, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

func decodeWindow(it map[string]types.AttributeValue) (pending, bool) {
	s := func(k string) string {
		v, _ := it[k].(*types.AttributeValueMemberS)
		if v == nil {
			return ""
		}
		return v.Value
	}
	n := func(k string) (int64, bool) {
		v, _ := it[k].(*types.AttributeValueMemberN)
		if v == nil {
			return 0, false
		}
		x, err := strconv.ParseInt(v.Value, 10, 64)
		return x, err == nil
	}
	until, ok1 := n(attrUntil)
	first, ok2 := n(attrFirst)
	w := pending{Stack: drift.StackRef{Account: s(attrAccount), Region: s(attrRegion), Name: s(attrStack)}, First: first, Until: until, Event: s(attrEvent)}
	return w, ok1 && ok2 && w.Stack.Account != "" && w.Stack.Region != "" && w.Stack.Name != ""
}

// done closes a window once its check started, unless a change extended
// it meanwhile (then it stays pending, for the next flush).
func (d *debouncer) done(ctx context.Context, w pending) error {
	_, err := d.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:                 aws.String(d.table),
		Key:                       pendingKey(w.Stack),
		ConditionExpression:       aws.String("#until = :until"),
		ExpressionAttributeNames:  map[string]string{"#until": attrUntil},
		ExpressionAttributeValues: map[string]types.AttributeValue{":until": num(w.Until)},
	})
	var cf *types.ConditionalCheckFailedException
	if err != nil && !errors.As(err, &cf) {
		return fmt.Errorf("close debounce window %s: %w", w.Stack, err)
	}
	return nil
}
