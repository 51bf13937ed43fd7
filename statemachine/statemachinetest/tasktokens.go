package statemachinetest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// TaskTokens is the callback side of Step Functions for local runs: it
// answers SendTaskSuccess, SendTaskFailure and SendTaskHeartbeat (JSON 1.0,
// X-Amz-Target AWSStepFunctions.<Op>) as Step Functions does, so the code
// under test sends decisions through a real *sfn.Client; and it serves
// scripts/sfn/run.js the tokens' registrations, waits and expiries
// (/local/register, /local/await, /local/expire: a Task whose
// TimeoutSeconds or HeartbeatSeconds passed; later answers to its token are
// refused with TaskTimedOut). Point statemachine.Run.TaskTokens and the clients'
// Step Functions endpoint at URL.
type TaskTokens struct {
	URL string

	mu      sync.Mutex
	tasks   map[string]*task
	waiting chan string
}

// task is one registered token and, once decided, its decision.
type task struct {
	decided chan struct{}
	output  string
	err     string
	cause   string
	awaited bool // run.js waits on it
	// heartbeats counts SendTaskHeartbeat calls; expired is set when the
	// Task timed out (a later answer is refused with TaskTimedOut).
	heartbeats int
	expired    bool
}

// ServeTaskTokens starts a TaskTokens server; it stops when the test ends.
func ServeTaskTokens(t testing.TB) *TaskTokens {
	t.Helper()
	tt := &TaskTokens{tasks: map[string]*task{}, waiting: make(chan string, 16)}
	srv := httptest.NewServer(tt)
	t.Cleanup(srv.Close)
	tt.URL = srv.URL
	return tt
}

// Awaiting returns the next token a Task waits on: its Lambda has returned
// (so whatever the Lambda stored for the decision is in place).
func (tt *TaskTokens) Awaiting(ctx context.Context) (string, error) {
	select {
	case tok := <-tt.waiting:
		return tok, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Register makes token a waiting task, as run.js does before it invokes
// the task's Lambda (for tests that answer a token without a run).
func (tt *TaskTokens) Register(token string) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	tt.tasks[token] = &task{decided: make(chan struct{})}
}

// Decision returns what token was answered with: SendTaskSuccess's output,
// or SendTaskFailure's error and cause; ok is false while undecided.
func (tt *TaskTokens) Decision(token string) (output, errName, cause string, ok bool) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	t, found := tt.tasks[token]
	if !found || !t.isDecided() {
		return "", "", "", false
	}
	return t.output, t.err, t.cause, true
}

// ServeHTTP implements the callback API and run.js's endpoints.
func (tt *TaskTokens) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Token     string `json:"token"`
		TaskToken string `json:"taskToken"`
		Output    string `json:"output"`
		Error     string `json:"error"`
		Cause     string `json:"cause"`
		// WaitMillis bounds one /local/await (default 20 s).
		WaitMillis int `json:"waitMillis"`
	}
	if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&in) != nil {
		sfnError(w, http.StatusBadRequest, "InvalidRequestException", "want a JSON POST")
		return
	}
	switch r.URL.Path {
	case "/local/register":
		tt.Register(in.Token)
		writeJSON(w, map[string]bool{"registered": true})
		return
	case "/local/await":
		tt.await(w, r, in.Token, in.WaitMillis)
		return
	case "/local/expire":
		tt.expire(w, in.Token)
		return
	}
	switch r.Header.Get("X-Amz-Target") {
	case "AWSStepFunctions.SendTaskSuccess":
		if !json.Valid([]byte(in.Output)) {
			sfnError(w, http.StatusBadRequest, "InvalidOutput", "output is not JSON")
			return
		}
		tt.decide(w, in.TaskToken, func(t *task) { t.output = in.Output })
	case "AWSStepFunctions.SendTaskFailure":
		tt.decide(w, in.TaskToken, func(t *task) { t.err, t.cause = in.Error, in.Cause })
	case "AWSStepFunctions.SendTaskHeartbeat":
		tt.mu.Lock()
		t, ok := tt.tasks[in.TaskToken]
		if ok && !t.isDecided() {
			t.heartbeats++
		}
		tt.mu.Unlock()
		switch {
		case !ok:
			sfnError(w, http.StatusBadRequest, "InvalidToken", "Invalid token")
		case t.isDecided():
			sfnError(w, http.StatusBadRequest, "TaskTimedOut", "Task Timed Out: 'Provided task does not exist anymore'")
		default:
			writeJSON(w, struct{}{})
		}
	default:
		sfnError(w, http.StatusBadRequest, "UnknownOperationException", "unknown operation "+r.Header.Get("X-Amz-Target"))
	}
}

