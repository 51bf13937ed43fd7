package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sfn"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/who"
	"github.com/realdrift/realdrift/statemachine"
)

// ChangeEvent is a CloudTrail management event as EventBridge delivers it
// ("AWS API Call via CloudTrail"); only the fields the trigger reads.
type ChangeEvent struct {
	ID         string      `json:"id"`
	DetailType string      `json:"detail-type"`
	Source     string      `json:"source"`
	Account    string      `json:"account"`
	Region     string      `json:"region"`
	Resources  []string    `json:"resources"`
	Detail     EventDetail `json:"detail"`
}

// EventDetail is the CloudTrail record inside a ChangeEvent.
type EventDetail struct {
	EventID            string          `json:"eventID"`
	EventSource        string          `json:"eventSource"`
	EventName          string          `json:"eventName"`
	AWSRegion          string          `json:"awsRegion"`
	RecipientAccountID string          `json:"recipientAccountId"`
	SourceIPAddress    string          `json:"sourceIPAddress"`
	UserAgent          string          `json:"userAgent"`
	ReadOnly           bool            `json:"readOnly"`
	ErrorCode          string          `json:"errorCode"`
	UserIdentity       UserIdentity    `json:"userIdentity"`
	RequestParameters  json.RawMessage `json:"requestParameters"`
	ResponseElements   json.RawMessage `json:"responseElements"`
	Resources          []struct {
		ARN string `json:"ARN"`
	} `json:"resources"`
	// raw is the record as delivered, for who.FromRecord.
	raw json.RawMessage
}

// UnmarshalJSON reads the record's fields and keeps the record whole.
func (d *EventDetail) UnmarshalJSON(b []byte) error {
	type plain EventDetail
	if err := json.Unmarshal(b, (*plain)(d)); err != nil {
		return err
	}
	d.raw = append(json.RawMessage(nil), b...)
	return nil
}

// UserIdentity is who made the call.
type UserIdentity struct {
	Type      string `json:"type"`
	ARN       string `json:"arn"`
	InvokedBy string `json:"invokedBy"`
}

// TriggerResult says what the trigger did with an event.
type TriggerResult struct {
	// Ignored says why the event started nothing, when it did not.
	Ignored string `json:"ignored,omitempty"`
	// Started are the run ids of the checks started (by a flush).
	Started []string `json:"started,omitempty"`
	// Pending are the stacks whose debounce window the event opened, and
	// Debounced those whose open window it extended: each is checked once,
	// by the flush after its window.
	Pending   []string `json:"pending,omitempty"`
	Debounced []string `json:"debounced,omitempty"`
	// Waiting counts the windows a flush left open.
	Waiting int `json:"waiting,omitempty"`
}

// FlushSource and FlushDetailType mark the trigger's own flush event (the
// scheduled input that starts the checks whose windows closed).
const (
	FlushSource     = "realdrift.trigger"
	FlushDetailType = "Debounce Flush"
)

// cloudFormationPrincipal is how CloudTrail names calls CloudFormation makes.
const cloudFormationPrincipal = "cloudformation.amazonaws.com"

// stackNameTag is the tag CloudFormation puts on the resources it creates.
const stackNameTag = "aws:cloudformation:stack-name"

// maxCandidates bounds the index lookups one event makes.
const maxCandidates = 24

// globalSources are the CloudTrail event sources of global services: their
// events are recorded in us-east-1 (the member StackSet forwards them from
// there) whatever region the owning stack is in, so the event's region
// says nothing about the stack's: only the resource index maps them.
var globalSources = map[string]bool{
	"iam.amazonaws.com": true, "cloudfront.amazonaws.com": true, "route53.amazonaws.com": true,
	"waf.amazonaws.com": true, "globalaccelerator.amazonaws.com": true, "organizations.amazonaws.com": true,
	"shield.amazonaws.com": true,
}

