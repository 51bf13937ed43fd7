package service

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/organizations"
	orgtypes "github.com/aws/aws-sdk-go-v2/service/organizations/types"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/statemachine"
)

// runState is a sweep's record in the run state.
type runState struct {
	StartedAt time.Time `json:"startedAt"`
	Accounts  []string  `json:"accounts"`
}

// accountState is one account's discovered stacks.
type accountState struct {
	Targets []drift.StackRef `json:"targets"`
}

// failure is a recorded error and its cause.
type failure struct {
	Error string `json:"error"`
	Cause string `json:"cause,omitempty"`
}

// Discover is the discover function. Without an account it lists the
// organisation's active accounts (limited to Settings.Accounts when set),
// opens the run and returns statemachine.DiscoveredAccounts; with one it
// lists that account's stacks in every configured region, through the read
// role, records them on the run and returns statemachine.DiscoveredTargets,
// one entry per region: every stack once, each nested stack (ParentId)
// after its parent, depth first. With an account, a region and the Stacks
// Map Run's results (the sweep's ListLargeStacks) it lists the stacks that
// Map left to the LargeStacks Map (largeStacks). With a targets bucket
// (REALDRIFT_TARGETS_BUCKET, set by infra) each region's list is an S3
// object the entry names, so thousands of stacks never pass through the
// state machine (5,000 stacks: a 215-byte result instead of 338,962 bytes,
// TestDiscoverFiveThousandStacks); without one (local runs) the list is
// inline.
func (s *Service) Discover(ctx context.Context, in statemachine.DiscoverTask) (any, error) {
	if in.RunID == "" {
		return nil, fmt.Errorf("discover: no run id")
	}
	if in.Account == "" {
		out, err := s.discoverAccounts(ctx, in.RunID)
		return out, stepError(err)
	}
	if in.Results != nil {
		out, err := s.largeStacks(ctx, in)
		return out, stepError(err)
	}
	out, err := s.discoverStacks(ctx, in.RunID, in.Account)
	return out, stepError(err)
}

func (s *Service) discoverAccounts(ctx context.Context, runID string) (statemachine.DiscoveredAccounts, error) {
	var accts []string
	p := organizations.NewListAccountsPaginator(s.org, &organizations.ListAccountsInput{})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return statemachine.DiscoveredAccounts{}, fmt.Errorf("list organisation accounts: %w", err)
		}
		for _, a := range page.Accounts {
			id := aws.ToString(a.Id)
			if id == "" || !active(a) {
				continue
			}
			if len(s.set.Accounts) > 0 && !slices.Contains(s.set.Accounts, id) {
				continue
			}
			accts = append(accts, id)
		}
	}
	slices.Sort(accts)
	accts = slices.Compact(accts)

	var run runState
	if _, err := s.getJSON(ctx, runID, keyRun, &run); err != nil {
		return statemachine.DiscoveredAccounts{}, err
	}
	if run.StartedAt.IsZero() {
		run.StartedAt = s.now().UTC()
	}
	run.Accounts = accts
	if err := s.putJSON(ctx, runID, keyRun, run); err != nil {
		return statemachine.DiscoveredAccounts{}, err
	}
	return statemachine.DiscoveredAccounts{Accounts: accts, AccountsAtOnce: s.set.AccountsAtOnce}, nil
}

// active reports whether an organisation account is active (State, or the
// older Status field).
func active(a orgtypes.Account) bool {
	if a.State != "" {
		return a.State == orgtypes.AccountStateActive
	}
	return a.Status == orgtypes.AccountStatusActive
}

func (s *Service) discoverStacks(ctx context.Context, runID, account string) (statemachine.DiscoveredTargets, error) {
	if len(s.set.Regions) == 0 {
		return statemachine.DiscoveredTargets{}, fmt.Errorf("discover %s: no regions configured (%s)", account, EnvRegions)
	}
	var targets []drift.StackRef
	var out statemachine.DiscoveredTargets
	for _, region := range s.set.Regions {
		c := s.clients(account, region)
		// Nested stacks are stacks of the region (the listing carries
		// their ParentId): each is a target of its own, once, right after
		// the stack it is nested in, as check --all reports them.
		listed, err := scan.ListStackTree(ctx, c)
		if err != nil {
			return statemachine.DiscoveredTargets{}, fmt.Errorf("account %s region %s: %w", account, region, err)
		}
		rt := statemachine.RegionTargets{Region: region, Stacks: len(listed)}
		for _, st := range listed {
			rt.Targets = append(rt.Targets, drift.StackRef{Account: account, Region: region, Name: st.Name})
		}
		targets = append(targets, rt.Targets...)
		if s.set.TargetsBucket != "" {
			if err := s.writeTargets(ctx, runID, account, &rt); err != nil {
				return statemachine.DiscoveredTargets{}, err
			}
		}
		out.Regions = append(out.Regions, rt)
	}
	if err := s.putJSON(ctx, runID, keyAccount+account, accountState{Targets: targets}); err != nil {
		return statemachine.DiscoveredTargets{}, err
	}
	return out, nil
}

