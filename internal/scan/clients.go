package scan

import (
	"context"
	"fmt"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	cfntypes "github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
	"github.com/aws/aws-sdk-go-v2/service/cloudtrail"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/sts"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/schema"
)

// stackAPI is the CloudFormation surface the desired-state loader calls.
type stackAPI interface {
	DescribeStacks(ctx context.Context, in *cloudformation.DescribeStacksInput, optFns ...func(*cloudformation.Options)) (*cloudformation.DescribeStacksOutput, error)
	GetTemplate(ctx context.Context, in *cloudformation.GetTemplateInput, optFns ...func(*cloudformation.Options)) (*cloudformation.GetTemplateOutput, error)
	ListStackResources(ctx context.Context, in *cloudformation.ListStackResourcesInput, optFns ...func(*cloudformation.Options)) (*cloudformation.ListStackResourcesOutput, error)
	ListExports(ctx context.Context, in *cloudformation.ListExportsInput, optFns ...func(*cloudformation.Options)) (*cloudformation.ListExportsOutput, error)
	ListImports(ctx context.Context, in *cloudformation.ListImportsInput, optFns ...func(*cloudformation.Options)) (*cloudformation.ListImportsOutput, error)
	DescribeType(ctx context.Context, in *cloudformation.DescribeTypeInput, optFns ...func(*cloudformation.Options)) (*cloudformation.DescribeTypeOutput, error)
}

var _ stackAPI = (*cloudformation.Client)(nil)

// Clients are the clients of one account and region.
type Clients struct {
	CloudFormation stackAPI
	Live           *live.Clients
	// KMS resolves managed alias targets; nil skips that fact.
	KMS kmsAPI
	// Identity names the caller's account (CallerAccount); may be nil.
	Identity identityAPI
	// CloudTrail looks up who changed a drifted resource (check --who,
	// internal/who); never called by the check itself.
	CloudTrail *cloudtrail.Client

	// listed holds the descriptions ListStacks listed, until each stack's
	// load takes its own.
	listed listedStacks
	// exports caches ListExports for the account and region.
	exports exportCache
	// aliases caches the managed KMS alias targets.
	aliases exportCache
	// defaultGroups caches the default security groups.
	defaultGroups defaultGroups
	// registry answers schema facts: DescribeType over the embedded
	// snapshot, cached for the clients' lifetime (one run).
	registry struct {
		once sync.Once
		reg  *schema.Registry
		err  error
	}
}

// Schema returns the run's schema facts source: the account-region's
// registry (DescribeType) over the embedded snapshot, each type asked once.
func (c *Clients) Schema() (*schema.Registry, error) {
	c.registry.once.Do(func() {
		snap, err := schema.Embedded()
		if err != nil {
			c.registry.err = fmt.Errorf("schema facts: %w", err)
			return
		}
		c.registry.reg = schema.NewRegistry(c.CloudFormation, snap)
	})
	return c.registry.reg, c.registry.err
}

// FactsSource returns the run's schema facts source: the embedded snapshot,
// DescribeType (once per type, Schema) only for the types it lacks; with
// live, Schema itself (DescribeType for every type, the snapshot behind).
func (c *Clients) FactsSource(live bool) (FactsSource, error) {
	reg, err := c.Schema()
	if err != nil || live {
		return reg, err
	}
	snap, err := schema.Embedded()
	if err != nil {
		return nil, fmt.Errorf("schema facts: %w", err)
	}
	return snapshotFirst{snap: snap, reg: reg}, nil
}

// snapshotFirst answers from the snapshot, asking reg only for the types
// the snapshot lacks or says Cloud Control cannot read: a snapshot older
// than the account may miss a read handler AWS has since added (the
// corpus's AWS::EC2::NetworkAclEntry), and a stale "unreadable" would skip
// a resource AWS can read. The registry keeps the snapshot behind it, so a
// failed DescribeType still answers.
type snapshotFirst struct {
	snap *schema.Snapshot
	reg  FactsSource
}

func (s snapshotFirst) Lookup(ctx context.Context, typeName string) (*schema.Facts, error) {
	if f, ok := s.snap.Lookup(typeName); ok && f.Readable() {
		return f, nil
	}
	return s.reg.Lookup(ctx, typeName)
}

var _ FactsSource = snapshotFirst{}

// listedStacks are stack descriptions by name.
type listedStacks struct {
	mu     sync.Mutex
	stacks map[string]cfntypes.Stack
}

func (l *listedStacks) put(st cfntypes.Stack) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stacks == nil {
		l.stacks = map[string]cfntypes.Stack{}
	}
	l.stacks[deref(st.StackName)] = st
}

// take returns and forgets name's description.
func (l *listedStacks) take(name string) (cfntypes.Stack, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	st, ok := l.stacks[name]
	delete(l.stacks, name)
	return st, ok
}

// peek returns name's description, keeping it.
func (l *listedStacks) peek(name string) (cfntypes.Stack, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	st, ok := l.stacks[name]
	return st, ok
}

// NewClients builds every client from cfg (one account, one region).
func NewClients(cfg aws.Config) *Clients {
	return &Clients{
		CloudFormation: cloudformation.NewFromConfig(cfg),
		Live:           live.NewClients(cfg),
		KMS:            kms.NewFromConfig(cfg),
		Identity:       sts.NewFromConfig(cfg),
		CloudTrail:     cloudtrail.NewFromConfig(cfg),
	}
}

// exportCache holds a name → value listing of the account-region once
// listed.
type exportCache struct {
	mu     sync.Mutex
	loaded bool
	values map[string]string
}

// Exports returns the CloudFormation exports of the clients' account and
// region, listing them on first use only.
func (c *Clients) Exports(ctx context.Context) (map[string]string, error) {
	c.exports.mu.Lock()
	defer c.exports.mu.Unlock()
	if c.exports.loaded {
		return c.exports.values, nil
	}
	values := map[string]string{}
	p := cloudformation.NewListExportsPaginator(c.CloudFormation, &cloudformation.ListExportsInput{})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, e := range page.Exports {
			if e.Name != nil && e.Value != nil {
				values[*e.Name] = *e.Value
			}
		}
	}
	c.exports.loaded, c.exports.values = true, values
	return values, nil
}