// Trigger is the trigger function. For a CloudTrail change to a resource it
// finds the resource's stack (the resource index, else the stack-name tag
// in the request) and opens or extends the stack's debounce window
// (debouncer: trailing edge, one check per burst); it ignores read-only and
// failed calls and CloudFormation's own changes. For the scheduled flush
// event (FlushSource) it starts check-stack for every stack whose window
// closed.
func (s *Service) Trigger(ctx context.Context, ev ChangeEvent) (TriggerResult, error) {
	if ev.Source == FlushSource && ev.DetailType == FlushDetailType {
		return s.flush(ctx)
	}
	if why := ignoreReason(ev); why != "" {
		return TriggerResult{Ignored: why}, nil
	}
	account, region := eventAccount(ev), eventRegion(ev)
	stacks, owned, err := s.stacksOf(ctx, ev, account, region)
	if err != nil {
		return TriggerResult{}, stepError(err)
	}
	if len(stacks) == 0 {
		return TriggerResult{Ignored: "no stack owns the changed resource"}, nil
	}
	// The event names who changed the resource: kept for the check it
	// starts (and later sweeps) to attach to the findings (writers.go).
	if c, ok := who.FromRecord(ev.Detail.raw); ok {
		for _, st := range stacks {
			for _, id := range owned[st] {
				if err := s.rememberWriter(ctx, st, id, c, ""); err != nil {
					return TriggerResult{}, stepError(err)
				}
			}
		}
	}
	id := ev.Detail.EventID
	if id == "" {
		id = ev.ID
	}
	var res TriggerResult
	for _, st := range stacks {
		opened, err := s.debounce.extend(ctx, st, id, s.now(), s.set.Debounce)
		if err != nil {
			return res, stepError(err)
		}
		if opened {
			res.Pending = append(res.Pending, stackKey(st))
		} else {
			res.Debounced = append(res.Debounced, stackKey(st))
		}
	}
	return res, nil
}

// flush starts check-stack for every stack whose debounce window closed
// (or waited MaxWaitFactor windows), then closes the window unless a
// change extended it meanwhile. A start that fails leaves the window
// pending for the next flush; a retried start names the same execution.
func (s *Service) flush(ctx context.Context) (TriggerResult, error) {
	if s.set.CheckStackARN == "" {
		return TriggerResult{}, fmt.Errorf("trigger: %s is not set", EnvCheckStackARN)
	}
	due, waiting, err := s.debounce.due(ctx, s.now(), s.set.Debounce)
	if err != nil {
		return TriggerResult{}, stepError(err)
	}
	res := TriggerResult{Waiting: waiting}
	var errs []error
	for _, w := range due {
		runID := eventRunID(w.Event, w.Stack)
		input, err := json.Marshal(statemachine.CheckInput{RunID: runID, Stack: w.Stack, Trigger: statemachine.TriggerEvent})
		if err != nil {
			return res, err
		}
		_, err = s.starter.StartExecution(ctx, &sfn.StartExecutionInput{
			StateMachineArn: aws.String(s.set.CheckStackARN),
			Name:            aws.String(runID),
			Input:           aws.String(string(input)),
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("start check of %s: %w", w.Stack, err))
			continue
		}
		res.Started = append(res.Started, runID)
		if err := s.debounce.done(ctx, w); err != nil {
			errs = append(errs, err)
		}
	}
	return res, stepError(errors.Join(errs...))
}

// ignoreReason says why an event starts no check ("" when it may).
func ignoreReason(ev ChangeEvent) string {
	d := ev.Detail
	switch {
	case d.EventName == "":
		return "not a CloudTrail API call"
	case d.ReadOnly:
		return "read-only call"
	case d.ErrorCode != "":
		return "the call failed (" + d.ErrorCode + ")"
	case d.UserIdentity.InvokedBy == cloudFormationPrincipal,
		d.SourceIPAddress == cloudFormationPrincipal,
		d.UserAgent == cloudFormationPrincipal:
		return "made by CloudFormation"
	case d.EventSource == cloudFormationPrincipal:
		return "a CloudFormation API call (deploys are not drift)"
	case strings.HasSuffix(d.UserIdentity.ARN, "/"+sessionName):
		return "made by realdrift"
	}
	return ""
}

func eventAccount(ev ChangeEvent) string {
	if ev.Detail.RecipientAccountID != "" {
		return ev.Detail.RecipientAccountID
	}
	return ev.Account
}

func eventRegion(ev ChangeEvent) string {
	if ev.Detail.AWSRegion != "" {
		return ev.Detail.AWSRegion
	}
	return ev.Region
}

