package iamauth

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// DynamoDBAsks is the Asker of DynamoDB (JSON 1.0, X-Amz-Target
// DynamoDB_20120810.Op) for tables whose partition key attribute is
// hashKey: each request asks dynamodb:Op on the table's ARN (an index's,
// for a Query or Scan naming one) with dynamodb:LeadingKeys the partition
// key values it touches, as AWS evaluates fine-grained access:
//
//   - GetItem, PutItem, UpdateItem, DeleteItem: the item's key;
//   - Query: the value the key condition binds the partition key to;
//   - BatchGetItem, BatchWriteItem: one question per table, every key of
//     the batch for that table;
//   - TransactGetItems, TransactWriteItems: one question per item, with its
//     own action (dynamodb:ConditionCheckItem for a condition check);
//   - anything else (Scan, DescribeTable, CreateTable, ...): no keys.
//
// A string partition key only (S); any other key type, or a key condition
// it cannot read, is an error: the guard refuses the request rather than
// evaluate it without its keys.
func DynamoDBAsks(hashKey string) Asker {
	return func(r *http.Request, body []byte, account, region string) ([]Ask, error) {
		op, ok := strings.CutPrefix(r.Header.Get("X-Amz-Target"), "DynamoDB_20120810.")
		if !ok {
			return nil, fmt.Errorf("X-Amz-Target %q is not a DynamoDB operation", r.Header.Get("X-Amz-Target"))
		}
		arn := func(table, index string) string {
			a := "arn:aws:dynamodb:" + region + ":" + account + ":table/" + table
			if index != "" {
				a += "/index/" + index
			}
			return a
		}
		var in struct {
			TableName                 string
			IndexName                 string
			Key                       map[string]map[string]any
			Item                      map[string]map[string]any
			KeyConditionExpression    string
			ExpressionAttributeNames  map[string]string
			ExpressionAttributeValues map[string]map[string]any
			RequestItems              map[string]json.RawMessage
			TransactItems             []map[string]json.RawMessage
		}
		if len(body) > 0 {
			if err := json.Unmarshal(body, &in); err != nil {
				return nil, fmt.Errorf("%s: %w", op, err)
			}
		}
		single := func(keys ...string) []Ask {
			return []Ask{{Action: "dynamodb:" + op, Resource: arn(in.TableName, ""), Keys: map[string][]string{"dynamodb:LeadingKeys": keys}}}
		}
		switch op {
		case "GetItem", "UpdateItem", "DeleteItem":
			k, err := stringKey(in.Key, hashKey)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", op, err)
			}
			return single(k), nil
		case "PutItem":
			k, err := stringKey(in.Item, hashKey)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", op, err)
			}
			return single(k), nil
		case "Query":
			k, err := queryKey(in.KeyConditionExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues, hashKey)
			if err != nil && in.IndexName == "" {
				return nil, fmt.Errorf("Query: %w", err)
			}
			a := Ask{Action: "dynamodb:Query", Resource: arn(in.TableName, in.IndexName)}
			if err == nil && in.IndexName == "" {
				a.Keys = map[string][]string{"dynamodb:LeadingKeys": {k}}
			}
			return []Ask{a}, nil
		case "BatchGetItem", "BatchWriteItem":
			var asks []Ask
			for _, table := range world.SortedKeys(in.RequestItems) {
				keys, err := batchKeys(op, in.RequestItems[table], hashKey)
				if err != nil {
					return nil, fmt.Errorf("%s %s: %w", op, table, err)
				}
				asks = append(asks, Ask{Action: "dynamodb:" + op, Resource: arn(table, ""), Keys: map[string][]string{"dynamodb:LeadingKeys": keys}})
			}
			return asks, nil
		case "TransactGetItems", "TransactWriteItems":
			var asks []Ask
			for i, item := range in.TransactItems {
				for kind, raw := range item {
					var el struct {
						TableName string
						Key       map[string]map[string]any
						Item      map[string]map[string]any
					}
					if err := json.Unmarshal(raw, &el); err != nil {
						return nil, fmt.Errorf("%s item %d: %w", op, i, err)
					}
					action, ok := transactActions[kind]
					if !ok {
						return nil, fmt.Errorf("%s item %d: unknown kind %q", op, i, kind)
					}
					src := el.Key
					if kind == "Put" {
						src = el.Item
					}
					k, err := stringKey(src, hashKey)
					if err != nil {
						return nil, fmt.Errorf("%s item %d: %w", op, i, err)
					}
					asks = append(asks, Ask{Action: action, Resource: arn(el.TableName, ""), Keys: map[string][]string{"dynamodb:LeadingKeys": {k}}})
				}
			}
			return asks, nil
		case "Scan":
			return []Ask{{Action: "dynamodb:Scan", Resource: arn(in.TableName, in.IndexName)}}, nil
		}
		res := "*"
		if in.TableName != "" {
			res = arn(in.TableName, "")
		}
		return []Ask{{Action: "dynamodb:" + op, Resource: res}}, nil
	}
}

