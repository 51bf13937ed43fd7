package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	smtypes "github.com/aws/aws-sdk-go-v2/service/secretsmanager/types"

	"github.com/realdrift/realdrift/internal/notify"
)

// channel is one alert channel: its name keys the per-channel delivery
// record, so a retry or the next check re-sends only to the channels that
// have not delivered the current drift set.
type channel struct {
	name string
	send notify.Sender
}

// errUnset marks a channel that is not configured (yet): it is skipped
// with one warning per process, never a failed check.
var errUnset = errors.New("alert channel not configured")

// secretReader is the Secrets Manager call the Slack channel makes.
type secretReader interface {
	GetSecretValue(ctx context.Context, in *secretsmanager.GetSecretValueInput, optFns ...func(*secretsmanager.Options)) (*secretsmanager.GetSecretValueOutput, error)
}

var _ secretReader = (*secretsmanager.Client)(nil)

// slackRecheck is how long a Slack secret found unset stays so before it is
// read again (a warm Lambda sees a value set after deploying).
const slackRecheck = 5 * time.Minute

// slackChannel is the Slack sender behind a check of its webhook secret:
// a secret that does not exist, has no value, or holds no webhook URL (the
// random value CloudFormation generates, "unset", an empty object) turns
// the channel off until it does.
type slackChannel struct {
	secrets secretReader
	id      string
	slack   *notify.Slack
	now     func() time.Time

	mu        sync.Mutex
	checkedAt time.Time
	unset     string
}

// Send implements notify.Sender.
func (c *slackChannel) Send(ctx context.Context, s notify.Summary) error {
	why, err := c.configured(ctx)
	if err != nil {
		return err
	}
	if why != "" {
		return fmt.Errorf("%w: slack webhook secret %s %s", errUnset, c.id, why)
	}
	return c.slack.Send(ctx, s)
}

// configured reads the secret (at most every slackRecheck while unset) and
// says why the channel is off, or "".
func (c *slackChannel) configured(ctx context.Context) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.checkedAt.IsZero() && (c.unset == "" || c.now().Sub(c.checkedAt) < slackRecheck) {
		return c.unset, nil
	}
	out, err := c.secrets.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String(c.id)})
	var nf *smtypes.ResourceNotFoundException
	switch {
	case errors.As(err, &nf):
		c.unset = "has no value"
	case err != nil:
		return "", fmt.Errorf("read slack webhook secret %s: %w", c.id, err)
	default:
		c.unset = placeholder(aws.ToString(out.SecretString))
	}
	c.checkedAt = c.now()
	return c.unset, nil
}

// placeholder says why a secret value holds no webhook URL, or "" when it
// holds one (a URL, or a JSON object with url or webhookUrl). The reason
// never quotes the value.
func placeholder(v string) string {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "{") {
		var obj struct {
			URL        string `json:"url"`
			WebhookURL string `json:"webhookUrl"`
		}
		if json.Unmarshal([]byte(v), &obj) != nil {
			return "holds neither a URL nor a JSON object"
		}
		v = obj.URL + obj.WebhookURL
	}
	if !strings.Contains(v, "://") {
		return "holds no webhook URL (a placeholder)"
	}
	return ""
}