// stacksOf maps the event's resource to the stacks owning it in account:
// through the resource index, else through the stack-name tag of the
// request. The result is sorted and without duplicates; owned holds the
// physical ids the index matched, per stack (none for a tagged stack).
func (s *Service) stacksOf(ctx context.Context, ev ChangeEvent, account, region string) ([]drift.StackRef, map[drift.StackRef][]string, error) {
	seen := map[drift.StackRef]bool{}
	owned := map[drift.StackRef][]string{}
	var out []drift.StackRef
	for _, id := range candidates(ev) {
		entries, err := s.store.LookupIndex(ctx, id)
		if err != nil {
			return nil, nil, fmt.Errorf("look up %q in the resource index: %w", id, err)
		}
		for _, e := range entries {
			if e.Stack.Account != account {
				continue
			}
			if !slices.Contains(owned[e.Stack], e.PhysicalID) {
				owned[e.Stack] = append(owned[e.Stack], e.PhysicalID)
			}
			if seen[e.Stack] {
				continue
			}
			seen[e.Stack] = true
			out = append(out, e.Stack)
		}
	}
	// The tag names a stack but not its region: a global service's event
	// is recorded in us-east-1 whatever region the stack is in.
	if len(out) == 0 && !globalSources[ev.Detail.EventSource] {
		if name := taggedStack(ev.Detail.RequestParameters); name != "" && region != "" {
			out = append(out, drift.StackRef{Account: account, Region: region, Name: name})
		}
	}
	sort.Slice(out, func(i, j int) bool { return stackKey(out[i]) < stackKey(out[j]) })
	return out, owned, nil
}

// candidates are the strings of the event that may be a physical id: the
// resource ARNs, the short request and response parameters, and the last
// segment of every ARN among them (bucket, role and function names).
func candidates(ev ChangeEvent) []string {
	var out []string
	seen := map[string]bool{}
	add := func(v string) {
		if v == "" || len(v) > 1024 || strings.ContainsAny(v, " \n{}") || seen[v] || len(out) >= maxCandidates {
			return
		}
		seen[v] = true
		out = append(out, v)
		if strings.HasPrefix(v, "arn:") {
			last := v[strings.LastIndexAny(v, ":/")+1:]
			if last != "" && !seen[last] && len(out) < maxCandidates {
				seen[last] = true
				out = append(out, last)
			}
		}
	}
	for _, r := range ev.Detail.Resources {
		add(r.ARN)
	}
	for _, r := range ev.Resources {
		add(r)
	}
	for _, raw := range []json.RawMessage{ev.Detail.RequestParameters, ev.Detail.ResponseElements} {
		var params map[string]any
		if json.Unmarshal(raw, &params) != nil {
			continue
		}
		keys := make([]string, 0, len(params))
		for k := range params {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if v, ok := params[k].(string); ok {
				add(v)
			}
		}
	}
	return out
}

// taggedStack finds the aws:cloudformation:stack-name tag in request
// parameters, in any of the shapes services use: a list of {key, value}
// objects (any capitalisation) or a map of tag → value.
func taggedStack(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	return findTag(v, 0)
}

func findTag(v any, depth int) string {
	if depth > 5 {
		return ""
	}
	switch t := v.(type) {
	case map[string]any:
		if s, ok := t[stackNameTag].(string); ok {
			return s
		}
		var key, value string
		for k, e := range t {
			switch strings.ToLower(k) {
			case "key":
				key, _ = e.(string)
			case "value":
				value, _ = e.(string)
			}
		}
		if key == stackNameTag && value != "" {
			return value
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if s := findTag(t[k], depth+1); s != "" {
				return s
			}
		}
	case []any:
		for _, e := range t {
			if s := findTag(e, depth+1); s != "" {
				return s
			}
		}
	}
	return ""
}

// eventRunID is the run id (and execution name) of the check a window
// starts for a stack, named by the window's first event: deterministic, at
// most 80 characters, in the store's name alphabet.
func eventRunID(eventID string, stack drift.StackRef) string {
	sum := sha256.Sum256([]byte(eventID + "\x00" + stackKey(stack)))
	return "event-" + hex.EncodeToString(sum[:12])
}
