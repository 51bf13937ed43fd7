package live

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/aws/smithy-go"
)

// ErrNotFound reports that a resource (or the policy, statement or
// attachment that stands for it) does not exist.
var ErrNotFound = errors.New("not found")

// TimeoutError is one AWS call that got no (complete) answer within its
// deadline (--call-timeout): every attempt and backoff of the call counts.
type TimeoutError struct {
	// After is the call deadline.
	After time.Duration
	Err   error
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("no answer within %s: %v", e.After, e.Err)
}

// Unwrap returns the underlying error (a context deadline).
func (e *TimeoutError) Unwrap() error { return e.Err }

// IsTimeout reports whether err is a call that timed out: its call
// deadline passed, or its attempts ran out on connect or first-byte
// timeouts. A cancelled or expired run context is not a timeout.
func IsTimeout(err error) bool {
	var te *TimeoutError
	if errors.As(err, &te) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() && !errors.Is(err, context.DeadlineExceeded)
}

// Answer is how many attempts of one call AWS answered with one error:
// its code ("ServiceUnavailable", "Throttling"), "HTTP <status>" when the
// answer named none, or NoAnswer when an attempt got none.
type Answer struct {
	Code  string
	Count int
}

// NoAnswer stands for attempts that got no answer (a connection refused
// or reset, a first-byte timeout).
const NoAnswer = "no answer"

// RetriedError is a call whose attempts were all answered with errors
// until its attempts or its deadline ran out: it says what AWS answered
// ("ServiceUnavailable ×10"), which the last error alone does not (a
// deadline passed in a retry's backoff is no answer at all).
type RetriedError struct {
	// Answers are the attempts' errors by code, in the order first seen.
	Answers []Answer
	Err     error
}

func (e *RetriedError) Error() string {
	return "answered " + e.answers() + ": " + e.Err.Error()
}

// Unwrap returns the call's own error (a *TimeoutError, an API error).
func (e *RetriedError) Unwrap() error { return e.Err }

// answers is "ServiceUnavailable ×10" or "no answer ×2, InternalFailure ×3".
func (e *RetriedError) answers() string {
	var parts []string
	for _, a := range e.Answers {
		parts = append(parts, fmt.Sprintf("%s ×%d", a.Code, a.Count))
	}
	return strings.Join(parts, ", ")
}

// skipError stops a read for a reason that is not an API error.
type skipError struct{ reason string }

func (e *skipError) Error() string { return e.reason }

func skip(reason string) error { return &skipError{reason: reason} }

// waitingError stops a read that needs a declared value the resolver has
// not resolved (yet): after pass 1 that is usually a Fn::GetAtt target.
type waitingError struct{ prop string }

func (e *waitingError) Error() string {
	return "target not resolvable: declared " + e.prop + " is unresolved"
}

func waiting(prop string) error { return &waitingError{prop: prop} }

// notFoundCodes are the API error codes that mean "does not exist".
var notFoundCodes = map[string]bool{
	"ResourceNotFoundException":                   true,
	"NoSuchEntity":                                true,
	"NotFound":                                    true,
	"NotFoundException":                           true,
	"NoSuchBucket":                                true,
	"NoSuchBucketPolicy":                          true,
	"AWS.SimpleQueueService.NonExistentQueue":     true,
	"QueueDoesNotExist":                           true,
	"InvalidNetworkAclID.NotFound":                true,
	"InvalidVpcID.NotFound":                       true,
	"InvalidSubnetID.NotFound":                    true,
	"InvalidGroup.NotFound":                       true,
	"InvalidRouteTableID.NotFound":                true,
	"InvalidAddress.NotFound":                     true,
	"InvalidAllocationID.NotFound":                true,
	"ClusterNotFoundException":                    true,
	"DoesNotExistException":                       true,
	"ApplicationDoesNotExistException":            true,
	"NoSuchHostedZone":                            true,
	"InvalidLaunchTemplateId.NotFound":            true,
	"InvalidLaunchTemplateName.NotFoundException": true,
	"NoSuchConfigurationRecorderException":        true,
	"NoSuchDeliveryChannelException":              true,
	"NamespaceNotFound":                           true,
	"ServiceNotFound":                             true,
	"ListenerNotFound":                            true,
	"CacheParameterGroupNotFound":                 true,
	"ClusterNotFoundFault":                        true,
	"SubnetGroupNotFoundFault":                    true,
	"ParameterGroupNotFoundFault":                 true,
	"RuleSetDoesNotExist":                         true,
	"RuleDoesNotExist":                            true,
	"ConfigurationSetDoesNotExist":                true,
	"EntityNotFoundException":                     true,
	"DBClusterNotFoundFault":                      true,
	"DBInstanceNotFound":                          true,
	"ResourceNotFoundFault":                       true,
	"InvalidClientVpnEndpointId.NotFound":         true,
	"ResourceNotFound":                            true,
}

// isNotFound reports whether err means the thing asked for does not exist.
func isNotFound(err error) bool {
	if errors.Is(err, ErrNotFound) {
		return true
	}
	var ae smithy.APIError
	return errors.As(err, &ae) && notFoundCodes[ae.ErrorCode()]
}

// outcome maps a read error to a status, a reason, and whether the read
// waits on an unresolved declared value. Unsupported types, access denied,
// throttles the retryer gave up on and every other failure are Skipped.
func outcome(err error) (st Status, reason string, wait bool) {
	var we *waitingError
	switch {
	case isNotFound(err):
		return NotFound, describe(err), false
	case errors.As(err, &we):
		return Skipped, we.Error(), true
	}
	return Skipped, describe(err), false
}

// describe renders an error as a short reason: "Service Operation: Code:
// message" for API errors, the text otherwise.
func describe(err error) string {
	var se *skipError
	if errors.As(err, &se) {
		return se.reason
	}
	var re *RetriedError
	if errors.As(err, &re) {
		// What every attempt was answered, not only how the call ended.
		what := "call"
		var oe *smithy.OperationError
		if errors.As(err, &oe) {
			what = oe.Service() + " " + oe.Operation()
		}
		var te *TimeoutError
		if errors.As(err, &te) {
			return fmt.Sprintf("timeout: %s: %s, no success within %s", what, re.answers(), te.After)
		}
		reason := what + ": " + re.answers()
		var ae smithy.APIError
		if errors.As(err, &ae) && ae.ErrorMessage() != "" {
			reason += ": " + ae.ErrorMessage()
		}
		return reason
	}
	if IsTimeout(err) {
		what := "call"
		var oe *smithy.OperationError
		if errors.As(err, &oe) {
			what = oe.Service() + " " + oe.Operation()
		}
		var te *TimeoutError
		if errors.As(err, &te) {
			return fmt.Sprintf("timeout: %s got no answer within %s", what, te.After)
		}
		return fmt.Sprintf("timeout: %s: %v", what, err)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return "interrupted: " + err.Error()
	}
	var ae smithy.APIError
	if errors.As(err, &ae) {
		msg := ae.ErrorCode()
		if m := ae.ErrorMessage(); m != "" {
			msg += ": " + m
		}
		var oe *smithy.OperationError
		if errors.As(err, &oe) {
			return fmt.Sprintf("%s %s: %s", oe.Service(), oe.Operation(), msg)
		}
		return msg
	}
	return err.Error()
}
