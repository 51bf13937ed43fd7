package service

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	"github.com/aws/aws-sdk-go-v2/service/organizations"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"
	"github.com/aws/aws-sdk-go-v2/service/securityhub"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/realdrift/realdrift/internal/lambdarouter"
	"github.com/realdrift/realdrift/internal/notify"
	"github.com/realdrift/realdrift/internal/pace"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/internal/who"
	"github.com/realdrift/realdrift/statemachine"
)

// accountLister is the Organizations call discover makes.
type accountLister interface {
	ListAccounts(ctx context.Context, in *organizations.ListAccountsInput, optFns ...func(*organizations.Options)) (*organizations.ListAccountsOutput, error)
}

// executionStarter is the Step Functions call the trigger makes.
type executionStarter interface {
	StartExecution(ctx context.Context, in *sfn.StartExecutionInput, optFns ...func(*sfn.Options)) (*sfn.StartExecutionOutput, error)
}

// objectStore is the S3 calls discover makes: it writes the sweep's stack
// lists and reads the Stacks Map's results.
type objectStore interface {
	PutObject(ctx context.Context, in *s3.PutObjectInput, optFns ...func(*s3.Options)) (*s3.PutObjectOutput, error)
	GetObject(ctx context.Context, in *s3.GetObjectInput, optFns ...func(*s3.Options)) (*s3.GetObjectOutput, error)
}

// eventPutter is the EventBridge call the sweep summary makes.
type eventPutter interface {
	PutEvents(ctx context.Context, in *eventbridge.PutEventsInput, optFns ...func(*eventbridge.Options)) (*eventbridge.PutEventsOutput, error)
}

var (
	_ accountLister    = (*organizations.Client)(nil)
	_ executionStarter = (*sfn.Client)(nil)
	_ eventPutter      = (*eventbridge.Client)(nil)
	_ objectStore      = (*s3.Client)(nil)
)

// Service holds the clients and settings every handler uses. Build one per
// process with New; its handlers are safe for concurrent use.
type Service struct {
	set      Settings
	store    store.Store
	accounts *accounts
	// reverters hands out member configs with the revert role assumed.
	reverters *accounts
	// findings hands out member configs with the findings role assumed
	// (the Security Hub channel).
	findings *accounts
	// region is the central region (the table's).
	region  string
	org     accountLister
	starter executionStarter
	events  eventPutter
	// objects holds the sweep's stack lists and results (TargetsBucket).
	objects  objectStore
	debounce *debouncer
	channels []channel
	// messengers carry revert messages (approval requests, outcomes).
	messengers []messenger
	tasks      taskSender
	// finder paces the LookupEvents calls of every check this process
	// makes (each check takes a Session of it: writers.go).
	finder *who.Finder
	// warned holds the channels whose being unset was logged.
	warned sync.Map
	now    func() time.Time
	log    *slog.Logger
}

// Option configures a Service.
type Option func(*Service)

// WithClock sets the clock stamping runs and opening debounce windows
// (tests move it; the default is time.Now).
func WithClock(now func() time.Time) Option {
	return func(s *Service) { s.now = now }
}

