package live

import (
	"context"
	"fmt"
	"strings"
)

// readAttachedPolicy reads a policy resource that attaches one document to
// the targets its template lists under prop (AWS::SQS::QueuePolicy's
// Queues, AWS::SNS::TopicPolicy's Topics). Such a resource's physical id is
// a generated id no API accepts, so the targets are the declared ones. Live
// prop lists the declared targets whose policy get finds; PolicyDocument is
// the first of them. No target with a policy means the policy was deleted
// (ErrNotFound).
func readAttachedPolicy(ctx context.Context, c *Clients, r Request, prop string,
	get func(ctx context.Context, c *Clients, target string) (map[string]any, error)) (map[string]any, error) {
	targets, err := declaredStrings(r.Declared, prop)
	if err != nil {
		return nil, err
	}
	if len(targets) == 0 {
		return nil, skip("declared " + prop + " is empty")
	}
	var have []string
	var doc map[string]any
	for _, t := range targets {
		d, err := get(ctx, c, t)
		if isNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if doc == nil {
			doc = d
		}
		have = append(have, t)
	}
	if doc == nil {
		return nil, fmt.Errorf("policy of %s %v: %w", strings.ToLower(prop), targets, ErrNotFound)
	}
	return map[string]any{prop: strList(have), "PolicyDocument": doc}, nil
}
