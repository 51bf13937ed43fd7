package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
)

// secretGetter is the part of *secretsmanager.Client the Slack sender uses.
type secretGetter interface {
	GetSecretValue(ctx context.Context, in *secretsmanager.GetSecretValueInput, optFns ...func(*secretsmanager.Options)) (*secretsmanager.GetSecretValueOutput, error)
}

var _ secretGetter = (*secretsmanager.Client)(nil)

// httpDoer is the part of *http.Client the Slack sender uses.
type httpDoer interface {
	Do(req *http.Request) (*http.Response, error)
}

// Slack posts alerts to an incoming webhook whose URL is a Secrets Manager
// secret: either the URL itself or a JSON object with a "url" (or
// "webhookUrl") field. The URL is fetched once and cached; a webhook that
// Slack reports gone (404/410) is fetched again on the next send.
type Slack struct {
	secrets  secretGetter
	secretID string
	http     httpDoer

	mu  sync.Mutex
	url webhookURL
}

// NewSlack returns a Slack sender. client may be nil (an HTTP client with a
// 15 s timeout).
func NewSlack(secrets secretGetter, secretID string, client httpDoer) *Slack {
	if client == nil {
		client = &http.Client{Timeout: 15 * time.Second}
	}
	return &Slack{secrets: secrets, secretID: secretID, http: client}
}

// Format prints the sender without its cached URL, whatever the verb.
func (k *Slack) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, "notify.Slack{secret: %s}", k.secretID)
}

// LogValue logs the sender without its cached URL.
func (k *Slack) LogValue() slog.Value {
	return slog.GroupValue(slog.String("secret", k.secretID))
}

// webhookURL holds the webhook URL; every way of printing it redacts it.
type webhookURL string

const redactedURL = "[redacted webhook URL]"

func (webhookURL) String() string                  { return redactedURL }
func (webhookURL) GoString() string                { return redactedURL }
func (webhookURL) LogValue() slog.Value            { return slog.StringValue(redactedURL) }
func (webhookURL) MarshalJSON() ([]byte, error)    { return json.Marshal(redactedURL) }
func (webhookURL) MarshalText() ([]byte, error)    { return []byte(redactedURL), nil }
func (w webhookURL) Format(f fmt.State, verb rune) { io.WriteString(f, redactedURL) }

// Send implements Sender.
func (k *Slack) Send(ctx context.Context, s Summary) error {
	payload, err := SlackPayload(s)
	if err != nil {
		return fmt.Errorf("slack %s: %w", s.Stack, err)
	}
	hook, err := k.webhook(ctx)
	if err != nil {
		return fmt.Errorf("slack %s: %w", s.Stack, err)
	}
	if err := k.post(ctx, hook, payload); err != nil {
		return fmt.Errorf("slack %s alert for %s: %w", s.Event, s.Stack, err)
	}
	return nil
}

func (k *Slack) webhook(ctx context.Context) (webhookURL, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.url != "" {
		return k.url, nil
	}
	out, err := k.secrets.GetSecretValue(ctx, &secretsmanager.GetSecretValueInput{SecretId: aws.String(k.secretID)})
	if err != nil {
		return "", fmt.Errorf("read webhook secret %s: %w", k.secretID, err)
	}
	raw := strings.TrimSpace(aws.ToString(out.SecretString))
	if strings.HasPrefix(raw, "{") {
		var obj struct {
			URL        string `json:"url"`
			WebhookURL string `json:"webhookUrl"`
		}
		if json.Unmarshal([]byte(raw), &obj) != nil {
			return "", fmt.Errorf("webhook secret %s: not a URL or a JSON object", k.secretID)
		}
		raw = obj.URL
		if raw == "" {
			raw = obj.WebhookURL
		}
	}
	if err := checkWebhook(raw); err != nil {
		return "", fmt.Errorf("webhook secret %s: %w", k.secretID, err)
	}
	k.url = webhookURL(raw)
	return k.url, nil
}

// checkWebhook accepts https URLs, and http only to a loopback host (local
// receivers in tests). Its errors never quote the URL.
func checkWebhook(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return errors.New("not a URL")
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if ip := net.ParseIP(u.Hostname()); (ip != nil && ip.IsLoopback()) || u.Hostname() == "localhost" {
			return nil
		}
	}
	return errors.New("webhook URL must be https")
}

func (k *Slack) forget(hook webhookURL) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.url == hook {
		k.url = ""
	}
}

func (k *Slack) post(ctx context.Context, hook webhookURL, payload []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, string(hook), bytes.NewReader(payload))
	if err != nil {
		return scrub(err, hook)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := k.http.Do(req)
	if err != nil {
		return scrub(err, hook)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode/100 == 2 {
		return nil
	}
	if resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone {
		k.forget(hook) // revoked or rotated: read the secret again next time
	}
	msg := scrubString(strings.TrimSpace(string(body)), hook)
	return fmt.Errorf("webhook answered HTTP %d: %s", resp.StatusCode, clip(msg, 200))
}

// scrub rebuilds err's message without the webhook URL or its path. The
// original error is not kept (its text and its *url.Error carry the URL);
// context cancellation stays testable with errors.Is.
func scrub(err error, hook webhookURL) error {
	msg := scrubString(err.Error(), hook)
	for _, c := range []error{context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, c) {
			return fmt.Errorf("post webhook: %s: %w", msg, c)
		}
	}
	return fmt.Errorf("post webhook: %s", msg)
}

func scrubString(s string, hook webhookURL) string {
	raw := string(hook)
	secrets := []string{raw}
	if u, err := url.Parse(raw); err == nil {
		secrets = append(secrets, u.String(), u.EscapedPath(), u.Path, u.RawQuery)
		for _, seg := range strings.Split(u.Path, "/") {
			if len(seg) >= 6 {
				secrets = append(secrets, seg)
			}
		}
	}
	for _, sec := range secrets {
		if sec != "" && sec != "/" {
			s = strings.ReplaceAll(s, sec, redactedURL)
		}
	}
	return s
}
