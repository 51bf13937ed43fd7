package service_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/store/storetest"
)

// dynamoLocal is DynamoDB Local as found or started by this test binary.
var dynamoLocal storetest.DynamoLocal

func TestMain(m *testing.M) {
	// Started as the acceptance script's realdrift (TestAcceptanceScript).
	if code, ok := runCLI(); ok {
		os.Exit(code)
	}
	code := m.Run()
	dynamoLocal.Stop()
	os.Exit(code)
}

// webhook is the Slack incoming webhook: it records every post.
type webhook struct {
	mu    sync.Mutex
	posts []string
}

func (h *webhook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || !json.Valid(b) {
		http.Error(w, "invalid_payload", http.StatusBadRequest)
		return
	}
	h.mu.Lock()
	h.posts = append(h.posts, string(b))
	h.mu.Unlock()
	io.WriteString(w, "ok")
}

// alerts returns how many posts each stack got, keyed
// account/region/stack (read from the message's Stack, Account and Region
// fields).
func (h *webhook) alerts() map[string]int {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := map[string]int{}
	for _, p := range h.posts {
		out[postStack(p)]++
	}
	return out
}

// postStack is the account/region/stack a post is about (read from the
// message's Stack, Account and Region fields).
func postStack(p string) string {
	var msg struct {
		Blocks []struct {
			Fields []struct{ Text string }
		}
	}
	_ = json.Unmarshal([]byte(p), &msg)
	f := map[string]string{}
	for _, b := range msg.Blocks {
		for _, fl := range b.Fields {
			if k, v, ok := strings.Cut(fl.Text, "\n"); ok {
				f[strings.Trim(k, "*")] = v
			}
		}
	}
	return f["Account"] + "/" + f["Region"] + "/" + f["Stack"]
}

// writerIn returns the "changed by NAME (agent)" of the last post for a
// stack (keyed as alerts keys it) if it names name ("" if not).
func (h *webhook) writerIn(stack, name string) string {
	h.mu.Lock()
	posts := slices.Clone(h.posts)
	h.mu.Unlock()
	mark := "changed by " + name + " ("
	for i := len(posts) - 1; i >= 0; i-- {
		if postStack(posts[i]) != stack {
			continue
		}
		if j := strings.Index(posts[i], mark); j >= 0 {
			rest := posts[i][j:]
			if k := strings.IndexByte(rest, ')'); k >= 0 {
				return rest[:k+1]
			}
		}
		return ""
	}
	return ""
}

func (h *webhook) total() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.posts)
}

// secrets answers Secrets Manager's GetSecretValue (JSON 1.1) with one
// secret.
type secrets struct {
	id, value string
}

func (s secrets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var in struct{ SecretId string }
	if r.Header.Get("X-Amz-Target") != "secretsmanager.GetSecretValue" || json.NewDecoder(r.Body).Decode(&in) != nil {
		http.Error(w, `{"__type":"InvalidRequestException"}`, http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	if in.SecretId != s.id {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"__type":"ResourceNotFoundException","message":"Secrets Manager can't find the specified secret."}`)
		return
	}
	json.NewEncoder(w).Encode(map[string]any{"ARN": slackSecretArn(), "Name": s.id, "SecretString": s.value, "VersionId": "v1"})
}

// starts records Step Functions StartExecution calls (JSON 1.0), one per
// execution: StartExecution is idempotent for the same machine, name and
// input, so an SDK retry of a call that reached it (a slow answer on a busy
// machine) is the same execution, not a second check, and is recorded once.
type starts struct {
	mu    sync.Mutex
	calls []startCall
}

type startCall struct {
	StateMachineArn string `json:"stateMachineArn"`
	Name            string `json:"name"`
	Input           string `json:"input"`
}

func (s *starts) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var in startCall
	if r.Header.Get("X-Amz-Target") != "AWSStepFunctions.StartExecution" || json.NewDecoder(r.Body).Decode(&in) != nil {
		http.Error(w, `{"__type":"InvalidRequestException"}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	if !slices.Contains(s.calls, in) {
		s.calls = append(s.calls, in)
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	arn := strings.Replace(in.StateMachineArn, ":stateMachine:", ":express:", 1) + ":" + in.Name + ":e2e"
	json.NewEncoder(w).Encode(map[string]any{"executionArn": arn, "startDate": float64(time.Now().Unix())})
}

func (s *starts) taken() []startCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.calls
	s.calls = nil
	return out
}

// events records EventBridge PutEvents calls (JSON 1.1) by detail-type.
type events struct {
	mu      sync.Mutex
	entries []eventEntry
}

type eventEntry struct {
	Source, DetailType, Detail, EventBusName string
}

func (e *events) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var in struct{ Entries []eventEntry }
	if r.Header.Get("X-Amz-Target") != "AWSEvents.PutEvents" || json.NewDecoder(r.Body).Decode(&in) != nil {
		http.Error(w, `{"__type":"ValidationException"}`, http.StatusBadRequest)
		return
	}
	e.mu.Lock()
	e.entries = append(e.entries, in.Entries...)
	e.mu.Unlock()
	out := []map[string]string{}
	for range in.Entries {
		out = append(out, map[string]string{"EventId": "e2e"})
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	json.NewEncoder(w).Encode(map[string]any{"FailedEntryCount": 0, "Entries": out})
}

// count returns how many events of each detail-type were put.
func (e *events) count() map[string]int {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := map[string]int{}
	for _, x := range e.entries {
		out[x.DetailType]++
	}
	return out
}

// logBuffer collects the handlers' log lines; handlers run concurrently.
type logBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
