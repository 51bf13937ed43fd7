package service

import (
	"errors"

	"github.com/aws/smithy-go"

	"github.com/realdrift/realdrift/statemachine"
)

// throttleCodes are the error codes AWS services answer when throttling.
func throttleCodes() map[string]bool {
	return map[string]bool{
		"Throttling": true, "ThrottlingException": true, "ThrottledException": true,
		"RequestThrottledException": true, "TooManyRequestsException": true,
		"ProvisionedThroughputExceededException": true, "RequestLimitExceeded": true,
		"RequestThrottled": true, "SlowDown": true, "PriorRequestNotComplete": true,
		"TransactionInProgressException": true, "EC2ThrottledException": true,
	}
}

// stepError returns err unchanged, or as a *statemachine.Throttled (the
// outermost type, which the Lambda runtime names as the errorType) when it
// is throttling, so the definitions retry it with backoff and catch the
// rest.
func stepError(err error) error {
	if err == nil {
		return nil
	}
	var t *statemachine.Throttled
	if errors.As(err, &t) {
		return &statemachine.Throttled{Err: err}
	}
	var api smithy.APIError
	if errors.As(err, &api) && throttleCodes()[api.ErrorCode()] {
		return &statemachine.Throttled{Err: err}
	}
	return err
}
