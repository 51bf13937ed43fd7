package service

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/realdrift/realdrift/internal/scan"
)

// Environment variables the functions read (see README, "Service").
const (
	EnvTable           = "REALDRIFT_TABLE"
	EnvRegions         = "REALDRIFT_REGIONS"
	EnvReadRoleName    = "REALDRIFT_READ_ROLE_NAME"
	EnvAccounts        = "REALDRIFT_ACCOUNTS"
	EnvTopicARN        = "REALDRIFT_TOPIC_ARN"
	EnvSlackSecret     = "REALDRIFT_SLACK_SECRET_ARN"
	EnvEventBus        = "REALDRIFT_EVENT_BUS"
	EnvCheckStackARN   = "REALDRIFT_CHECK_STACK_ARN"
	EnvIgnoreScopes    = "REALDRIFT_IGNORE_SCOPES"
	EnvDebounce        = "REALDRIFT_DEBOUNCE_SECONDS"
	EnvStateTTL        = "REALDRIFT_STATE_TTL_HOURS"
	EnvIndexTTL        = "REALDRIFT_INDEX_TTL_HOURS"
	EnvReadBatch       = "REALDRIFT_READ_BATCH"
	EnvParentBatch     = "REALDRIFT_PARENT_BATCH"
	EnvConcurrency     = "REALDRIFT_CONCURRENCY"
	EnvReadRate        = "REALDRIFT_READ_RATE"
	EnvTargetsBucket   = "REALDRIFT_TARGETS_BUCKET"
	EnvAccountsAtOnce  = "REALDRIFT_ACCOUNTS_AT_ONCE"
	EnvReadDeadline    = "REALDRIFT_READ_DEADLINE_SECONDS"
	EnvEndpointURL     = "REALDRIFT_ENDPOINT_URL"
	EnvDynamoDBURL     = "REALDRIFT_DYNAMODB_ENDPOINT_URL"
	EnvSecretsURL      = "REALDRIFT_SECRETSMANAGER_ENDPOINT_URL"
	EnvStepFunctionURL = "REALDRIFT_STEPFUNCTIONS_ENDPOINT_URL"
	EnvEventBridgeURL  = "REALDRIFT_EVENTBRIDGE_ENDPOINT_URL"
	EnvSNSURL          = "REALDRIFT_SNS_ENDPOINT_URL"
	EnvRevertRoleName  = "REALDRIFT_REVERT_ROLE_NAME"
	EnvRevertTypes     = "REALDRIFT_REVERT_TYPES"
	EnvApprovalURL     = "REALDRIFT_APPROVAL_URL"
	EnvRevertARN       = "REALDRIFT_REVERT_STATE_MACHINE_ARN"
	EnvAcceptARN       = "REALDRIFT_ACCEPT_STATE_MACHINE_ARN"
	EnvSecurityHub     = "REALDRIFT_SECURITY_HUB"
	EnvFindingsRole    = "REALDRIFT_FINDINGS_ROLE_NAME"
	EnvRevertWait      = "REALDRIFT_REVERT_WAIT_SECONDS"
	EnvAccessKeyID     = "REALDRIFT_ACCESS_KEY_ID"
	EnvSecretKey       = "REALDRIFT_SECRET_ACCESS_KEY"
)

// Defaults of the knobs.
const (
	DefaultDebounce    = 5 * time.Minute
	DefaultStateTTL    = 24 * time.Hour
	DefaultIndexTTL    = 7 * 24 * time.Hour
	DefaultReadBatch   = 20
	DefaultParentBatch = 10
	// DefaultConcurrency bounds the calls in flight inside one invocation
	// (one stack's batch: the CLI's run-wide scan.DefaultConcurrency is
	// sized for many stacks at once).
	DefaultConcurrency = 8
	// DefaultReadRate is the calls per second a sweep makes into one
	// member account and region, over all its Lambdas (internal/pace).
	DefaultReadRate = 10.0
	// DefaultReadDeadline is how long after a stack's check started its
	// throttled reads are retried by the workflow before they are
	// reported skipped; under the 5 minutes of an Express check-stack.
	DefaultReadDeadline = 3 * time.Minute
	// DefaultAccountsAtOnce bounds the accounts a sweep checks at once.
	DefaultAccountsAtOnce = 10
	// DefaultRevertWait is how long one resource's revert write retries
	// transient failures (the revert-write function's timeout is above it).
	DefaultRevertWait = 2 * time.Minute
)