// writeTargets puts rt's stack list into the targets bucket, where the
// sweep's Stacks Map reads it (ItemReader), and makes rt a reference to it:
// bucket, key and the prefix its children's results go under
// (ResultWriter). The key is deterministic in (run, account, region), so a
// retried discover overwrites its first attempt's object.
func (s *Service) writeTargets(ctx context.Context, runID, account string, rt *statemachine.RegionTargets) error {
	prefix := targetsPrefix(runID, account, rt.Region)
	if err := s.writeList(ctx, prefix, "targets.json", rt); err != nil {
		return fmt.Errorf("account %s: %w", account, err)
	}
	rt.ResultsPrefix = prefix + "results"
	return nil
}

// writeList puts rt's stack list at prefix+name in the targets bucket and
// makes rt a reference to it (Bucket, Key; Targets emptied). An empty list
// is written too (an empty array): a Map's ItemReader always reads one.
func (s *Service) writeList(ctx context.Context, prefix, name string, rt *statemachine.RegionTargets) error {
	list := rt.Targets
	if list == nil {
		list = []drift.StackRef{}
	}
	body, err := json.Marshal(list)
	if err != nil {
		return fmt.Errorf("encode stack list: %w", err)
	}
	if _, err := s.objects.PutObject(ctx, &s3.PutObjectInput{
		Bucket: aws.String(s.set.TargetsBucket), Key: aws.String(prefix + name),
		Body: bytes.NewReader(body), ContentType: aws.String("application/json"),
	}); err != nil {
		return fmt.Errorf("write the stack list %s of region %s: %w", name, rt.Region, err)
	}
	rt.Bucket, rt.Key, rt.Targets = s.set.TargetsBucket, prefix+name, nil
	return nil
}

// targetsPrefix is where an account-region's stack lists and results go in
// the targets bucket.
func targetsPrefix(runID, account, region string) string {
	return "runs/" + runID + "/" + account + "/" + region + "/"
}

// largeStacks lists the stacks of one account-region the sweep's Express
// Stacks Map left to its Standard LargeStacks Map, from the Map Run's
// results (in.Results names its manifest; statemachine.LargeStacks says
// which), writes the list beside the region's stack list (large.json) and
// returns a reference to it, with the prefix the LargeStacks Map's results
// go under.
func (s *Service) largeStacks(ctx context.Context, in statemachine.DiscoverTask) (statemachine.RegionTargets, error) {
	if s.set.TargetsBucket == "" {
		return statemachine.RegionTargets{}, fmt.Errorf("list large stacks: no targets bucket (%s)", EnvTargetsBucket)
	}
	if in.Region == "" || in.Results.Bucket != s.set.TargetsBucket || in.Results.Key == "" {
		return statemachine.RegionTargets{}, fmt.Errorf("list large stacks of %s: want a region and the Stacks Map's results in %s, got %q %+v", in.Account, s.set.TargetsBucket, in.Region, *in.Results)
	}
	prefix := targetsPrefix(in.RunID, in.Account, in.Region)
	read := func(key string, v any) error { return s.readObject(ctx, key, v) }
	large, err := statemachine.LargeStacks(read, in.Results.Key, prefix+"targets.json")
	if err != nil {
		return statemachine.RegionTargets{}, err
	}
	rt := statemachine.RegionTargets{Region: in.Region, Targets: large}
	rt.Stacks = len(rt.Targets)
	if err := s.writeList(ctx, prefix, "large.json", &rt); err != nil {
		return statemachine.RegionTargets{}, err
	}
	rt.ResultsPrefix = prefix + "results-large"
	return rt, nil
}

// readObject decodes the JSON object at key in the targets bucket.
func (s *Service) readObject(ctx context.Context, key string, v any) error {
	bucket := s.set.TargetsBucket
	out, err := s.objects.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	if err != nil {
		return fmt.Errorf("read s3://%s/%s: %w", bucket, key, err)
	}
	defer out.Body.Close()
	if err := json.NewDecoder(out.Body).Decode(v); err != nil {
		return fmt.Errorf("s3://%s/%s: %w", bucket, key, err)
	}
	return nil
}