// transactActions are the IAM actions of a transaction's item kinds.
var transactActions = map[string]string{
	"Get": "dynamodb:GetItem", "Put": "dynamodb:PutItem", "Update": "dynamodb:UpdateItem",
	"Delete": "dynamodb:DeleteItem", "ConditionCheck": "dynamodb:ConditionCheckItem",
}

// stringKey is the string value of attribute name in an item or key.
func stringKey(item map[string]map[string]any, name string) (string, error) {
	av, ok := item[name]
	if !ok {
		return "", fmt.Errorf("no %s attribute", name)
	}
	s, ok := av["S"].(string)
	if !ok {
		return "", fmt.Errorf("attribute %s is not a string", name)
	}
	return s, nil
}

// batchKeys are the partition keys of one table's batch entries.
func batchKeys(op string, raw json.RawMessage, hashKey string) ([]string, error) {
	var keys []string
	if op == "BatchGetItem" {
		var in struct{ Keys []map[string]map[string]any }
		if err := json.Unmarshal(raw, &in); err != nil {
			return nil, err
		}
		for _, k := range in.Keys {
			v, err := stringKey(k, hashKey)
			if err != nil {
				return nil, err
			}
			keys = append(keys, v)
		}
		return keys, nil
	}
	var reqs []struct {
		PutRequest    *struct{ Item map[string]map[string]any }
		DeleteRequest *struct{ Key map[string]map[string]any }
	}
	if err := json.Unmarshal(raw, &reqs); err != nil {
		return nil, err
	}
	for _, q := range reqs {
		var src map[string]map[string]any
		switch {
		case q.PutRequest != nil:
			src = q.PutRequest.Item
		case q.DeleteRequest != nil:
			src = q.DeleteRequest.Key
		}
		v, err := stringKey(src, hashKey)
		if err != nil {
			return nil, err
		}
		keys = append(keys, v)
	}
	return keys, nil
}

// keyClause is one comparison of a key condition: name-or-#placeholder,
// operator, :value.
var keyClause = regexp.MustCompile(`^\s*\(?\s*([#\w.]+)\s*=\s*(:\w+)\s*\)?\s*$`)

// queryKey is the value a Query's key condition binds the partition key
// to (expr's "= :v" clause on it; AND joins the sort key's clause).
func queryKey(expr string, names map[string]string, values map[string]map[string]any, hashKey string) (string, error) {
	for _, clause := range regexp.MustCompile(`(?i)\s+AND\s+`).Split(expr, -1) {
		m := keyClause.FindStringSubmatch(clause)
		if m == nil {
			continue
		}
		name := m[1]
		if strings.HasPrefix(name, "#") {
			name = names[name]
		}
		if name != hashKey {
			continue
		}
		v, ok := values[m[2]]
		if !ok {
			return "", fmt.Errorf("key condition value %s is not given", m[2])
		}
		s, ok := v["S"].(string)
		if !ok {
			return "", fmt.Errorf("key condition value %s is not a string", m[2])
		}
		return s, nil
	}
	return "", fmt.Errorf("key condition %q binds no value to %s", expr, hashKey)
}
