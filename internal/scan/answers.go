package scan

import (
	"context"
	"errors"
	"fmt"
	"sync"

	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"

	"github.com/realdrift/realdrift/internal/live"
)

// answers counts the error answers the attempts of one call got, by code
// in the order first seen; callDeadline makes one per call and puts it in
// the call's context, countAnswers fills it once per attempt.
type answers struct {
	mu    sync.Mutex
	list  []live.Answer
	total int
}

type answersKey struct{}

func (a *answers) add(code string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.total++
	for i := range a.list {
		if a.list[i].Code == code {
			a.list[i].Count++
			return
		}
	}
	a.list = append(a.list, live.Answer{Code: code, Count: 1})
}

// wrap makes a failed call's error say what its attempts were answered
// (*live.RetriedError) when there is more to say than the error itself:
// more than one attempt, or a deadline that passed after an answer (in a
// retry's backoff). One error answer, not retried, stays as it is.
func (a *answers) wrap(err error) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	var te *live.TimeoutError
	if a.total == 0 || (a.total == 1 && !errors.As(err, &te)) {
		return err
	}
	return &live.RetriedError{Answers: append([]live.Answer(nil), a.list...), Err: err}
}

// countAnswers is the per-attempt middleware (Finalize, after the retry
// loop) that counts each failed attempt's answer in the call's answers.
func countAnswers(st *middleware.Stack) error {
	return st.Finalize.Add(middleware.FinalizeMiddlewareFunc("realdriftCountAnswers",
		func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
			out, md, err := next.HandleFinalize(ctx, in)
			if a, ok := ctx.Value(answersKey{}).(*answers); ok && err != nil && ctx.Err() == nil {
				a.add(answerCode(err))
			}
			return out, md, err
		}), middleware.After)
}

// answerCode names one attempt's error: the API error code, else the
// HTTP status of an answer, else live.NoAnswer.
func answerCode(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) && ae.ErrorCode() != "" {
		return ae.ErrorCode()
	}
	var re *awshttp.ResponseError
	if errors.As(err, &re) && re.HTTPStatusCode() != 0 {
		return fmt.Sprintf("HTTP %d", re.HTTPStatusCode())
	}
	return live.NoAnswer
}