// Settings configure the service. SettingsFromEnv reads them from the
// function's environment; tests build them directly.
type Settings struct {
	// Table is the DynamoDB table of the store (required).
	Table string
	// Regions are the regions swept in every account (required for
	// discover).
	Regions []string
	// ReadRoleName is the member accounts' read role, assumed for every
	// account read. Empty reads with the function's own credentials (one
	// account only).
	ReadRoleName string
	// Accounts, when set, limits sweeps to these accounts of the
	// organisation.
	Accounts []string
	// TopicARN, SlackSecretID and EventBus select the alert channels; each
	// is optional.
	TopicARN      string
	SlackSecretID string
	EventBus      string
	// SecurityHub turns on the Security Hub channel: confirmed drift
	// imported as findings into each member account's Security Hub, in
	// the stack's region (REALDRIFT_SECURITY_HUB "on"), through
	// FindingsRoleName (REALDRIFT_FINDINGS_ROLE_NAME: the member role
	// infra's EnableSecurityHub creates; empty, the function's own
	// credentials, one account).
	SecurityHub      bool
	FindingsRoleName string
	// CheckStackARN is the check-stack state machine the trigger starts.
	CheckStackARN string
	// IgnoreScopes are the ignore-rule documents applied to every stack,
	// besides the default scope: each is a store scope name.
	IgnoreScopes []string
	// Debounce is the per-stack window in which the trigger starts at most
	// one check.
	Debounce time.Duration
	// StateTTL is how long run state lives; IndexTTL how long a resource
	// index entry lives after the sweep that wrote it.
	StateTTL time.Duration
	IndexTTL time.Duration
	// ReadBatch and ParentBatch size the read and enumerate batches;
	// Concurrency bounds the calls in flight inside one invocation.
	ReadBatch   int
	ParentBatch int
	Concurrency int
	// ReadRate is the calls per second allowed per member account and
	// region, shared by every Lambda of a sweep (a schedule item per
	// account-region in the table, internal/pace).
	ReadRate float64
	// ReadDeadline is how long after a stack's check started a read still
	// throttled after the SDK's retries is handed back to the workflow to
	// retry (errorType Throttled); after it, the read is reported skipped
	// with the throttling error.
	ReadDeadline time.Duration
	// TargetsBucket is the S3 bucket discover writes each account-region's
	// stack list to, for the sweep's Stacks Map to read (ItemReader) and
	// write its results beside (ResultWriter). Empty: the lists are inline
	// in discover's result (local runs; fine up to a few hundred stacks).
	TargetsBucket string
	// AccountsAtOnce bounds the accounts a sweep checks at once (each
	// account's regions run side by side, each region at most 5 stacks at
	// once, every region's calls paced at ReadRate).
	AccountsAtOnce int
	// RevertRoleName is the member accounts' opt-in revert role, assumed
	// for the revert's writes (reads stay on the read role). Empty with a
	// read role set: reverts are off, the write step refuses.
	RevertRoleName string
	// RevertTypes, when set, are the types whose Cloud Control handler
	// permissions the member revert role is granted (infra's revert
	// types): the planner marks a Cloud Control write of any other type
	// not revertable ("ungranted") instead of letting it fail with
	// AccessDenied in the member account. Empty: no such check.
	RevertTypes []string
	// ApprovalURL is the approve-link function's URL the approval message
	// links to; empty leaves the links out (realdrift approve still works).
	ApprovalURL string
	// RevertStateMachineARN, when set, gives drift alerts a link to start
	// a revert of the stack (the Step Functions console).
	RevertStateMachineARN string
	// AcceptStateMachineARN, when set, gives drift alerts a link to start
	// an accept of the stack (record its undeclared state as the baseline).
	AcceptStateMachineARN string
	// RevertWait bounds the transient-failure retries of one resource's
	// revert write.
	RevertWait time.Duration
	// Endpoints send calls to local emulators instead of AWS.
	Endpoints Endpoints
	// AccessKeyID and SecretAccessKey, when both set, are static central
	// credentials (local runs against the sandbox).
	AccessKeyID     string
	SecretAccessKey string
	// CABundle, when set, is the PEM certificates TLS endpoints are
	// trusted by instead of the system's: an emulator endpoint served over
	// TLS (the e2e's SNS, whose topic policy denies plain HTTP). A
	// deployed function needs none; AWS_CA_BUNDLE does the same from the
	// environment.
	CABundle []byte
}

