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
	PutItem(ctx context.Context, in *dynamodb.PutItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error)
	DeleteItem(ctx context.Context, in *dynamodb.DeleteItemInput, optFns ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error)
}

var _ debounceAPI = (*dynamodb.Client)(nil)

// debouncer lets one trigger per stack through per window: a conditional
// write of the item TRIGGER#<acct>#<region>#<stack> / DEBOUNCE in the
// store's table, which succeeds only when no unexpired window exists.
type debouncer struct {
	db    debounceAPI
	table string
}

const (
	pkTrigger  = "TRIGGER#"
	skDebounce = "DEBOUNCE"
	attrUntil  = "until"
	attrOwner  = "owner"
)

func debounceKey(s drift.StackRef) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{
		store.AttrPK: &types.AttributeValueMemberS{Value: pkTrigger + s.Account + "#" + s.Region + "#" + s.Name},
		store.AttrSK: &types.AttributeValueMemberS{Value: skDebounce},
	}
}

// acquire opens a window of length window for stack, owned by owner. It
// reports false when a window is still open, even one the same event opened
// (a redelivered event whose check started must not start another).
func (d *debouncer) acquire(ctx context.Context, stack drift.StackRef, owner string, now time.Time, window time.Duration) (bool, error) {
	until := now.Add(window)
	it := debounceKey(stack)
	it[attrUntil] = &types.AttributeValueMemberN{Value: strconv.FormatInt(until.UnixMilli(), 10)}
	it[attrOwner] = &types.AttributeValueMemberS{Value: owner}
	it[store.AttrTTL] = &types.AttributeValueMemberN{Value: strconv.FormatInt(until.Unix()+1, 10)}
	_, err := d.db.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:           aws.String(d.table),
		Item:                it,
		ConditionExpression: aws.String("attribute_not_exists(#pk) OR #until <= :now"),
		ExpressionAttributeNames: map[string]string{
			"#pk": store.AttrPK, "#until": attrUntil,
		},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":now": &types.AttributeValueMemberN{Value: strconv.FormatInt(now.UnixMilli(), 10)},
		},
	})
	var cf *types.ConditionalCheckFailedException
	if errors.As(err, &cf) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("debounce %s: %w", stack, err)
	}
	return true, nil
}

// release closes owner's window early (its check could not be started), so
// a retried event is not debounced by its own failed attempt.
func (d *debouncer) release(ctx context.Context, stack drift.StackRef, owner string) error {
	_, err := d.db.DeleteItem(ctx, &dynamodb.DeleteItemInput{
		TableName:                 aws.String(d.table),
		Key:                       debounceKey(stack),
		ConditionExpression:       aws.String("#owner = :owner"),
		ExpressionAttributeNames:  map[string]string{"#owner": attrOwner},
		ExpressionAttributeValues: map[string]types.AttributeValue{":owner": &types.AttributeValueMemberS{Value: owner}},
	})
	var cf *types.ConditionalCheckFailedException
	if err != nil && !errors.As(err, &cf) {
		return fmt.Errorf("release debounce %s: %w", stack, err)
	}
	return nil
}