func (t *task) isDecided() bool {
	select {
	case <-t.decided:
		return true
	default:
		return false
	}
}

// decide records the first decision of a registered token; a token that
// is unknown, or already decided, is refused as Step Functions refuses it.
func (tt *TaskTokens) decide(w http.ResponseWriter, token string, set func(*task)) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	t, ok := tt.tasks[token]
	switch {
	case !ok:
		sfnError(w, http.StatusBadRequest, "InvalidToken", "Invalid token")
	case t.isDecided():
		sfnError(w, http.StatusBadRequest, "TaskTimedOut", "Task Timed Out: 'Provided task does not exist anymore'")
	default:
		set(t)
		close(t.decided)
		writeJSON(w, struct{}{})
	}
}

// Expired reports whether the Task waiting on token timed out.
func (tt *TaskTokens) Expired(token string) bool {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	t, ok := tt.tasks[token]
	return ok && t.expired
}

// expire ends a token whose Task timed out: Step Functions refuses any
// later SendTaskSuccess, SendTaskFailure or SendTaskHeartbeat for it
// (TaskTimedOut).
func (tt *TaskTokens) expire(w http.ResponseWriter, token string) {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	t, ok := tt.tasks[token]
	if !ok {
		sfnError(w, http.StatusNotFound, "InvalidToken", "token was not registered")
		return
	}
	if !t.isDecided() {
		t.expired = true
		t.err = "States.Timeout"
		close(t.decided)
	}
	writeJSON(w, map[string]bool{"expired": true})
}

// await answers run.js with the token's decision, or {pending, heartbeats}
// after waitMillis (default 20 s; it asks again), so no HTTP request waits
// for long and the runner sees heartbeats as they come.
func (tt *TaskTokens) await(w http.ResponseWriter, r *http.Request, token string, waitMillis int) {
	tt.mu.Lock()
	t, ok := tt.tasks[token]
	first := ok && !t.awaited
	tt.mu.Unlock()
	if !ok {
		sfnError(w, http.StatusNotFound, "InvalidToken", "token was not registered")
		return
	}
	if first {
		tt.mu.Lock()
		t.awaited = true
		tt.mu.Unlock()
		select {
		case tt.waiting <- token:
		default:
		}
	}
	wait := 20 * time.Second
	if waitMillis > 0 && time.Duration(waitMillis)*time.Millisecond < wait {
		wait = time.Duration(waitMillis) * time.Millisecond
	}
	select {
	case <-t.decided:
	case <-time.After(wait):
		tt.mu.Lock()
		beats := t.heartbeats
		tt.mu.Unlock()
		writeJSON(w, map[string]any{"pending": true, "heartbeats": beats})
		return
	case <-r.Context().Done():
		return
	}
	tt.mu.Lock()
	beats := t.heartbeats
	tt.mu.Unlock()
	if t.err != "" || t.output == "" {
		writeJSON(w, map[string]any{"error": t.err, "cause": t.cause, "heartbeats": beats})
		return
	}
	writeJSON(w, map[string]any{"output": t.output, "heartbeats": beats})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	_ = json.NewEncoder(w).Encode(v)
}

func sfnError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": code, "message": msg})
}