// Endpoints override where clients send their calls. Empty fields use the
// SDK's resolution (which also honours AWS_ENDPOINT_URL_<SERVICE>).
type Endpoints struct {
	// Default is every AWS API the pipeline calls (the sandbox locally).
	Default        string
	DynamoDB       string
	SecretsManager string
	StepFunctions  string
	EventBridge    string
	SNS            string
}

// SettingsFromEnv reads Settings from getenv (os.Getenv in a function).
func SettingsFromEnv(getenv func(string) string) (Settings, error) {
	s := Settings{
		Table:                 getenv(EnvTable),
		Regions:               list(getenv(EnvRegions)),
		ReadRoleName:          getenv(EnvReadRoleName),
		Accounts:              list(getenv(EnvAccounts)),
		TopicARN:              getenv(EnvTopicARN),
		SlackSecretID:         getenv(EnvSlackSecret),
		EventBus:              getenv(EnvEventBus),
		CheckStackARN:         getenv(EnvCheckStackARN),
		IgnoreScopes:          list(getenv(EnvIgnoreScopes)),
		RevertRoleName:        getenv(EnvRevertRoleName),
		RevertTypes:           resourceTypes(list(getenv(EnvRevertTypes))),
		FindingsRoleName:      getenv(EnvFindingsRole),
		TargetsBucket:         getenv(EnvTargetsBucket),
		ApprovalURL:           getenv(EnvApprovalURL),
		RevertStateMachineARN: getenv(EnvRevertARN),
		AcceptStateMachineARN: getenv(EnvAcceptARN),
		Endpoints: Endpoints{
			Default:        getenv(EnvEndpointURL),
			DynamoDB:       getenv(EnvDynamoDBURL),
			SecretsManager: getenv(EnvSecretsURL),
			StepFunctions:  getenv(EnvStepFunctionURL),
			EventBridge:    getenv(EnvEventBridgeURL),
			SNS:            getenv(EnvSNSURL),
		},
		AccessKeyID:     getenv(EnvAccessKeyID),
		SecretAccessKey: getenv(EnvSecretKey),
	}
	var err error
	if s.Debounce, err = duration(getenv, EnvDebounce, time.Second); err != nil {
		return Settings{}, err
	}
	if s.StateTTL, err = duration(getenv, EnvStateTTL, time.Hour); err != nil {
		return Settings{}, err
	}
	if s.IndexTTL, err = duration(getenv, EnvIndexTTL, time.Hour); err != nil {
		return Settings{}, err
	}
	if s.RevertWait, err = duration(getenv, EnvRevertWait, time.Second); err != nil {
		return Settings{}, err
	}
	if s.ReadDeadline, err = duration(getenv, EnvReadDeadline, time.Second); err != nil {
		return Settings{}, err
	}
	switch v := getenv(EnvSecurityHub); v {
	case "", "off", "false", "0":
	case "on", "true", "1":
		s.SecurityHub = true
	default:
		return Settings{}, fmt.Errorf("%s=%q: want on or off", EnvSecurityHub, v)
	}
	if v := getenv(EnvReadRate); v != "" {
		if s.ReadRate, err = strconv.ParseFloat(v, 64); err != nil || !(s.ReadRate > 0) {
			return Settings{}, fmt.Errorf("%s=%q: want a positive number of calls per second", EnvReadRate, v)
		}
	}
	for _, n := range []struct {
		env string
		dst *int
	}{{EnvReadBatch, &s.ReadBatch}, {EnvParentBatch, &s.ParentBatch}, {EnvConcurrency, &s.Concurrency}, {EnvAccountsAtOnce, &s.AccountsAtOnce}} {
		if v := getenv(n.env); v != "" {
			if *n.dst, err = strconv.Atoi(v); err != nil || *n.dst < 1 {
				return Settings{}, fmt.Errorf("%s=%q: want a positive integer", n.env, v)
			}
		}
	}
	return s.withDefaults(), s.validate()
}