// New builds a Service from the central account's aws.Config.
func New(cfg aws.Config, set Settings, opts ...Option) (*Service, error) {
	set = set.withDefaults()
	if err := set.validate(); err != nil {
		return nil, err
	}
	db := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) { endpoint(&o.BaseEndpoint, set.Endpoints.DynamoDB) })
	stsc := sts.NewFromConfig(cfg)
	sfnc := sfn.NewFromConfig(cfg, func(o *sfn.Options) { endpoint(&o.BaseEndpoint, set.Endpoints.StepFunctions) })
	s := &Service{
		set:       set,
		accounts:  newAccounts(cfg, stsc, set.ReadRoleName),
		reverters: newAccounts(cfg, stsc, set.RevertRoleName),
		findings:  newAccounts(cfg, stsc, set.FindingsRoleName),
		region:    cfg.Region,
		org:       organizations.NewFromConfig(cfg),
		starter:   sfnc,
		tasks:     sfnc,
		debounce:  &debouncer{db: db, table: set.Table},
		// Path-style, so an endpoint override (the sandbox) is addressed
		// as AWS is.
		objects: s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = set.Endpoints.Default != "" }),
		now:     time.Now,
	}
	for _, o := range opts {
		o(s)
	}
	// LookupEvents' window ends at the service's one clock; its pacing
	// sleeps in real time, as the read schedule does.
	s.finder = who.New(who.Options{Now: s.now})
	// Member-account reads share one rate per account-region across every
	// Lambda of a sweep: a schedule item in the table (internal/pace). The
	// schedule is real time — its callers really sleep until their slot
	// and their calls' deadlines are real — so it keeps the wall clock, not
	// WithClock's (which stamps runs and may be moved by tests).
	s.accounts.pace = pace.New(db, set.Table, pace.Options{Rate: set.ReadRate})
	if set.TopicARN != "" {
		topic := notify.NewSNS(sns.NewFromConfig(cfg, func(o *sns.Options) { endpoint(&o.BaseEndpoint, set.Endpoints.SNS) }), set.TopicARN)
		s.channels = append(s.channels, channel{"sns", topic})
		s.messengers = append(s.messengers, messenger{"sns", topic})
	}
	if set.SlackSecretID != "" {
		sm := secretsmanager.NewFromConfig(cfg, func(o *secretsmanager.Options) { endpoint(&o.BaseEndpoint, set.Endpoints.SecretsManager) })
		slack := &slackChannel{secrets: sm, id: set.SlackSecretID, slack: notify.NewSlack(sm, set.SlackSecretID, nil), now: s.now}
		s.channels = append(s.channels, channel{"slack", slack})
		s.messengers = append(s.messengers, messenger{"slack", slack})
	}
	if set.SecurityHub {
		// In the member account (BatchImportFindings is called by the
		// account the findings are in), through its findings role: the
		// read role stays read-only.
		hub := &notify.SecurityHub{Client: func(account, region string) notify.SecurityHubAPI {
			return securityhub.NewFromConfig(s.findings.config(account, region))
		}}
		s.channels = append(s.channels, channel{"securityhub", hub})
	}
	if set.EventBus != "" {
		eb := eventbridge.NewFromConfig(cfg, func(o *eventbridge.Options) { endpoint(&o.BaseEndpoint, set.Endpoints.EventBridge) })
		s.channels = append(s.channels, channel{"eventbridge", notify.NewEventBridge(eb, set.EventBus)})
		s.events = eb
	}
	// The store reads the service's one clock, so a moved clock moves
	// expiry and index stamps with it.
	s.store = store.NewDynamo(db, set.Table, store.WithClock(s.now))
	return s, nil
}

func endpoint(dst **string, url string) {
	if url != "" {
		*dst = aws.String(url)
	}
}

// Register adds every handler to r under the function names the state
// machines invoke (statemachine.Function*).
func (s *Service) Register(r *lambdarouter.Router) error {
	for name, h := range s.Handlers() {
		if err := r.Handle(name, h); err != nil {
			return err
		}
	}
	return nil
}

// Handlers maps each function name to its handler.
func (s *Service) Handlers() map[string]any {
	return map[string]any{
		statemachine.FunctionDiscover:          logged(s, statemachine.FunctionDiscover, s.Discover),
		statemachine.FunctionLoadDesired:       logged(s, statemachine.FunctionLoadDesired, s.LoadDesired),
		statemachine.FunctionReadResources:     logged(s, statemachine.FunctionReadResources, s.ReadResources),
		statemachine.FunctionResolve:           logged(s, statemachine.FunctionResolve, s.Resolve),
		statemachine.FunctionEnumerateChildren: logged(s, statemachine.FunctionEnumerateChildren, s.EnumerateChildren),
		statemachine.FunctionClassify:          logged(s, statemachine.FunctionClassify, s.Classify),
		statemachine.FunctionPersist:           logged(s, statemachine.FunctionPersist, s.Persist),
		statemachine.FunctionNotify:            logged(s, statemachine.FunctionNotify, s.Notify),
		statemachine.FunctionTrigger:           logged(s, statemachine.FunctionTrigger, s.Trigger),
		statemachine.FunctionRevertPlan:        logged(s, statemachine.FunctionRevertPlan, s.RevertPlan),
		statemachine.FunctionRequestApproval:   logged(s, statemachine.FunctionRequestApproval, s.RequestApproval),
		statemachine.FunctionRevertWrite:       logged(s, statemachine.FunctionRevertWrite, s.RevertWrite),
		statemachine.FunctionRevertConverge:    logged(s, statemachine.FunctionRevertConverge, s.RevertConverge),
		statemachine.FunctionRevertAudit:       logged(s, statemachine.FunctionRevertAudit, s.RevertAudit),
		statemachine.FunctionApproveLink:       logged(s, statemachine.FunctionApproveLink, s.ApproveLink),
		statemachine.FunctionAccept:            logged(s, statemachine.FunctionAccept, s.Accept),
	}
}

// Handler returns the handler of the named function.
func (s *Service) Handler(name string) (any, error) {
	h, ok := s.Handlers()[name]
	if !ok {
		return nil, fmt.Errorf("no realdrift function %q", name)
	}
	return h, nil
}

// clients builds the scan clients of account and region, through the
// account's read role. Their caches (exports, schema facts) live for one
// invocation.
func (s *Service) clients(account, region string) *scan.Clients {
	return scan.NewClients(s.accounts.config(account, region))
}