func (s Settings) validate() error {
	if s.Table == "" {
		return fmt.Errorf("%s is required", EnvTable)
	}
	for _, r := range s.Regions {
		if r == "" || strings.ContainsAny(r, " /#") {
			return fmt.Errorf("%s: bad region %q", EnvRegions, r)
		}
	}
	return nil
}

// withDefaults fills the zero knobs.
func (s Settings) withDefaults() Settings {
	if s.Debounce <= 0 {
		s.Debounce = DefaultDebounce
	}
	if s.StateTTL <= 0 {
		s.StateTTL = DefaultStateTTL
	}
	if s.IndexTTL <= 0 {
		s.IndexTTL = DefaultIndexTTL
	}
	if s.ReadBatch <= 0 {
		s.ReadBatch = DefaultReadBatch
	}
	if s.ParentBatch <= 0 {
		s.ParentBatch = DefaultParentBatch
	}
	if s.Concurrency <= 0 {
		s.Concurrency = DefaultConcurrency
	}
	if s.RevertWait <= 0 {
		s.RevertWait = DefaultRevertWait
	}
	if s.ReadRate <= 0 {
		s.ReadRate = DefaultReadRate
	}
	if s.AccountsAtOnce <= 0 {
		s.AccountsAtOnce = DefaultAccountsAtOnce
	}
	if s.ReadDeadline <= 0 {
		s.ReadDeadline = DefaultReadDeadline
	}
	return s
}

// callTimeout bounds one AWS call of a function, retries included. It is
// below the shortest function timeout (30 s, infra/functions.go), so a call
// that never answers costs one resource (skipped, reason timeout) or one
// retried task, never the whole invocation.
const callTimeout = 20 * time.Second

// AWSConfig loads the central aws.Config for s in region (a function's
// AWS_REGION): the pipeline's adaptive retry mode and call deadlines, the
// default endpoint override, the static keys and the CA bundle when set.
func AWSConfig(ctx context.Context, s Settings, region string) (aws.Config, error) {
	return scan.Config(ctx, scan.Settings{
		Region:          region,
		EndpointURL:     s.Endpoints.Default,
		AccessKeyID:     s.AccessKeyID,
		SecretAccessKey: s.SecretAccessKey,
		CallTimeout:     callTimeout,
		CABundle:        s.CABundle,
	})
}

// resourceTypes reads a type list where AWS types may go without their
// "AWS::" (SQS::Queue): a name of two parts gets it back.
func resourceTypes(names []string) []string {
	for i, n := range names {
		if strings.Count(n, "::") == 1 {
			names[i] = "AWS::" + n
		}
	}
	return names
}

func list(v string) []string {
	var out []string
	for _, f := range strings.Split(v, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func duration(getenv func(string) string, env string, unit time.Duration) (time.Duration, error) {
	v := getenv(env)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s=%q: want a positive integer", env, v)
	}
	return time.Duration(n) * unit, nil
}

// FromEnv builds the Service a Lambda function serves: settings from the
// environment, one aws.Config for the function's region (AWS_REGION), and
// the clients made from it. Each functions/<name>/main.go calls it once.
func FromEnv(ctx context.Context, getenv func(string) string) (*Service, error) {
	set, err := SettingsFromEnv(getenv)
	if err != nil {
		return nil, fmt.Errorf("settings: %w", err)
	}
	cfg, err := AWSConfig(ctx, set, getenv("AWS_REGION"))
	if err != nil {
		return nil, fmt.Errorf("AWS config: %w", err)
	}
	svc, err := New(cfg, set)
	if err != nil {
		return nil, fmt.Errorf("service: %w", err)
	}
	return svc, nil
}
